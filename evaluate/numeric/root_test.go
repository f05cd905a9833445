package numeric

import (
	"math"
	"testing"
)

// BracketFloats ends on adjacent floats around √2 (ok: x² ≤ 2), across
// zero and over the whole float range; FirstTrue returns the upper end.
func TestBracketFloats(t *testing.T) {
	ok := func(x float64) bool { return x*x <= 2 }
	for _, r := range [][2]float64{{0, 2}, {1, math.MaxFloat64}, {math.Copysign(0, -1), 1.5}} {
		lo, hi := BracketFloats(ok, r[0], r[1])
		if !ok(lo) || ok(hi) || math.Nextafter(lo, math.Inf(1)) != hi {
			t.Errorf("bracket from %v: [%v, %v]", r, lo, hi)
		}
		if lo != math.Sqrt2 && hi != math.Sqrt2 {
			t.Errorf("bracket from %v misses √2: [%v, %v]", r, lo, hi)
		}
		if got := FirstTrue(func(x float64) bool { return !ok(x) }, r[0], r[1]); got != hi {
			t.Errorf("FirstTrue from %v = %v, want %v", r, got, hi)
		}
	}
	// Negative brackets: ok(x) = x ≤ −1e-310 (a subnormal).
	lo, hi := BracketFloats(func(x float64) bool { return x <= -1e-310 }, -1, 1)
	if lo != -1e-310 || hi != math.Nextafter(-1e-310, 0) {
		t.Errorf("subnormal bracket [%v, %v]", lo, hi)
	}
}

// FloatKey orders floats like their values, with ±0 sharing key 0, and
// KeyFloat inverts it.
func TestFloatKey(t *testing.T) {
	xs := []float64{-math.MaxFloat64, -1, -5e-324, 0, 5e-324, 1, math.MaxFloat64, math.Inf(1)}
	for i, x := range xs {
		if KeyFloat(FloatKey(x)) != x {
			t.Errorf("KeyFloat(FloatKey(%v)) = %v", x, KeyFloat(FloatKey(x)))
		}
		if i > 0 && FloatKey(xs[i-1]) >= FloatKey(x) {
			t.Errorf("FloatKey(%v) ≥ FloatKey(%v)", xs[i-1], x)
		}
	}
	if FloatKey(math.Copysign(0, -1)) != 0 || FloatKey(5e-324)-FloatKey(-5e-324) != 2 {
		t.Error("the keys of ±0 and ±5e-324 are not 0 and ±1")
	}
}

// Bisect keeps below(lo) and !below(hi) and ends within tol.
func TestBisect(t *testing.T) {
	lo, hi := Bisect(func(x float64) bool { return math.Exp(x) < 2 }, 0, 1, 1e-12)
	if !(math.Exp(lo) < 2) || math.Exp(hi) < 2 || hi-lo > 1e-12 {
		t.Errorf("Bisect for ln 2: [%.17g, %.17g]", lo, hi)
	}
	if !(lo <= math.Ln2 && math.Ln2 <= hi) {
		t.Errorf("[%.17g, %.17g] misses ln 2", lo, hi)
	}
}

// IncreasingRoot brackets the sign change of an increasing function from
// a start on either side, narrows it to 2⁻⁵⁰ relative and returns the end
// where ex > 0; it reports the ends of the range when the change lies
// outside it.
func TestIncreasingRoot(t *testing.T) {
	ex := func(x float64) float64 { return x*x*x - 2 } // root ∛2
	want := math.Cbrt(2)
	for _, start := range []float64{0, 1, 5, math.Inf(1), math.NaN()} {
		got := IncreasingRoot(ex, start, -10, 10)
		if !(ex(got) > 0) || math.Abs(got-want) > 4*0x1p-50*want {
			t.Errorf("start %v: root %.17g, want just above %.17g", start, got, want)
		}
	}
	if got := IncreasingRoot(ex, 0, 3, 10); got != 3 {
		t.Errorf("root below the range: %v, want tmin 3", got)
	}
	if got := IncreasingRoot(ex, 0, -10, 1); !math.IsInf(got, 1) {
		t.Errorf("root above the range: %v, want +Inf", got)
	}
}
