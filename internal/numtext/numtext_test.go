package numtext

import (
	"strconv"
	"testing"
)

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

// FormatSignificant rounds to the side asked for: each expected text is the
// decimal of that many digits next to the value on that side (the value
// itself where the digits write it exactly).
func TestFormatSignificant(t *testing.T) {
	for _, c := range []struct {
		x           float64
		digits, dir int
		want        string
	}{
		{0.46211715726000976, 4, 1, "0.4622"},
		{0.46211715726000976, 4, 0, "0.4621"},
		{0.46211715726000976, 4, -1, "0.4621"},
		{0.46219, 4, -1, "0.4621"},
		{0.25, 4, 1, "0.25"},
		{0.25, 4, -1, "0.25"},
		{9.99949, 4, 1, "10"},
		{0.99996, 4, -1, "0.9999"},
		{3989.422804014327, 4, 1, "3990"},
		{2.2026465794806748e-05, 4, 1, "2.203e-05"},
		{2.2026465794806748e-05, 4, -1, "2.202e-05"},
		{0.2500000000123, 10, 1, "0.2500000001"},
		{0, 4, 1, "0"},
	} {
		got := FormatSignificant(c.x, c.digits, c.dir)
		if got != c.want {
			t.Errorf("FormatSignificant(%v, %d, %d) = %q, want %q", c.x, c.digits, c.dir, got, c.want)
		}
		p, err := strconv.ParseFloat(got, 64)
		if err != nil || c.dir > 0 && p < c.x || c.dir < 0 && p > c.x {
			t.Errorf("FormatSignificant(%v, %d, %d) = %q is on the wrong side", c.x, c.digits, c.dir, got)
		}
	}
}
