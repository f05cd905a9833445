package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Laplace is the exact trade-off curve of the Laplace mechanism: noise
// Lap(0, b) added to a query of L1 sensitivity Δ, ε = Δ/b. The mechanism is
// pure ε-DP under whichever neighbouring relation Δ was computed for
// (add/remove or replace-one); its curve is the trade-off T(Lap(0, 1),
// Lap(ε, 1)) (Dong, Roth & Su 2022, "Gaussian Differential Privacy",
// JRSS-B, the Laplace example of §2; re-derived from the Neyman–Pearson
// lemma in Kulynych et al. 2025 and checked by numerical integration in the
// tests):
//
//	f(α) = 1 − e^ε·α        for 0 ≤ α < e^{−ε}/2
//	f(α) = e^{−ε}/(4α)      for e^{−ε}/2 ≤ α ≤ 1/2
//	f(α) = e^{−ε}·(1 − α)   for 1/2 < α ≤ 1
//
// It coincides with the pure-DP curve f_{ε,0} for α ≤ e^{−ε}/2 and α ≥ 1/2
// and lies strictly above it in between, so Laplace risk never exceeds the
// risk of a generic ε-DP mechanism.
//
// Epsilon must be ≥ 0 (callers validate); a NaN or negative Epsilon is not a
// privacy guarantee and gives the vacuous curve f ≡ 0, as does +Inf.
type Laplace struct {
	Epsilon float64 // ε = Δ/b ≥ 0
}

// vacuous reports whether ε carries no guarantee (NaN, negative or +Inf).
func (c Laplace) vacuous() bool { return !(c.Epsilon >= 0) || math.IsInf(c.Epsilon, 1) }

// TradeOff returns f(α) of the Laplace curve (see Laplace). e^ε·α and
// e^{−ε}/(4α) are formed as exp(ε + ln α) and exp(−ε − ln 4α) so that ε up
// to thousands neither overflows nor underflows prematurely.
func (c Laplace) TradeOff(alpha float64) float64 {
	if f, ok := tradeOffAtEdges(alpha, c.vacuous()); ok {
		return f
	}
	eps := c.Epsilon
	lo := 0.5 * math.Exp(-eps) // e^{−ε}/2
	switch {
	case alpha < lo:
		return 1 - math.Exp(eps+numeric.LogPos(alpha))
	case alpha <= 0.5:
		return math.Exp(-eps - numeric.LogPos(4*alpha))
	default:
		return math.Exp(-eps) * (1 - alpha)
	}
}

// Advantage returns 1 − f(b) − b for the Laplace curve, the bound of
// Kulynych et al. 2025, Thm 3.3 (Eq. 11). Each piece is rearranged so that
// nothing cancels:
//
//	b·(e^ε − 1)                         for b < e^{−ε}/2
//	(1 − e^{−ε} − (1 − 2b)²)/(4b)       for e^{−ε}/2 ≤ b ≤ 1/2 and ε ≤ 1
//	(1 − b) − e^{−ε}/(4b)               for e^{−ε}/2 ≤ b ≤ 1/2 and ε > 1
//	(1 − b)·(1 − e^{−ε})                for b > 1/2
//
// (the two middle forms are equal; in the first the subtracted term is at
// most 1 − e^{−1} of the other, in the second at most 0.62 of it). The
// result is exact, not rounded.
func (c Laplace) Advantage(b float64) float64 {
	eps := c.Epsilon
	if adv, ok := advantageAtEdges(b, c.vacuous(), false); ok {
		return adv
	}
	lo := 0.5 * math.Exp(-eps)
	var adv float64
	switch {
	case b < lo:
		if eps <= 700 {
			adv = b * math.Expm1(eps)
		} else { // e^ε overflows; b < e^{−ε}/2 keeps the product below 1/2
			adv = math.Exp(eps+numeric.LogPos(b)) * -math.Expm1(-eps)
		}
	case b <= 0.5:
		if eps <= 1 {
			m := 1 - 2*b
			adv = (-math.Expm1(-eps) - m*m) / (4 * b)
		} else {
			adv = (1 - b) - math.Exp(-eps-numeric.LogPos(4*b))
		}
	default:
		adv = (1 - b) * -math.Expm1(-eps)
	}
	return math.Min(math.Max(adv, 0), 1-b)
}

// WorstAdvantage returns η = max_α (1 − f(α) − α) = 1 − e^{−ε/2}, attained at
// α = e^{−ε/2}/2 (derived from Kulynych et al. 2025, Thm 3.4).
// It equals the total variation distance between Lap(0, 1) and Lap(ε, 1),
// and is computed as −expm1(−ε/2) so that small ε keeps its precision.
func (c Laplace) WorstAdvantage() float64 {
	if c.vacuous() {
		return 1
	}
	return -math.Expm1(-c.Epsilon / 2)
}

// DeltaAt returns the privacy profile of the Laplace mechanism, the
// hockey-stick divergence δ(ε') = sup_S P(S) − e^{ε'}Q(S) between Lap(0, 1)
// and Lap(ε, 1) (derived from Kulynych et al. 2025; it follows by integrating the
// privacy loss, which is ε on x ≤ 0, ε − 2x on [0, ε] and −ε beyond):
//
//	δ(ε') = 1 − e^{(ε'−ε)/2}   for 0 ≤ ε' ≤ ε,   0 for ε' ≥ ε.
//
// δ(0) = η. Negative ε' is treated as 0.
func (c Laplace) DeltaAt(epsPrime float64) float64 {
	if c.vacuous() {
		return 1
	}
	if math.IsNaN(epsPrime) {
		return epsPrime
	}
	epsPrime = math.Max(epsPrime, 0)
	if epsPrime >= c.Epsilon {
		return 0
	}
	return -math.Expm1((epsPrime - c.Epsilon) / 2)
}

// EpsilonAt returns the smallest ε' ≥ 0 with δ(ε') ≤ δ for the Laplace
// profile (see DeltaAt): ε' = max(0, ε + 2·ln(1 − δ)), 0 when δ ≥ η. The
// value is rounded up and then checked: it is raised until δ(ε') ≤ δ holds
// as computed. δ must be in [0, 1]; δ = 0 gives ε.
func (c Laplace) EpsilonAt(delta float64) float64 {
	if c.vacuous() {
		return math.Inf(1)
	}
	if math.IsNaN(delta) {
		return delta
	}
	if delta >= 1 {
		return 0
	}
	if delta <= 0 {
		return c.Epsilon
	}
	e := math.Max(c.Epsilon+2*math.Log1p(-delta), 0)
	return profileEpsilonUp(c.DeltaAt, e, delta, c.Epsilon)
}
