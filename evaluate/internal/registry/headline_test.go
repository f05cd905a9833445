package registry

import (
	"strings"
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
				if n := utf8.RuneCountInString(s); n > MaxHeadlineSays || strings.Contains(s, "…") {
					t.Errorf("%s (%s): %d characters: %q", c.When, col, n, s)
				}
			}
		}
	}
	for v, want := range map[float64]string{0.016737152290146773: "0.01674", 1.6737152290146773: "1.674", 0.5: "0.5", 63.21205588: "63.21", 1.2345e-5: "1.234e-05", 24.09809840516204: "24.1", 12345: "12345", 1.2345e6: "1.234e+06", 0: "0"} {
		if got := Significant(v); got != want {
			t.Errorf("significant(%v) = %q, want %q", v, got, want)
		}
	}
}
