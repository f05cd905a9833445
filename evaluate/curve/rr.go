package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// RandomizedResponse is the exact trade-off curve of k-ary randomized
// response (Warner 1965; Kairouz, Oh & Viswanath 2016 for k values): each
// record's value v ∈ {1, …, k} is reported as v with probability
// p = e^ε/(e^ε + k − 1) and as each other value with probability
// q = 1/(e^ε + k − 1). Neighbours are replace-one: one record's value
// changes from a to b ≠ a. The mechanism is pure ε-DP.
//
// Derivation (Neyman–Pearson lemma applied to the trade-off function
// T(P, Q) of Dong, Roth & Su 2022; the tests check it against every
// randomized test on the k outputs). The outputs on the two inputs
// are P (value a) and Q (value b). Output b has Q/P = p/q = e^ε (P-mass q),
// the k − 2 outputs other than a and b have Q/P = 1 (P-mass (k − 2)q), and
// output a has Q/P = e^{−ε} (P-mass p). The most powerful test rejects in
// decreasing order of Q/P, so f = T(P, Q) is piecewise linear with slopes
// −e^ε, −1, −e^{−ε} and kinks at α = q and α = (k − 1)q; as a convex
// function it is the maximum of its three lines:
//
//	f(α) = max{1 − e^ε·α, 1 − η − α, e^{−ε}·(1 − α)},
//	η = p − q = (e^ε − 1)/(e^ε + k − 1),
//
// that is, the intersection of pure ε-DP (f_{ε,0}, Kulynych et al. 2025
// Eq. 2) and η-TV privacy. For k = 2 the middle line passes through the
// kink of f_{ε,0} and f = f_{ε,0}. The pair (a, b) is arbitrary, so the
// curve is exact for the mechanism and symmetric (T(P, Q) = T(Q, P)).
//
// Categories ≤ 1 leave nothing to distinguish (one possible value) and give
// f(α) = 1 − α. Epsilon must be ≥ 0 (callers validate); ε = +Inf reports
// the value truthfully and gives f ≡ 0, and so does a NaN or negative
// Epsilon, which is no guarantee at all.
type RandomizedResponse struct {
	Epsilon    float64 // ε ≥ 0
	Categories int     // k ≥ 2
}

// vacuous reports whether ε carries no guarantee (NaN, negative or +Inf).
func (c RandomizedResponse) vacuous() bool {
	return c.Categories > 1 && (!(c.Epsilon >= 0) || math.IsInf(c.Epsilon, 1))
}

// TradeOff returns f(α) = max{1 − e^ε·α, 1 − η − α, e^{−ε}·(1 − α)} (see
// RandomizedResponse), with e^ε·α formed as exp(ε + ln α).
func (c RandomizedResponse) TradeOff(alpha float64) float64 {
	if f, ok := tradeOffAtEdges(alpha, c.vacuous()); ok {
		return f
	}
	if c.Categories <= 1 {
		return 1 - alpha
	}
	eps := c.Epsilon
	f := math.Max(1-math.Exp(eps+numeric.LogPos(alpha)), 1-c.WorstAdvantage()-alpha)
	return math.Max(f, math.Exp(-eps)*(1-alpha))
}

// Advantage returns 1 − f(b) − b = min{b·(e^ε − 1), η, (1 − b)·(1 − e^{−ε})}
// (Kulynych et al. 2025, Thm 3.3, Eq. 11, with the curve above): each line
// of f becomes one term of the minimum, and every term is a product, so
// nothing cancels. The result is exact, not rounded.
func (c RandomizedResponse) Advantage(b float64) float64 {
	if adv, ok := advantageAtEdges(b, c.vacuous(), c.Categories <= 1); ok {
		return adv
	}
	eps := c.Epsilon
	adv := c.WorstAdvantage()
	if eps <= 700 {
		adv = math.Min(adv, b*math.Expm1(eps))
	} else if grow := math.Exp(eps + numeric.LogPos(b)); grow < adv {
		adv = grow
	}
	adv = math.Min(adv, (1-b)*-math.Expm1(-eps))
	return math.Min(math.Max(adv, 0), 1-b)
}

