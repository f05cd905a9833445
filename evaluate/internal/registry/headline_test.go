package registry

import (
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
)

// The headline sentences stay within MaxHeadlineSays characters whatever
// their numbers, whose longest form is 4 significant digits with an
// exponent (1.234e-05): each case's sentence at such numbers, for every
// column it may quote.
func TestHeadlineSaysFits(t *testing.T) {
	long := 1.234e-105 // every value is a probability, an ε or a noise: positive
	for _, r := range []*resolve.Release{
		{Attack: resolve.Attack{Baseline: long, HasBaseline: true, Target: long, HasTarget: true}, GaussianParams: resolve.GaussianParams{Sigma: long}},
		{Attack: resolve.Attack{Target: long, HasTarget: true}},
	} {
		r.DPSGD.NoiseMultiplier = long
		for _, c := range HeadlineCases() {
			for _, col := range c.Columns {
				s := c.Says(r, col, long)
				if n := utf8.RuneCountInString(s); n > MaxHeadlineSays {
					t.Errorf("%s (%s): %d characters: %q", c.When, col, n, s)
				}
			}
		}
	}
	for v, want := range map[float64]string{0.016737152290146773: "0.01674", 1.6737152290146773: "1.674", 0.5: "0.5", 63.21205588: "63.21", 1.2345e-5: "1.234e-05", 24.09809840516204: "24.1", 12345: "12340", 39894.22803909895: "39890", 1.2345e6: "1.234e+06", 0: "0"} {
		if got := Significant(v); got != want {
			t.Errorf("significant(%v) = %q, want %q", v, got, want)
		}
	}
}

// A sentence's bound is rounded to its side: an upper bound (a success, a
// noise that is needed) up, a lower bound (an ε that is certified, the
// largest ε that meets a target) down, where 4 digits cannot write it
// exactly; a value 4 digits write exactly stays as it is. The expected
// strings are the 4-digit decimals next to each value on its side.
func TestSignificantDirection(t *testing.T) {
	for _, c := range []struct {
		v              float64
		dir            int
		want, describe string
	}{
		{27.18281828459045, up, "27.19", "e·10 %: 1 − f at ε = 1, baseline 0.1"},
		{27.18281828459045, down, "27.18", ""},
		{3989.422804014327, up, "3990", "σ for a target: 4 digits to nearest would be 3989, below what is needed"},
		{39894.22803909895, up, "39900", "above 10⁴, written out"},
		{0.4054651081081644, down, "0.4054", "ln 1.5"},
		{0.4054651081081644, up, "0.4055", ""},
		{0.25, up, "0.25", "exact in 4 digits"},
		{0.25, down, "0.25", ""},
		{9.99949, up, "10", "up across a power of ten"},
		{0.99996, down, "0.9999", "down across a power of ten: the last digit of its own decade"},
		{1.2344e-5, up, "1.235e-05", "with exponent"},
	} {
		got := significant(c.v, c.dir)
		if got != c.want {
			t.Errorf("significant(%v, %d) = %q, want %q (%s)", c.v, c.dir, got, c.want, c.describe)
		}
		p, err := strconv.ParseFloat(got, 64)
		if err != nil || c.dir == up && p < c.v || c.dir == down && p > c.v {
			t.Errorf("significant(%v, %d) = %q is on the wrong side of the value", c.v, c.dir, got)
		}
	}
}

// A probability below 1 is never written as 100%: it gets the digits that
// keep it below (the values are 100·p written by hand to those digits, on
// the side asked for), up to maxPercentDigits; 1 itself is 100%.
func TestPercentBelowOne(t *testing.T) {
	for _, c := range []struct {
		p    float64
		dir  int
		want string
	}{
		{0.9999425737514527, up, "99.995%"}, // 4 digits up would be 100%
		{0.99999, nearest, "99.999%"},
		{0.9999999, up, "99.999991%"}, // 100·p is 99.99999000000001 in float64, above 99.99999
		{0.5, up, "50%"},
		{0.123456, up, "12.35%"},
		{1, up, "100%"},
		{1 - 1e-14, up, "100%"}, // within 1e-12 of 1: beyond maxPercentDigits
	} {
		if got := string(appendPercent(nil, c.p, c.dir)); got != c.want {
			t.Errorf("appendPercent(%v, %d) = %q, want %q", c.p, c.dir, got, c.want)
		}
	}
}
