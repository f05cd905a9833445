// Package numeric holds the floating-point building blocks that every
// package of the evaluate core shares: the standard normal distribution
// through erfc, so that both tails keep their relative precision (gonum's
// distuv.Normal computes the survival function as 1 − CDF and loses
// everything beyond z ≈ 8); logarithms written without overflow or
// cancellation; one compensated (Neumaier) sum; one bracketing root finder
// over float64 values; and one golden-section minimiser.
//
// These are written by hand rather than taken from gonum because the
// callers need properties gonum does not promise: relative precision in
// both tails down to subnormals, a root bracket that ends on adjacent
// float64 values with the conservative end known, and a golden-section
// search whose every evaluation the caller sees (gonum/optimize hides
// them and stops on its own criteria).
package numeric

import "math"

// LogSqrt2Pi is ½·ln(2π).
const LogSqrt2Pi = 0.91893853320467274178032973640561763986139747363778

// LogPos returns ln x for x ≥ 0. Go's math.Log is wrong for subnormal x on
// amd64 (golang/go#56600: math.Log(5e-324) returns −709.09 instead of
// −744.44), so a subnormal x is first scaled by 2^54, which is exact. Every
// logarithm of a probability goes through it: baselines and δ below
// 2.2e-308 are valid inputs.
func LogPos(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// LogSumExp returns ln(eᵃ + eᵇ) without overflow; a −Inf term drops out.
func LogSumExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// Log1mExp returns ln(1 − eˣ) for x ≤ 0 without cancellation (Mächler
// 2012): ln(−expm1(x)) near 0, log1p(−eˣ) further out.
func Log1mExp(x float64) float64 {
	if x > -math.Ln2 {
		return LogPos(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}

// LogExpm1 returns ln(eˣ − 1) for x ≥ 0 without overflow for large x.
func LogExpm1(x float64) float64 {
	if x > 36 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return LogPos(math.Expm1(x))
}

// Logistic returns σ(x) = 1/(1 + e⁻ˣ), exact in both tails.
func Logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// Logit returns ln(p/(1 − p)) = ln p − ln(1 − p), the inverse of Logistic.
func Logit(p float64) float64 { return LogPos(p) - math.Log1p(-p) }

// Softplus returns ln(1 + eˣ) without overflow.
func Softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