// WorstAdvantage returns η = max_α (1 − f(α) − α) = (e^ε − 1)/(e^ε + k − 1),
// the total variation distance between the outputs on two different values
// (Kulynych et al. 2025, Thm 3.4; the middle line of the curve). It is
// computed as expm1(ε)/(expm1(ε) + k) for ε ≤ 1 and as
// (1 − e^{−ε})/(1 − e^{−ε} + k·e^{−ε}) beyond, which neither overflows nor
// cancels.
func (c RandomizedResponse) WorstAdvantage() float64 {
	switch {
	case c.Categories <= 1:
		return 0
	case c.vacuous():
		return 1
	}
	k := float64(c.Categories)
	if c.Epsilon <= 1 {
		m := math.Expm1(c.Epsilon)
		return m / (m + k)
	}
	m := -math.Expm1(-c.Epsilon)
	return m / (m + k*math.Exp(-c.Epsilon))
}

// truthProbability returns p = e^ε/(e^ε + k − 1) = numeric.Logistic(ε − ln(k − 1)).
func (c RandomizedResponse) truthProbability() float64 {
	return numeric.Logistic(c.Epsilon - math.Log(float64(c.Categories-1)))
}

// DeltaAt returns the privacy profile δ(ε') = Σ_o max{0, P(o) − e^{ε'}Q(o)}
// of k-ary randomized response, the hockey-stick divergence E_{e^ε'}(P‖Q)
// of Kulynych et al. 2025, Eq. (13). With the likelihood ratios above, only output a
// contributes for ε' ≥ 0:
//
//	δ(ε') = p·(1 − e^{ε'−ε}) = (e^ε − e^{ε'})/(e^ε + k − 1)   for 0 ≤ ε' ≤ ε,
//
// and 0 for ε' ≥ ε; δ(0) = η. It is computed as −p·expm1(ε' − ε). Negative ε'
// is treated as 0.
func (c RandomizedResponse) DeltaAt(epsPrime float64) float64 {
	if v, ok := c.privacyProfileEdge(epsPrime, 1); ok {
		return v
	}
	epsPrime = math.Max(epsPrime, 0)
	if epsPrime >= c.Epsilon {
		return 0
	}
	if epsPrime == 0 {
		return c.WorstAdvantage()
	}
	return -c.truthProbability() * math.Expm1(epsPrime-c.Epsilon)
}

// privacyProfileEdge returns DeltaAt(x) or EpsilonAt(x) where it does not
// depend on ε: NaN for a NaN argument, 0 for at most one category (the
// output reveals nothing), and ifVacuous for a vacuous curve (no privacy).
// ok is false when the profile must be computed.
func (c RandomizedResponse) privacyProfileEdge(x, ifVacuous float64) (v float64, ok bool) {
	switch {
	case math.IsNaN(x):
		return x, true
	case c.Categories <= 1:
		return 0, true
	case c.vacuous():
		return ifVacuous, true
	}
	return 0, false
}

// EpsilonAt returns the smallest ε' ≥ 0 with δ(ε') ≤ δ (see DeltaAt):
// ε' = ε + ln(1 − δ/p), and 0 when δ ≥ η. The value is rounded up and then
// checked: it is raised until δ(ε') ≤ δ holds as computed. δ = 0 gives ε.
func (c RandomizedResponse) EpsilonAt(delta float64) float64 {
	if v, ok := c.privacyProfileEdge(delta, math.Inf(1)); ok {
		return v
	}
	switch {
	case delta <= 0:
		return c.Epsilon
	case delta >= c.WorstAdvantage():
		return 0
	}
	e := math.Max(c.Epsilon+math.Log1p(-delta/c.truthProbability()), 0)
	return profileEpsilonUp(c.DeltaAt, e, delta, c.Epsilon)
}

// profileEpsilonUp returns e rounded up, then raised in steps of a few ulps
// of hi until delta(e) ≤ δ holds as computed (near δ(0) = η the closed-form
// inverse cannot resolve ε' below the rounding error of its terms), capped
// at hi, where δ(hi) = 0.
func profileEpsilonUp(deltaAt func(float64) float64, e, delta, hi float64) float64 {
	if e > 0 {
		e = numeric.RoundUp(e, 0, hi)
	}
	step := 8 * numeric.MachineEpsilon * math.Max(hi, 1)
	for i := 0; i < 64 && e < hi && deltaAt(e) > delta; i++ {
		e = math.Min(e+step, hi)
		step *= 2
	}
	return e
}
