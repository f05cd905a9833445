package bound

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Binary attribute inference with a Bernoulli prior, Kulynych et al. 2025
// ("Unifying Re-Identification, Attribute Inference, and Data
// Reconstruction Risks in Differential Privacy"), App. D; Kulynych et al. 2025.
// The attacker knows every other record and that the target is one of two
// candidates z_0, z_1, the second with prior probability π. Thm D.1 needs
// the f-DP guarantee under replace-one neighbours.

// BayesRisk returns the Bayes error of the prior π against an f-DP
// mechanism, Kulynych et al. Def. D.1 (after Kaissis et al. 2024):
//
//	R_f(π) = min_{α∈[0,1]} πα + (1 − π)·f(α),
//
// rounded down (it is subtracted from 1 to bound success, so a smaller R
// is the conservative side). Closed forms (Kulynych et al. 2025), with
// λ = ln(π/(1 − π)):
//
//	Gaussian G_μ:    πΦ(−λ/μ − μ/2) + (1 − π)Φ(λ/μ − μ/2)
//	EpsDelta f_{ε,δ}: (1 − δ)·min{π, 1 − π, 1/(1 + e^ε)}
//	Laplace:          √(π(1 − π))·e^{−ε/2} if |λ| ≤ ε, else min(π, 1 − π)
//	ComposedApprox:   the value at the vertex where the slope −e^{(k−2j)ε} of
//	                  the piecewise-linear curve crosses −π/(1 − π)
//
// Any other Curve is minimised numerically: the objective is convex, so
// golden-section search (in the logit of α, reaching α down to 1e-300)
// brackets the minimiser, and the lower bound that the chords of the four
// final points allow on the bracket is returned. π must be in [0, 1] and
// the curve non-nil, otherwise NaN; R(0) = R(1) = 0.
func BayesRisk(tradeOff curve.Curve, pi float64) float64 {
	if tradeOff == nil || !numeric.IsProbability(pi) {
		return math.NaN()
	}
	if pi == 0 || pi == 1 {
		return 0
	}
	n := math.Min(pi, 1-pi)
	var r float64
	switch c := tradeOff.(type) {
	case curve.Gaussian:
		mu := c.Mu
		switch {
		case math.IsNaN(mu) || mu < 0:
			return math.NaN()
		case mu == 0:
			r = n
		default:
			lam := numeric.Logit(pi)
			r = pi*numeric.NormCDF(-lam/mu-mu/2) + (1-pi)*numeric.NormCDF(lam/mu-mu/2)
		}
	case curve.EpsDelta:
		r = (1 - c.Delta) * math.Min(n, numeric.Logistic(-c.Epsilon))
	case curve.Laplace:
		switch {
		case math.IsNaN(c.Epsilon):
			return math.NaN()
		case c.Epsilon < 0 || math.IsInf(c.Epsilon, 1): // no guarantee: f ≡ 0
			r = 0
		case math.Abs(numeric.Logit(pi)) <= c.Epsilon:
			r = math.Exp(0.5*(numeric.LogPos(pi)+math.Log1p(-pi)) - c.Epsilon/2)
		default:
			r = n
		}
	case *curve.ComposedApprox:
		if c == nil {
			return math.NaN()
		}
		r = c.BayesRisk(pi)
	case curve.PLDCurve:
		// R(π) = n·(1 − δ(|logit π|)) for a symmetric curve (riskcal's
		// get_bayes_risk_from_pld); δ is an upper bound, so R is a lower one.
		r = n * (1 - c.DeltaAt(math.Abs(numeric.Logit(pi))))
	case curve.DPSGDCurve:
		r = n * (1 - c.DeltaAt(math.Abs(numeric.Logit(pi))))
	case *curve.Composition:
		// Symmetric, and its δ is the least of valid upper bounds, so R
		// is the largest of valid lower bounds.
		r = n * (1 - c.DeltaAt(math.Abs(numeric.Logit(pi))))
	default:
		neg, _ := goldenConcaveMax(func(a float64) float64 { return -(pi*a + (1-pi)*tradeOff.TradeOff(a)) })
		r = -neg
	}
	if math.IsNaN(r) {
		return r
	}
	return numeric.RoundDown(r, 0, n)
}

// BinarySuccess returns the bound of Kulynych et al. Thm D.1, Eq. (35), on
// the success of any attack that must tell which of two candidate records
// (prior π on z_1) is in the dataset, or on E q for any bounded q:
//
//	succ ≤ 1 − R_f(π),
//
// for an f-DP mechanism under replace-one neighbours (Kulynych et al. 2025),
// rounded up. With π = ½ and f = f_{ε,δ} it is the accuracy bound
// (e^ε + δ)/(e^ε + 1) of footnote 1 (Kairouz et al. 2015). NaN as for
// BayesRisk.
func BinarySuccess(tradeOff curve.Curve, pi float64) float64 {
	r := BayesRisk(tradeOff, pi)
	if math.IsNaN(r) {
		return r
	}
	return numeric.RoundUp(1-r, math.Max(pi, 1-pi), 1)
}

