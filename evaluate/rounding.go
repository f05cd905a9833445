package evaluate

import "math"

// Bounds on risk are claims about people's privacy, so they are rounded
// away from the side that would understate risk. The arithmetic behind each
// closed form is accurate to a few ulps; nudging by roundingUlps ulps covers
// that error without moving any value by more than ~1e-15 relative, far
// inside the contract's 1e-12.
const roundingUlps = 8

// roundUp returns x moved roundingUlps ulps towards +∞ and clamped to
// [lo, hi]. It is used for upper bounds on risk.
func roundUp(x, lo, hi float64) float64 {
	if x == 0 {
		return math.Max(lo, 0)
	}
	for i := 0; i < roundingUlps; i++ {
		x = math.Nextafter(x, math.Inf(1))
	}
	return math.Min(math.Max(x, lo), hi)
}

// roundDown returns x moved roundingUlps ulps towards −∞ and clamped to
// [lo, hi]. It is used for the largest parameter that keeps risk within a
// target (ε_protect): a smaller value keeps the promise.
func roundDown(x, lo, hi float64) float64 {
	if x == 0 || math.IsInf(x, 0) {
		return math.Min(math.Max(x, lo), hi)
	}
	for i := 0; i < roundingUlps; i++ {
		x = math.Nextafter(x, math.Inf(-1))
	}
	return math.Min(math.Max(x, lo), hi)
}
