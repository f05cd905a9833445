package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Gaussian is the trade-off curve of μ-Gaussian differential privacy (Dong,
// Roth & Su 2022), exact for the Gaussian mechanism with L2 sensitivity Δ
// and noise standard deviation σ, μ = Δ/σ, under the neighbouring relation
// Δ was computed for:
//
//	G_μ(α) = Φ(Φ⁻¹(1 − α) − μ)
type Gaussian struct {
	Mu float64 // μ ≥ 0
}

// TradeOff returns G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), evaluated through the upper
// tail as Q(Φ⁻¹(α) + μ) so that α near 0 or 1 loses nothing.
func (c Gaussian) TradeOff(alpha float64) float64 {
	switch {
	case alpha <= 0:
		return 1
	case alpha >= 1:
		return 0
	}
	return numeric.NormSF(numeric.NormQuantile(alpha) + c.Mu)
}

// Advantage returns 1 − G_μ(b) − b = Φ(Φ⁻¹(b) + μ) − Φ(Φ⁻¹(b)), the bound of
// Kulynych et al. Thm 3.3 (Eq. 11) for the Gaussian curve. The difference is
// formed in the tail where both terms are small, so it keeps its relative
// precision for baselines down to 1e-300 and up to 1 − 1e-16.
func (c Gaussian) Advantage(b float64) float64 {
	if b <= 0 || b >= 1 || c.Mu == 0 {
		return 0
	}
	z := numeric.NormQuantile(b)
	w := z + c.Mu
	var adv float64
	switch {
	case w <= 0: // both in the lower tail
		adv = numeric.NormCDF(w) - numeric.NormCDF(z)
	case z >= 0: // both in the upper tail
		adv = numeric.NormSF(z) - numeric.NormSF(w)
	default:
		adv = 1 - numeric.NormSF(w) - numeric.NormCDF(z)
	}
	return math.Min(math.Max(adv, 0), 1-b)
}

// WorstAdvantage returns η = 2Φ(μ/2) − 1 = erf(μ/(2√2)), the total variation
// distance between N(0, 1) and N(μ, 1): the baseline-free bound of Kulynych
// et al. Thm 3.4 for G_μ (Dong, Roth & Su 2022).
func (c Gaussian) WorstAdvantage() float64 {
	return math.Erf(c.Mu / (2 * math.Sqrt2))
}

// LogDeltaAt returns ln δ(ε), the log of the privacy profile of μ-GDP
// (Balle & Wang 2018, Thm 8; Dong, Roth & Su 2022, Cor. 2.13):
//
//	δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)
//
// Both terms are carried as logarithms, ln δ = ln Φ(a) + ln(1 − e^{ε + ln Φ(b) − ln Φ(a)}),
// so that δ far below the smallest float64 (ε up to thousands, μ up to 40)
// still has an exact logarithm.
func (c Gaussian) LogDeltaAt(eps float64) float64 {
	if c.Mu <= 0 {
		return math.Inf(-1)
	}
	ld, _, _ := c.logDeltaTerms(eps)
	return ld
}

// logDeltaTerms returns LogDeltaAt(ε) for μ > 0 with ln Φ(−ε/μ + μ/2) and
// ln Φ(−ε/μ − μ/2), its two terms, which the rounding error of ln δ
// (logDeltaAbove) and the slope of ln δ(ε) at ε (EpsilonAt's Newton
// steps) also take: computed once, the same bits.
func (c Gaussian) logDeltaTerms(eps float64) (ld, la, lb float64) {
	a := -eps/c.Mu + c.Mu/2
	b := -eps/c.Mu - c.Mu/2
	la = numeric.LogNormCDF(a)
	lb = numeric.LogNormCDF(b)
	d := eps + lb - la
	if d >= 0 {
		return math.Inf(-1), la, lb
	}
	return la + numeric.Log1mExp(d), la, lb
}

// DeltaAt returns δ(ε) of μ-GDP (see LogDeltaAt).
func (c Gaussian) DeltaAt(eps float64) float64 { return math.Exp(c.LogDeltaAt(eps)) }

// logDeltaAbove returns an upper bound on the exact ln δ(ε) at ε: ln δ(ε)
// as computed, raised by the rounding error of its computation. δ(ε) is
// the difference Φ(a) − e^ε·Φ(b) of two terms, each known to a relative
// error of a few ulps per unit of its logarithm's magnitude (ln Φ of a
// large negative argument is about −a²/2, whose rounding is relative to
// a²/2), which the difference magnifies by κ = (Φ(a) + e^ε·Φ(b))/δ(ε) =
// (1 + e^d)/(1 − e^d), d = ε + ln Φ(b) − ln Φ(a). Where δ(ε) is close to
// its terms (ε near 0 for a small μ), the root of δ(ε) = δ moves by many
// ulps with that error, and an ε tested as computed alone could sit below
// the exact root.
func (c Gaussian) logDeltaAbove(eps float64) (ld, lb float64) {
	ld, la, lb := c.logDeltaTerms(eps)
	if math.IsInf(ld, -1) {
		return ld, lb
	}
	d := eps + lb - la
	kappa := (1 + math.Exp(d)) / -math.Expm1(d)
	const perTerm = 8 * 0x1p-53 // relative error of each term, per unit of its log's magnitude
	rel := perTerm * (1 + math.Abs(la) + math.Abs(eps+lb)) * kappa
	return ld + math.Log1p(rel), lb
}

// EpsilonAt returns the smallest ε ≥ 0 such that the Gaussian mechanism is
// (ε, δ)-DP: the root of δ(ε) = δ for the analytic Gaussian mechanism of
// Balle & Wang (2018), 0 when δ(0) = η ≤ δ. δ(ε) is strictly decreasing, so
// the root is bracketed and bisected on ln δ(ε) to a relative width of
// 4e-16; the upper end of the final bracket is returned, for which δ(ε) ≤ δ
// holds with the rounding error of computing δ(ε) counted against it
// (logDeltaAbove): the reported ε never understates the risk. δ must be
// in (0, 1).
func (c Gaussian) EpsilonAt(delta float64) float64 {
	target := numeric.LogPos(delta)
	if c.Mu <= 0 {
		return 0
	}
	if ld, _ := c.logDeltaAbove(0); ld <= target {
		return 0
	}
	above := func(eps float64) float64 { ld, _ := c.logDeltaAbove(eps); return ld }
	lo, hi := 0.0, math.Max(1, c.Mu*c.Mu)
	for above(hi) > target {
		lo, hi = hi, 2*hi
	}
	// Newton steps guarded by the bracket converge in a handful of
	// evaluations; bisection takes over whenever a step leaves the
	// bracket. Once Newton has converged, the bracket is tightened around
	// its answer, by a relative 2e-15 on each side or, where the computed
	// ln δ(ε) is too noisy for that, by 2e-14, and bisected to the final
	// width: Newton steps on a function known to about 1e-13 would only
	// wander. Newton mostly comes from one side, so that one end of the
	// bracket is its last step: an end is tightened only where that
	// narrows the bracket. About 14 evaluations for μ in [0.001, 3] and δ
	// = 1e-5 (33 when Newton stepped on ln δ and the bracket was
	// tightened only where both ends narrowed it).
	x := (lo + hi) / 2
	newton := true
	for i := 0; i < 400 && hi-lo > 4e-16*hi; i++ {
		ld, lb := c.logDeltaAbove(x) // μ ≤ 0 returned above
		if ld > target {
			lo = x
		} else {
			hi = x
		}
		if newton {
			// d ln δ/dε = −e^ε·Φ(b)/δ(ε), with b = −ε/μ − μ/2.
			slope := -math.Exp(x + lb - ld)
			// Newton on h(ε) = √(−2 ln δ(ε)), nearly linear in ε (a
			// Gaussian tail), not on ln δ(ε), which is nearly
			// quadratic: from far above the root, a step on ln δ only
			// halves ε.
			h := math.Sqrt(-2 * ld)
			next := x - (h-math.Sqrt(-2*target))/(-slope/h)
			if math.Abs(next-x) <= 1e-14*x {
				newton = false
				for _, r := range [...]float64{2e-15, 2e-14} {
					tlo, thi := math.Max(lo, next*(1-r)), math.Min(hi, next*(1+r))
					if tlo < thi && (tlo == lo || above(tlo) > target) && (thi == hi || above(thi) <= target) {
						lo, hi = tlo, thi
						break
					}
				}
			} else if next > lo && next < hi {
				x = next
				continue
			}
		}
		x = (lo + hi) / 2
	}
	return hi
}
