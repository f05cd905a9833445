package approx

import (
	"math"
	"testing"
)

// BigExp and BigLog against float64 at values where math.Exp and math.Log are
// accurate to an ulp, and against each other far beyond float64's reach.
func TestBigExpLog(t *testing.T) {
	for _, x := range []float64{-700, -30, -1, -1e-9, 0, 1e-12, 0.5, 1, 20, 700} {
		got, _ := BigExp(Big(x)).Float64()
		if !Near(got, math.Exp(x), 0, 4e-16) {
			t.Errorf("BigExp(%v) = %.17g, math.Exp %.17g", x, got, math.Exp(x))
		}
		if x <= 0 {
			continue
		}
		l, _ := BigLog(Big(x)).Float64()
		if !Near(l, math.Log(x), 0, 4e-16) {
			t.Errorf("BigLog(%v) = %.17g, math.Log %.17g", x, l, math.Log(x))
		}
	}
	// ln(e^5000) = 5000 to 60 digits.
	d := BigLog(BigExp(Big(5000)))
	d.Sub(d, Big(5000))
	if f, _ := d.Float64(); math.Abs(f) > 1e-60 {
		t.Errorf("ln(e^5000) − 5000 = %g", f)
	}
}
