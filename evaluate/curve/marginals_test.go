package curve

import "testing"

// K = C(d, k) − C(d − d′, k) counts the k-way marginals that involve one
// of the d′ unknown attributes (Swanberg et al. 2025, App. A): with d = 3,
// k = 2 and one unknown attribute, 2 of the 3 pairs; with d = 10, k = 3
// and 2 unknown, C(10, 3) − C(8, 3) = 120 − 56 = 64; none for k = 0 or no
// unknown attribute.
func TestMarginalQueries(t *testing.T) {
	for _, c := range []struct {
		d, k, unknown int
		want          float64
	}{
		{3, 2, 1, 2},
		{10, 3, 2, 64},
		{10, 3, 10, 120},
		{10, 0, 2, 0},
		{10, 3, 0, 0},
		{2, 3, 1, 0},
	} {
		if got := MarginalQueries(c.d, c.k, c.unknown); got != c.want {
			t.Errorf("MarginalQueries(%d, %d, %d) = %v, want %v", c.d, c.k, c.unknown, got, c.want)
		}
	}
}
