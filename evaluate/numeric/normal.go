package numeric

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The standard normal distribution, written so that both tails keep their
// relative precision: every tail goes through math.Erfc, and the log-CDF
// switches to its asymptotic series where erfc itself underflows.

// NormPDF returns φ(x) = exp(−x²/2)/√(2π).
func NormPDF(x float64) float64 { return math.Exp(-0.5*x*x - LogSqrt2Pi) }

// NormCDF returns Φ(x) = ½·erfc(−x/√2), with full relative precision in the
// lower tail (x → −∞) down to the smallest subnormal.
func NormCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// NormSF returns 1 − Φ(x) = ½·erfc(x/√2) without forming the difference,
// so that the upper tail keeps its relative precision.
func NormSF(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// LogNormCDF returns ln Φ(x) for every finite x. Below x = −20 it uses the
// asymptotic expansion Φ(x) = φ(x)/|x| · Σₖ (−1)ᵏ (2k−1)!!/x^{2k}, whose
// twelfth term is below 1e-19 there, so ln Φ stays exact where Φ itself
// underflows (Φ(−38.5) ≈ 1e-324).
func LogNormCDF(x float64) float64 {
	switch {
	case x > 5:
		return math.Log1p(-NormSF(x))
	case x > -20:
		return math.Log(NormCDF(x))
	case math.IsInf(x, -1):
		return math.Inf(-1)
	}
	x2 := x * x
	sum, term := 1.0, 1.0
	for k := 1; k <= 12; k++ {
		term *= -float64(2*k-1) / x2
		sum += term
	}
	return -0.5*x2 - LogSqrt2Pi - math.Log(-x) + math.Log(sum)
}

// NormQuantile returns Φ⁻¹(p) for p in [0, 1] (−∞ at 0, +∞ at 1). It starts
// from Wichura's AS 241 (gonum's mathext.NormalQuantile) and applies one
// Newton step on the tail that p lies in, which brings the relative error of
// the result to a few ulps even for p near 1e-300 or 1 − 1e-16.
func NormQuantile(p float64) float64 {
	if !(p > 0) {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	if p < 1e-300 {
		return logTailQuantile(LogPos(p))
	}
	z := mathext.NormalQuantile(p)
	if pdf := NormPDF(z); pdf > 0 {
		if p < 0.5 {
			z -= (NormCDF(z) - p) / pdf
		} else {
			z += (NormSF(z) - (1 - p)) / pdf
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
		l := LogNormCDF(z)
		slope := math.Exp(-0.5*z*z - LogSqrt2Pi - l)
		step := (l - lp) / slope
		z -= step
		if math.Abs(step) <= 1e-15*math.Abs(z) {
			break
		}
	}
	return z
}

// NormUpperQuantileAbove returns a z ≥ 0 with 1 − Φ(z) ≤ p, within 1e-12
// above the exact quantile, for p in (0, ½]; 40 when even 1 − Φ(40) > p.
// Unlike −NormQuantile(p), which is accurate to a few ulps but may fall on
// either side, it is guaranteed to lie on the safe side as computed, which
// a truncation bound needs: bisection on erfc keeps that guarantee for p
// down to the smallest subnormal, where math.Erfcinv(2p) would overflow.
func NormUpperQuantileAbove(p float64) float64 {
	if NormSF(40) > p {
		return 40
	}
	_, hi := Bisect(func(z float64) bool { return NormSF(z) > p }, 0, 40, 1e-12)
	return hi
}
