package enum

import "testing"

func TestName(t *testing.T) {
	for _, tc := range []struct {
		v, first int
		want     string
	}{
		{1, 1, "one"}, {2, 1, "two"}, {0, 1, "Kind(0)"}, {3, 1, "Kind(3)"},
		{0, 0, "one"}, {-1, 0, "Kind(-1)"},
	} {
		if got := Name("Kind", tc.v, tc.first, "one", "two"); got != tc.want {
			t.Errorf("Name(Kind, %d, %d) = %q, want %q", tc.v, tc.first, got, tc.want)
		}
	}
}
