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

// LargestParameterInterpolating must return LargestParameter's answer (the
// last float with f ≤ target) on monotone functions of several shapes —
// steep, flat, with a kink, saturating, +Inf and NaN above a point — with
// fewer evaluations of f on the smooth ones.
func TestLargestParameterInterpolating(t *testing.T) {
	fns := map[string]func(float64) float64{
		"logistic": func(x float64) float64 { return 1 / (1 + math.Exp(-8*(x-1.3))) },
		"power":    func(x float64) float64 { return math.Pow(x, 7) },
		"log":      func(x float64) float64 { return math.Log1p(x) },
		"kink":     func(x float64) float64 { return math.Max(0.1*x, 3*x-5) },
		"tanh":     func(x float64) float64 { return math.Tanh(x * x) },
		"inf": func(x float64) float64 {
			if x > 2 {
				return math.Inf(1)
			}
			return x / 4
		},
		"nan": func(x float64) float64 {
			if x > 2 {
				return math.NaN()
			}
			return x / 4
		},
	}
	for name, f := range fns {
		for _, target := range []float64{1e-6, 0.01, 0.3, 0.45, 0.9} {
			var nOld, nNew int
			want, okWant := LargestParameter(func(x float64) float64 { nOld++; return f(x) }, target, 0, 1e3)
			got, ok := LargestParameterInterpolating(func(x float64) float64 { nNew++; return f(x) }, target, 0, 1e3, math.NaN())
			if ok != okWant || (got != want && !(math.IsNaN(got) && math.IsNaN(want))) {
				t.Errorf("%s, target %g: %v (%v), LargestParameter %v (%v)", name, target, got, ok, want, okWant)
			}
			for _, guess := range []float64{1e-3, 0.5, 1, 30, 999} {
				got, ok := LargestParameterInterpolating(f, target, 0, 1e3, guess)
				if ok != okWant || (got != want && !(math.IsNaN(got) && math.IsNaN(want))) {
					t.Errorf("%s, target %g, guess %g: %v (%v), LargestParameter %v (%v)", name, target, guess, got, ok, want, okWant)
				}
			}
			if name != "inf" && name != "nan" && name != "kink" && nOld > 2 && nNew > nOld*6/10 {
				t.Errorf("%s, target %g: %d evaluations, LargestParameter %d", name, target, nNew, nOld)
			}
		}
	}
	if _, ok := LargestParameterInterpolating(func(float64) float64 { return 1 }, 0.5, 0, 1, math.NaN()); ok {
		t.Error("f(lo) above the target: want false")
	}
	if x, ok := LargestParameterInterpolating(func(float64) float64 { return 0 }, 0.5, 0, 1, 0.5); !ok || x != 1 {
		t.Errorf("f(hi) below the target: got %v, %v, want 1", x, ok)
	}
}
