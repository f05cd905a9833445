package numeric

import (
	"math"
	"testing"
)

// Binomial is exact below 2⁵³: C(10, 3) = 120, C(60, 30) =
// 118264581564861424 (above 2⁵³, so within a relative 1e-15), and 0 for
// k > n or k < 0.
func TestBinomial(t *testing.T) {
	if Binomial(10, 3) != 120 || Binomial(5, 7) != 0 || Binomial(5, -1) != 0 || Binomial(52, 5) != 2598960 {
		t.Errorf("Binomial(10, 3) = %v, Binomial(52, 5) = %v", Binomial(10, 3), Binomial(52, 5))
	}
	if got := Binomial(60, 30); math.Abs(got-118264581564861424)/118264581564861424 > 1e-15 {
		t.Errorf("Binomial(60, 30) = %v", got)
	}
}
