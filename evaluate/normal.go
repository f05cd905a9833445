package evaluate

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The standard normal distribution, written so that both tails keep their
// relative precision. gonum's distuv.Normal computes the survival function
// as 1 − CDF and loses everything beyond z ≈ 8; every tail here goes through
// math.Erfc instead, and the log-CDF switches to its asymptotic series where
// erfc itself underflows.

const (
	sqrt2      = math.Sqrt2
	logSqrt2Pi = 0.91893853320467274178032973640561763986139747363778 // ½·ln(2π)
)

// normCDF returns Φ(x) = ½·erfc(−x/√2), with full relative precision in the
// lower tail (x → −∞) down to the smallest subnormal.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/sqrt2) }

// normSurvival returns 1 − Φ(x) = ½·erfc(x/√2) without forming the
// difference, so that the upper tail keeps its relative precision.
func normSurvival(x float64) float64 { return 0.5 * math.Erfc(x/sqrt2) }

// normPDF returns φ(x) = exp(−x²/2)/√(2π).
func normPDF(x float64) float64 { return math.Exp(-0.5*x*x - logSqrt2Pi) }

// logNormCDF returns ln Φ(x) for every finite x. Below x = −20 it uses the
// asymptotic expansion Φ(x) = φ(x)/|x| · Σₖ (−1)ᵏ (2k−1)!!/x^{2k}, whose
// twelfth term is below 1e-19 there, so ln Φ stays exact where Φ itself
// underflows (Φ(−38.5) ≈ 1e-324).
func logNormCDF(x float64) float64 {
	switch {
	case x > 5:
		return math.Log1p(-normSurvival(x))
	case x > -20:
		return math.Log(normCDF(x))
	case math.IsInf(x, -1):
		return math.Inf(-1)
	}
	x2 := x * x
	sum, term := 1.0, 1.0
	for k := 1; k <= 12; k++ {
		term *= -float64(2*k-1) / x2
		sum += term
	}
	return -0.5*x2 - logSqrt2Pi - math.Log(-x) + math.Log(sum)
}

// normQuantile returns Φ⁻¹(p) for p in [0, 1] (−∞ at 0, +∞ at 1). It starts
// from Wichura's AS 241 (gonum's mathext.NormalQuantile) and applies one
// Newton step on the tail that p lies in, which brings the relative error of
// the result to a few ulps even for p near 1e-300 or 1 − 1e-16.
func normQuantile(p float64) float64 {
	if !(p > 0) {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	if p < 1e-300 {
		return logTailQuantile(logPos(p))
	}
	z := mathext.NormalQuantile(p)
	if pdf := normPDF(z); pdf > 0 {
		if p < 0.5 {
			z -= (normCDF(z) - p) / pdf
		} else {
			z += (normSurvival(z) - (1 - p)) / pdf
		}
	}
	return z
}

// logPos returns ln x for x ≥ 0, exact also for subnormal x. Go's math.Log
// on amd64 mis-normalises subnormal inputs (golang/go#56600: Log(5e-324)
// returns −709.09 instead of −744.44), so a subnormal x is first scaled by
// 2^54, which is exact. Every logarithm of a probability goes through it:
// baselines and δ below 2.2e-308 are valid inputs.
func logPos(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// logTailQuantile returns z with ln Φ(z) = lp for lp < ln(1e-300), where
// Φ(z) itself is too small for the rational approximations (and for
// math.Log on subnormals): Newton's method on ln Φ, whose slope φ(z)/Φ(z)
// is ≈ |z| there, started from the first asymptotic term z ≈ −√(−2 lp).
func logTailQuantile(lp float64) float64 {
	z := -math.Sqrt(-2 * lp)
	for i := 0; i < 50; i++ {
		l := logNormCDF(z)
		slope := math.Exp(-0.5*z*z - logSqrt2Pi - l)
		step := (l - lp) / slope
		z -= step
		if math.Abs(step) <= 1e-15*math.Abs(z) {
			break
		}
	}
	return z
}

// log1mExp returns ln(1 − eˣ) for x ≤ 0 without cancellation (Mächler 2012):
// ln(−expm1(x)) near 0, log1p(−eˣ) further out.
func log1mExp(x float64) float64 {
	if x > -math.Ln2 {
		return logPos(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}

// logExpm1 returns ln(eˣ − 1) for x ≥ 0 without overflow for large x.
func logExpm1(x float64) float64 {
	if x > 36 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return logPos(math.Expm1(x))
}

// logistic returns σ(x) = 1/(1 + e⁻ˣ), exact in both tails.
func logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logit returns ln(p/(1 − p)) = ln p − ln(1 − p).
func logit(p float64) float64 { return logPos(p) - math.Log1p(-p) }

// softplus returns ln(1 + eˣ) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// logSumExp2 returns ln(eᵃ + eᵇ) without overflow; −Inf terms drop out.
func logSumExp2(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// neumaierSum is a compensated (Kahan–Babuška–Neumaier) running sum.
type neumaierSum struct{ sum, comp float64 }

func (s *neumaierSum) add(x float64) {
	t := s.sum + x
	if math.Abs(s.sum) >= math.Abs(x) {
		s.comp += (s.sum - t) + x
	} else {
		s.comp += (x - t) + s.sum
	}
	s.sum = t
}

func (s *neumaierSum) value() float64 { return s.sum + s.comp }
