package editdist

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"epsilon", "epsilon", 2, 0},
		{"epsln", "epsilon", 2, 2},           // two deletions
		{"dlta", "delta", 2, 1},              // one insertion
		{"gausian", "gaussian", 2, 1},        // one insertion
		{"kitten", "sitting", 3, 3},          // the textbook example
		{"kitten", "sitting", 2, 3},          // beyond the limit: limit+1
		{"ε", "δ", 2, 1},                     // runes, not bytes
		{"", "abc", 5, 3},                    // all insertions
		{"abcdef", "ab", 2, 3},               // lengths alone exceed the limit
		{"baselin", "baseline", 0, 1},        // limit 0: only equality passes
		{"sample_rate", "sampel_rate", 2, 2}, // a transposition costs two
	} {
		if got := Distance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
		if got := Distance(c.b, c.a, c.limit); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d (symmetry)", c.b, c.a, c.limit, got, c.want)
		}
	}
}

// Nearest keeps the close candidates, the smallest distance first and ties
// in their given order, at most n of them.
func TestNearest(t *testing.T) {
	dist := func(c string) (int, bool) {
		d := Distance("delta", c, 2)
		return d, d <= 2
	}
	cands := []string{"epsilon", "delt", "deltas", "delta", "dlt", "alpha"}
	for _, tc := range []struct {
		n    int
		want []string
	}{
		{5, []string{"delta", "delt", "deltas", "dlt"}},
		{2, []string{"delta", "delt"}},
		{0, nil},
	} {
		if got := Nearest(cands, tc.n, dist); !slices.Equal(got, tc.want) {
			t.Errorf("n = %d: %q, want %q", tc.n, got, tc.want)
		}
	}
}
