package words

import "testing"

func TestQuoted(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, `"a"`},
		{[]string{"a", `b"c`, ""}, `"a", "b\"c", ""`},
	} {
		if got := Quoted(tc.in); got != tc.want {
			t.Errorf("Quoted(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 cells"}, {1, "1 cell"}, {2, "2 cells"}, {-1, "-1 cells"}} {
		if got := Count(tc.n, "cell", "cells"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