// gaussianLogDeltaUpper returns an upper bound on ln δ_μ(x) for x ≥ 0,
// where δ_μ is the Gaussian privacy profile (Gaussian.LogDeltaAt). That
// profile is Φ(a)·(1 − e^d) with d = x + ln Φ(a − μ) − ln Φ(a),
// a = −x/μ + μ/2, and when |d| is small (tiny μ, small x) the rounding of d
// is amplified by e^d/(1 − e^d) ≈ 1/|d|: for μ = 1e-6 the relative error is
// ~1e-10. The returned value adds that propagated bound,
// 8u·(|x| + |ln Φ(a)| + |ln Φ(a − μ)| + 1)·e^d/(1 − e^d) + 8u·(|ln δ| + 1),
// so the binary advantage built on it never understates. x = 0 uses the
// exact η = erf(μ/(2√2)).
func gaussianLogDeltaUpper(c curve.Gaussian, x float64) float64 {
	mu := c.Mu
	switch {
	case mu == 0:
		return math.Inf(-1)
	case math.IsInf(mu, 1):
		return 0
	case x == 0:
		return numeric.LogPos(c.WorstAdvantage())
	}
	ld := c.LogDeltaAt(x)
	if math.IsInf(ld, -1) {
		return ld
	}
	a := -x/mu + mu/2
	la, lb := numeric.LogNormCDF(a), numeric.LogNormCDF(a-mu)
	d := x + lb - la
	errD := 8 * numeric.UnitRoundoff * (math.Abs(x) + math.Abs(la) + math.Abs(lb) + 1)
	amp := 1.0
	if d < 0 {
		amp = math.Exp(d) / -math.Expm1(d)
	}
	return math.Min(0, ld+errD*amp+8*numeric.UnitRoundoff*(math.Abs(ld)+1))
}

// BinaryAdvantage returns the advantage bound of Thm D.1 over the baseline
// max(π, 1 − π) of guessing the likelier candidate (SAI with k = 2,
// Kulynych et al. 2025), replace-one neighbours:
//
//	adv ≤ 1 − R_f(π) − max(π, 1 − π),
//
// rounded up and clipped to [0, min(π, 1 − π)]. For the symmetric closed-form
// curves it is computed without cancellation through the privacy profile,
// R_f(π) = (1 − π)·(1 − δ_f(λ)) (Kulynych et al. 2025), which gives
//
//	adv = min(π, 1 − π)·δ_f(|λ|),   λ = ln(π/(1 − π)),
//
// with δ_f the Gaussian (Balle & Wang 2018), Laplace or composed profile,
// and for f_{ε,δ}: (max(π, 1 − π)·(e^{ε−|λ|} − 1) + δ)/(1 + e^ε) when
// |λ| < ε, min(π, 1 − π)·δ otherwise. Other curves use 1 − R − max(π, 1 − π)
// with the numerical R. NaN as for BayesRisk.
func BinaryAdvantage(tradeOff curve.Curve, pi float64) float64 {
	if tradeOff == nil || !numeric.IsProbability(pi) {
		return math.NaN()
	}
	m, n := math.Max(pi, 1-pi), math.Min(pi, 1-pi)
	if n == 0 {
		return 0
	}
	x := math.Abs(numeric.Logit(pi))
	var adv float64
	switch c := tradeOff.(type) {
	case curve.Gaussian:
		if math.IsNaN(c.Mu) || c.Mu < 0 {
			return math.NaN()
		}
		adv = n * math.Exp(gaussianLogDeltaUpper(c, x))
	case curve.EpsDelta:
		eps, delta := c.Epsilon, c.Delta
		if math.IsInf(eps, 1) { // f ≡ 0 beyond α = 0: the bound is vacuous
			adv = n
		} else if x >= eps {
			adv = n * delta
		} else {
			adv = math.Exp(math.Log(m)+numeric.LogExpm1(eps-x)-numeric.Softplus(eps)) + delta*numeric.Logistic(-eps)
		}
	case curve.Laplace:
		if math.IsNaN(c.Epsilon) {
			return math.NaN()
		}
		adv = n * c.DeltaAt(x)
	case *curve.ComposedApprox:
		if c == nil {
			return math.NaN()
		}
		adv = n * c.DeltaAt(x)
	case curve.PLDCurve:
		adv = n * c.DeltaAt(x)
	case curve.DPSGDCurve:
		adv = n * c.DeltaAt(x)
	case *curve.Composition:
		adv = n * c.DeltaAt(x)
	default:
		r := BayesRisk(tradeOff, pi)
		adv = 1 - r - m
	}
	if math.IsNaN(adv) {
		return adv
	}
	return numeric.RoundUp(adv, 0, n)
}
