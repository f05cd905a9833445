package priors

import (
	"math"
	"testing"
)

// FuzzParseInline: any prior cell either is a key (not inline), or parses
// to a prior with targets whose p are probabilities, or gives an error that
// lists the valid forms; it never panics.
func FuzzParseInline(f *testing.F) {
	for _, s := range []string{"uniform(10)", "uniform(1e9)", "zipf(1.1, 1e9)", "zipf(1.2, inf, 3)", "zipf(0.5, inf)", "uniform(", "zipf()", "penguins:Sex|Species,Island", "UNIFORM ( 2 )", "zipf(1,2,3,4)", "uniform(1e400)", "zipf(nan, 10)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, inline, err := ParseInline(s)
		if !inline {
			if err != nil {
				t.Fatalf("%q: not inline but an error %v", s, err)
			}
			return
		}
		if err != nil {
			return
		}
		if p.Targets() < 1 {
			t.Fatalf("%q: %d targets", s, p.Targets())
		}
		if m := p.Max(); math.IsNaN(m) || m < 0 || m > 1 {
			t.Fatalf("%q: largest p = %v", s, m)
		}
	})
}
