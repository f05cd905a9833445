package numeric

import "math"

// Bounds on risk are claims about people's privacy, so they are rounded
// away from the side that would understate risk. The arithmetic behind each
// closed form is accurate to a few ulps; nudging by RoundingUlps ulps covers
// that error without moving any value by more than ~1e-15 relative, far
// inside the contract's 1e-12.
const RoundingUlps = 8

// Error-analysis constants of float64 arithmetic: the unit roundoff u =
// 2^-53 bounds the relative error of one correctly rounded operation; the
// machine epsilon 2^-52 is the gap between 1 and the next float64.
const (
	UnitRoundoff   = 0x1p-53
	MachineEpsilon = 0x1p-52
)

// RoundUp returns x moved RoundingUlps ulps towards +∞ and clamped to
// [lo, hi]. It is used for upper bounds on risk.
func RoundUp(x, lo, hi float64) float64 {
	if x == 0 {
		return math.Max(lo, 0)
	}
	return math.Min(math.Max(UlpsAway(x, RoundingUlps), lo), hi)
}

// UlpsAway returns x moved n ulps towards +∞ (n > 0) or −∞ (n < 0): the
// float64s are ordered like their bit patterns (by sign), so this is one
// integer addition, exact, where a loop of math.Nextafter calls cost a
// quarter of a closed-form row. ±Inf and NaN are returned as they are.
func UlpsAway(x float64, n int64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	if x == 0 {
		if n > 0 {
			return math.Float64frombits(uint64(n)) // n subnormal steps above 0
		}
		return -math.Float64frombits(uint64(-n))
	}
	b := int64(math.Float64bits(math.Abs(x)))
	if x < 0 {
		n = -n
	}
	b += n
	if b < 0 {
		// Crossed zero: the result has the other sign.
		return math.Copysign(math.Float64frombits(uint64(-b)), -x)
	}
	if b >= int64(math.Float64bits(math.Inf(1))) {
		return math.Copysign(math.Inf(1), x)
	}
	return math.Copysign(math.Float64frombits(uint64(b)), x)
}

// RoundDown returns x moved RoundingUlps ulps towards −∞ and clamped to
// [lo, hi]. It is used for the largest parameter that keeps risk within a
// target (ε_protect): a smaller value keeps the promise.
func RoundDown(x, lo, hi float64) float64 {
	if x == 0 || math.IsInf(x, 0) {
		return math.Min(math.Max(x, lo), hi)
	}
	return math.Min(math.Max(UlpsAway(x, -RoundingUlps), lo), hi)
}

// IsProbability reports whether p is in [0, 1] (false for NaN).
func IsProbability(p float64) bool { return p >= 0 && p <= 1 }
