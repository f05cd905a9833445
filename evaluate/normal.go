package evaluate

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/riskbatch/riskbatch/evaluate/internal/numeric"
)

// The standard normal distribution, written so that both tails keep their
// relative precision. gonum's distuv.Normal computes the survival function
// as 1 − CDF and loses everything beyond z ≈ 8; every tail here goes through
// math.Erfc instead, and the log-CDF switches to its asymptotic series where
// erfc itself underflows.

const (
	sqrt2      = math.Sqrt2
	logSqrt2Pi = numeric.LogSqrt2Pi
)

// logNormCDF returns ln Φ(x) for every finite x. Below x = −20 it uses the
// asymptotic expansion Φ(x) = φ(x)/|x| · Σₖ (−1)ᵏ (2k−1)!!/x^{2k}, whose
// twelfth term is below 1e-19 there, so ln Φ stays exact where Φ itself
// underflows (Φ(−38.5) ≈ 1e-324).
func logNormCDF(x float64) float64 {
	switch {
	case x > 5:
		return math.Log1p(-numeric.NormSF(x))
	case x > -20:
		return math.Log(numeric.NormCDF(x))
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
		return logTailQuantile(numeric.LogPos(p))
	}
	z := mathext.NormalQuantile(p)
	if pdf := numeric.NormPDF(z); pdf > 0 {
		if p < 0.5 {
			z -= (numeric.NormCDF(z) - p) / pdf
		} else {
			z += (numeric.NormSF(z) - (1 - p)) / pdf
		}
	}
	return z
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

// logExpm1 returns ln(eˣ − 1) for x ≥ 0 without overflow for large x.
func logExpm1(x float64) float64 {
	if x > 36 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return numeric.LogPos(math.Expm1(x))
}

// logit returns ln(p/(1 − p)) = ln p − ln(1 − p).
func logit(p float64) float64 { return numeric.LogPos(p) - math.Log1p(-p) }

// softplus returns ln(1 + eˣ) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
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
