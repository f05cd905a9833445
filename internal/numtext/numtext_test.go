package numtext

import "testing"

func TestPlain(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want float64
		ok   bool
	}{
		{"0.05", 0.05, true},
		{" -3 ", -3, true},
		{"1e-05", 1e-05, true},
		{"+2.5E3", 2500, true},
		{"", 0, false},
		{"5%", 0, false},
		{"1,000", 0, false},
		{"0x10", 0, false},
		{"Inf", 0, false},
		{"1e400", 0, false}, // overflows to +Inf
		{"1-2", 0, false},
	} {
		got, ok := Plain(tc.s)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Plain(%q) = %v, %v; want %v, %v", tc.s, got, ok, tc.want, tc.ok)
		}
	}
}
