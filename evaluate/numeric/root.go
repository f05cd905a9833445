package numeric

import "math"

// Bisect narrows [lo, hi], where below(lo) holds and below(hi) does not for
// a monotone predicate below, by halving at the midpoint until hi − lo ≤
// tol, and returns the final bracket: below(lo) holds and below(hi) does
// not, as computed. tol must be large enough for the midpoint to move (a
// tol below the spacing of the floats near the root never ends); use
// BracketFloats to narrow to adjacent floats.
func Bisect(below func(float64) bool, lo, hi, tol float64) (float64, float64) {
	for hi-lo > tol {
		mid := 0.5 * (lo + hi)
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi
}

// BracketFloats narrows [lo, hi], where ok(lo) is true and ok(hi) false for
// a monotone ok, until lo and hi are adjacent float64 values (or 128 steps),
// and returns them: ok holds at the first and fails at the second, as
// computed. It bisects the ordered integer keys of the floats (FloatKey),
// so each step halves the number of floats in the bracket, however wide
// the bracket is (at most 64 halvings).
func BracketFloats(ok func(float64) bool, lo, hi float64) (float64, float64) {
	kl, kh := FloatKey(lo), FloatKey(hi)
	for i := 0; i < 128 && kh-kl > 1; i++ {
		km := (kl & kh) + ((kl ^ kh) >> 1) // floor((kl + kh)/2) without overflow
		if ok(KeyFloat(km)) {
			kl = km
		} else {
			kh = km
		}
	}
	return KeyFloat(kl), KeyFloat(kh)
}

// FirstTrue returns the smallest float64 x in (lo, hi] with ok(x), for an
// ok that is false at lo, true at hi and monotone in between, by
// BracketFloats.
func FirstTrue(ok func(float64) bool, lo, hi float64) float64 {
	_, x := BracketFloats(func(x float64) bool { return !ok(x) }, lo, hi)
	return x
}

// FloatKey maps a float64 to an int64 whose order is the order of the
// floats (−0 and +0 share the key 0), so that adjacent floats have adjacent
// keys.
func FloatKey(x float64) int64 {
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return -int64(b &^ (1 << 63))
	}
	return int64(b)
}

// KeyFloat inverts FloatKey.
func KeyFloat(k int64) float64 {
	if k < 0 {
		return math.Float64frombits(uint64(-k) | 1<<63)
	}
	return math.Float64frombits(uint64(k))
}

// LargestParameter returns the largest x in [lo, hi] with f(x) ≤ target for
// a non-decreasing f, by bisection on the float64 values in between (at
// most 64 halvings of their count, so every bracket, however wide, ends
// with two adjacent floats). It returns the conservative end: the lower
// end of the final bracket, for which f(x) ≤ target holds as computed. A
// NaN from f counts as above the target. The second result is false (and
// the first NaN) when f(lo) > target or an argument is NaN; f(hi) ≤ target
// gives hi. If f is not monotone the result still satisfies f(x) ≤ target
// but need not be the largest such x.
func LargestParameter(f func(x float64) float64, target, lo, hi float64) (float64, bool) {
	if f == nil || math.IsNaN(target) || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return math.NaN(), false
	}
	ok := func(x float64) bool { return f(x) <= target }
	if !ok(lo) {
		return math.NaN(), false
	}
	if ok(hi) {
		return hi, true
	}
	x, _ := BracketFloats(ok, lo, hi)
	return x, true
}
