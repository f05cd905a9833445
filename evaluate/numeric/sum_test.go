package numeric

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// The compensated sum recovers what plain summation loses: 1 + 1e100 −
// 1e100 sums to 1 (plain: 0), and ten million additions of 0.1 come to
// 1e6 within an ulp (plain summation drifts by about 1.6e-4).
func TestSum(t *testing.T) {
	var s Sum
	for _, x := range []float64{1, 1e100, 1, -1e100} {
		s.Add(x)
	}
	if got := s.Value(); got != 2 {
		t.Errorf("1 + 1e100 + 1 − 1e100 = %v, want 2", got)
	}
	var tenth Sum
	for range 10_000_000 {
		tenth.Add(0.1)
	}
	if got := tenth.Value(); math.Abs(got-1e6) > 1.2e-10 {
		t.Errorf("10⁷ × 0.1 = %.17g", got)
	}
	var empty Sum
	if empty.Value() != 0 {
		t.Errorf("empty sum = %v", empty.Value())
	}
}

// LogSum of ln 1, ln 2, ln 3 is ln 6; of terms near e^1000 it does not
// overflow; the empty sum is −Inf and −Inf terms drop out.
func TestLogSum(t *testing.T) {
	var a LogSum
	for _, x := range []float64{0, math.Ln2, math.Log(3), math.Inf(-1)} {
		a.Add(x)
	}
	if got := a.Value(); !approx.Near(got, math.Log(6), 0, 1e-15) {
		t.Errorf("ln(1 + 2 + 3) = %.17g", got)
	}
	var big LogSum
	big.Add(1000)
	big.Add(1000 + math.Ln2)
	if got := big.Value(); !approx.Near(got, 1000+math.Log(3), 0, 1e-15) {
		t.Errorf("ln(e¹⁰⁰⁰ + 2e¹⁰⁰⁰) = %.17g", got)
	}
	var empty LogSum
	if !math.IsInf(empty.Value(), -1) {
		t.Errorf("empty LogSum = %v", empty.Value())
	}
}
