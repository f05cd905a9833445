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

// IncreasingRoot finds where ex changes sign from ≤ 0 to > 0 and returns
// the final bracket's upper end (where ex > 0). start, when finite, is
// where the search begins (typically a root of another order, close to this
// one); otherwise it begins at 0. If ex(tmin) > 0, tmin is returned; if ex
// stays ≤ 0 up to tmax, +Inf is returned.
func IncreasingRoot(ex func(float64) float64, start, tmin, tmax float64) float64 {
	t, step := 0.0, 1.0
	if !math.IsInf(start, 0) && !math.IsNaN(start) {
		t, step = start, 1e-3*math.Max(1, math.Abs(start))
	}
	t = math.Min(math.Max(t, tmin), tmax)
	f := ex(t)
	var lo, hi, fLo, fHi float64
	if f > 0 {
		hi, fHi = t, f
		lo, fLo = searchDown(ex, hi, step, tmin)
		if math.IsNaN(lo) {
			return tmin
		}
	} else {
		lo, fLo = t, f
		for {
			t = lo + step
			if t > tmax {
				return math.Inf(1)
			}
			if f = ex(t); f > 0 {
				hi, fHi = t, f
				break
			}
			lo, fLo = t, f
			step *= 2
		}
	}
	return illinois(ex, lo, hi, fLo, fHi)
}

// searchDown steps down from hi by doubling steps until ex ≤ 0; NaN if it
// passes tmin first.
func searchDown(ex func(float64) float64, hi, step, tmin float64) (float64, float64) {
	for {
		t := hi - step
		if t < tmin {
			t = tmin
		}
		f := ex(t)
		if !(f > 0) {
			return t, f
		}
		if t == tmin {
			return math.NaN(), 0
		}
		step *= 2
	}
}

// illinois narrows a bracket with ex(lo) ≤ 0 < ex(hi) by the Illinois
// variant of regula falsi, with a bisection whenever a step fails to halve
// the bracket, to a relative width of 2⁻⁵⁰, and returns hi.
func illinois(ex func(float64) float64, lo, hi, fLo, fHi float64) float64 {
	side := 0
	for i := 0; i < 200; i++ {
		w := hi - lo
		if w <= 0x1p-50*math.Max(1, math.Max(math.Abs(lo), math.Abs(hi))) {
			break
		}
		m := lo + w/2
		if i%3 != 2 && fHi > fLo && !math.IsInf(fHi, 0) && !math.IsInf(fLo, 0) {
			if c := hi - fHi*w/(fHi-fLo); c > lo && c < hi {
				m = c
			}
		}
		if m <= lo || m >= hi {
			break
		}
		f := ex(m)
		if f > 0 {
			hi, fHi = m, f
			if side == 1 {
				fLo /= 2
			}
			side = 1
		} else {
			lo, fLo = m, f
			if side == -1 {
				fHi /= 2
			}
			side = -1
		}
	}
	return hi
}

// LargestParameterInterpolating is LargestParameter for a continuous,
// non-decreasing f, with fewer evaluations of f: the floats of the bracket
// are bisected (as LargestParameter does) while its ends differ by more
// than a factor of 2 or have different signs, then it is narrowed by
// Illinois steps (regula falsi on f − target, halving the retained end's
// value when the same end is kept twice; Dowell & Jarratt 1971), with a
// bisection of the floats in between whenever three steps have not halved
// their count or a value is not finite, each step at least 32 floats from
// either end, until at most 64 floats are left;
// then it bisects to adjacent floats as LargestParameter does. For a
// monotone f (as computed) the result is LargestParameter's, whatever
// bracket the interpolation leaves, because both return the last float at
// which f ≤ target holds; otherwise it still satisfies f(x) ≤ target, with
// f above the target at the next float. A guess in (lo, hi) with lo ≥ 0
// (NaN for none) starts the search: the bracket is first narrowed to a
// factor of 4 around it by steps of a factor of 4 from it, which for a
// guess within a factor of a few of the answer saves the bisections that
// would bring [lo, hi] down to a factor of 2.
func LargestParameterInterpolating(f func(x float64) float64, target, lo, hi, guess float64) (float64, bool) {
	if f == nil || math.IsNaN(target) || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return math.NaN(), false
	}
	ga := f(lo) - target
	if !(ga <= 0) {
		return math.NaN(), false
	}
	gb := f(hi) - target
	if gb <= 0 {
		return hi, true
	}
	if math.IsNaN(gb) {
		gb = math.Inf(1)
	}
	a, b := lo, hi
	if lo >= 0 && guess > lo && guess < hi {
		// Steps of a factor of 4 from the guess, inside (lo, hi).
		x := guess
		for range 64 {
			g := f(x) - target
			if g <= 0 {
				a, ga = x, g
				x *= 4
				if !(x < b) {
					break
				}
			} else {
				b, gb = x, g
				if math.IsNaN(gb) {
					gb = math.Inf(1)
				}
				x /= 4
				if !(x > a) {
					break
				}
			}
			if a > 0 && b <= 4*a {
				break
			}
		}
	}
	const near = 64
	var kept int // −1: b was kept by the last step, +1: a was
	stalls, width := 0, FloatKey(b)-FloatKey(a)
	for i := 0; i < 200 && FloatKey(b)-FloatKey(a) > near; i++ {
		kl, kh := FloatKey(a), FloatKey(b)
		x := KeyFloat((kl & kh) + ((kl ^ kh) >> 1))
		wide := !(a > 0 && b <= 2*a) && !(b < 0 && a >= 2*b)
		if !wide && stalls < 3 && !math.IsInf(gb, 1) {
			if y := a - ga*(b-a)/(gb-ga); !math.IsNaN(y) {
				// At least near/2 floats from either end, so that a step
				// landing next to an end that is already a root closes the
				// bracket rather than creeping along.
				x = KeyFloat(min(max(FloatKey(y), kl+near/2), kh-near/2))
			}
		} else if stalls >= 3 {
			stalls = 0
		}
		g := f(x) - target
		if g <= 0 {
			a, ga = x, g
			if kept == -1 {
				gb /= 2 // Illinois: b kept twice
			}
			kept = -1
		} else {
			b, gb = x, g
			if math.IsNaN(gb) {
				gb = math.Inf(1)
			}
			if kept == 1 {
				ga /= 2 // a kept twice
			}
			kept = 1
		}
		if w := FloatKey(b) - FloatKey(a); w > width/2 {
			stalls++
		} else {
			stalls, width = 0, w
		}
	}
	x, _ := BracketFloats(func(x float64) bool { return f(x) <= target }, a, b)
	return x, true
}
