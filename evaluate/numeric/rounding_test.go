package numeric

import (
	"math"
	"testing"
)

// UlpsAway agrees with repeated math.Nextafter, across zero and the top of
// the range.
func TestUlpsAway(t *testing.T) {
	for _, x := range []float64{1, -1, 0.1, -0.1, 1e-310, -1e-310, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 0} {
		for _, n := range []int64{1, 8, -1, -8} {
			want := x
			dir := math.Inf(1)
			if n < 0 {
				dir = math.Inf(-1)
			}
			for i := int64(0); i < n || i < -n; i++ {
				want = math.Nextafter(want, dir)
			}
			if got := UlpsAway(x, n); got != want && !(got == 0 && want == 0) {
				t.Errorf("UlpsAway(%g, %d) = %g, Nextafter gives %g", x, n, got, want)
			}
		}
	}
}

// RoundUp and RoundDown move 8 ulps outward and clamp: 1 goes to
// 1 + 8·2⁻⁵², 0 stays (clamped to lo), and a value above hi is hi.
func TestRoundUpDown(t *testing.T) {
	if got := RoundUp(1, 0, 2); got != 1+8*MachineEpsilon {
		t.Errorf("RoundUp(1) = %.17g", got)
	}
	if got := RoundDown(1, 0, 2); got != 1-8*UnitRoundoff {
		t.Errorf("RoundDown(1) = %.17g", got)
	}
	if RoundUp(0, -1, 1) != 0 || RoundUp(1, 0, 1) != 1 || RoundDown(math.Inf(1), 0, 5) != 5 {
		t.Error("RoundUp/RoundDown do not clamp")
	}
}
