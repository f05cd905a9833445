package numeric

import "math"

// Directed arithmetic: the four operations rounded towards +∞ (and a
// difference towards −∞) rather than
// to nearest, for upper bounds built from a few exact-input operations
// (a sum of products, a square root of a sum). Each result is the
// rounded-to-nearest one, moved one ulp up exactly when that fell below
// the true value: the error of a rounded sum, product, quotient or square
// root is itself a float64 (an error-free transformation: Knuth's TwoSum,
// the FMA residual), so whether rounding went down is known exactly. An
// exact result is not moved, unlike RoundUp, which pads a closed form of
// unknown error by RoundingUlps.

// tinyResult is the magnitude below which a product's or square root's
// residual may be lost to underflow (its last bits fall under the
// subnormal range); results below it are moved up unconditionally.
const tinyResult = 0x1p-969

// AddUp returns a + b rounded towards +∞.
func AddUp(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	// TwoSum: err = (a + b) − s exactly.
	bb := s - a
	err := (a - (s - bb)) + (b - bb)
	if err > 0 {
		return math.Nextafter(s, math.Inf(1))
	}
	return s
}

// SubDown returns a − b rounded towards −∞: −((−a) + b) rounded up.
func SubDown(a, b float64) float64 { return -AddUp(-a, b) }

// MulUp returns a·b rounded towards +∞.
func MulUp(a, b float64) float64 {
	p := a * b
	switch {
	case math.IsInf(p, 0) || math.IsNaN(p) || a == 0 || b == 0:
		return p
	case math.Abs(p) < tinyResult:
		return math.Nextafter(p, math.Inf(1))
	case math.FMA(a, b, -p) > 0: // a·b − p exactly
		return math.Nextafter(p, math.Inf(1))
	}
	return p
}

// DivUp returns a/b rounded towards +∞.
func DivUp(a, b float64) float64 {
	q := a / b
	switch {
	case math.IsInf(q, 0) || math.IsNaN(q) || a == 0:
		return q
	case math.Abs(q) < tinyResult || math.Abs(a) < tinyResult:
		return math.Nextafter(q, math.Inf(1))
	}
	// r = a − q·b exactly; q is below a/b when r has b's sign.
	if r := math.FMA(-q, b, a); r != 0 && (r > 0) == (b > 0) {
		return math.Nextafter(q, math.Inf(1))
	}
	return q
}

// DivDown returns a/b rounded towards −∞: −((−a)/b) rounded up.
func DivDown(a, b float64) float64 { return -DivUp(-a, b) }

// SqrtUp returns √x rounded towards +∞ (NaN for x < 0).
func SqrtUp(x float64) float64 {
	r := math.Sqrt(x)
	switch {
	case math.IsInf(r, 0) || math.IsNaN(r) || x == 0:
		return r
	case x < tinyResult:
		return math.Nextafter(r, math.Inf(1))
	case math.FMA(r, r, -x) < 0: // r² − x exactly: r is below √x
		return math.Nextafter(r, math.Inf(1))
	}
	return r
}
