package numeric

import (
	"math"
	"testing"
)

// Brent's method on smooth unimodal functions with known minimisers finds
// them to the tolerance asked, in far fewer evaluations than the 36 a
// golden-section search needs to shrink [0, 1] to 1e-7·4, and on a
// function with a kink (|x − 0.3|, where parabolas do not help) still
// converges through its golden-section steps.
func TestBrentMin(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(float64) float64
		a, b   float64
		argmin float64
		most   int
	}{
		{"quadratic", func(x float64) float64 { return (x - 0.3) * (x - 0.3) }, 0, 1, 0.3, 12},
		{"cosh", func(x float64) float64 { return math.Cosh(x - 0.71) }, -2, 3, 0.71, 15},
		{"x ln x", func(x float64) float64 { return x * math.Log(x) }, 0.01, 1, 1 / math.E, 15},
		{"kink", func(x float64) float64 { return math.Abs(x - 0.3) }, 0, 1, 0.3, 60},
	} {
		calls := 0
		f := func(x float64) float64 { calls++; return c.f(x) }
		x, fx := BrentMin(f, c.a, c.b, 2.5e-8, 100)
		if math.Abs(x-c.argmin) > 1e-7 || fx != c.f(x) {
			t.Errorf("%s: minimum at %v (f = %v), want %v", c.name, x, fx, c.argmin)
		}
		if calls > c.most {
			t.Errorf("%s: %d evaluations, want at most %d", c.name, calls, c.most)
		}
		t.Logf("%s: %d evaluations", c.name, calls)
	}
}
