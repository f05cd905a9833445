package priors_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
)

func TestParseInline(t *testing.T) {
	h := func(s float64, n int) float64 { // a direct sum, for small N
		return directHarmonic(s, n)
	}
	for _, tc := range []struct {
		in    string
		p     float64
		tol   float64
		cands int64
	}{
		{"uniform(10)", 0.1, 0, 10},
		{" Uniform ( 1e9 ) ", 1e-9, 0, 1_000_000_000},
		{"uniform(2)", 0.5, 0, 2},
		{"zipf(1.1, 10)", 1 / h(1.1, 10), 1e-15, 0},
		{"ZIPF(1.1,10,5)", math.Pow(5, -1.1) / h(1.1, 10), 1e-15, 0},
		{"zipf(0, 4)", 0.25, 1e-15, 0},
		{"zipf(1.1, 1e9)", 0.10723, 5e-6, 0},               // Swanberg et al. 2025
		{"zipf(1.2, 1000000000)", 0.18141, 5e-6, 0},        // Swanberg et al. 2025
		{"zipf(1.1, inf)", 1 / 10.5844484649508, 1e-13, 0}, // 1/ζ(1.1)
		{"zipf(1.2, ∞, 2)", math.Pow(2, -1.2) / 5.5915824411778, 1e-13, 0},
	} {
		p, inline, err := priors.ParseInline(tc.in)
		if err != nil || !inline {
			t.Errorf("%q: inline %v, %v", tc.in, inline, err)
			continue
		}
		if p.Targets() != 1 || math.Abs(p.Max()-tc.p) > tc.tol || p.P(0) != p.Max() || p.Source() != "inline" {
			t.Errorf("%q: %d targets, p = %v, want 1 target, %v", tc.in, p.Targets(), p.Max(), tc.p)
		}
		m, ok := p.Candidates()
		if m != tc.cands || ok != (tc.cands > 0) {
			t.Errorf("%q: candidates %d %v, want %d", tc.in, m, ok, tc.cands)
		}
	}
}

func TestParseInlineNotInline(t *testing.T) {
	for _, s := range []string{"penguins:Sex", "penguins:Body Mass (g)~100|Species", "", "uniformity", "zipf", "my(prior)"} {
		if _, inline, err := priors.ParseInline(s); inline || err != nil {
			t.Errorf("%q: inline %v, err %v; want a key", s, inline, err)
		}
	}
}

func TestParseInlineErrors(t *testing.T) {
	for _, s := range []string{
		"uniform(1)", "uniform(0)", "uniform(2.5)", "uniform(-3)", "uniform(inf)", "uniform()", "uniform(10", "uniform(10, 2)",
		"uniform(1e20)", "uniform(NaN)",
		"zipf(1.1)", "zipf(1, inf)", "zipf(0.9, inf)", "zipf(-1, 10)", "zipf(a, 10)", "zipf(1.1, 10, 11)", "zipf(1.1, 10, 0)",
		"zipf(1.1, 1)", "zipf(1.1, 10.5)", "zipf(1.1, 10, 2, 3)", "zipf((1.1), 10)", "zipf(NaN, 10)", "zipf(inf, 10)",
	} {
		_, inline, err := priors.ParseInline(s)
		if !inline || err == nil {
			t.Errorf("%q: inline %v, err %v; want a malformed inline prior", s, inline, err)
			continue
		}
		if !strings.Contains(err.Error(), "uniform(M)") || !strings.Contains(err.Error(), "zipf(s, N, rank)") {
			t.Errorf("%q: the error does not list the valid forms: %v", s, err)
		}
	}
}

// list(…) gives one target per item, in order, "p x n" n of them; its
// canonical key writes each item in the shortest form; a bad item is an
// error that names the item.
func TestParseInlineList(t *testing.T) {
	for _, tc := range []struct {
		in, key string
		groups  []priors.Group
	}{
		{"list(0.3, 0.5, 0.9)", "list(0.3, 0.5, 0.9)", []priors.Group{{P: 0.3, Count: 1}, {P: 0.5, Count: 1}, {P: 0.9, Count: 1}}},
		{" List( 0.7 x 600 , 0.3 × 4e2 )", "list(0.7 x 600, 0.3 x 400)", []priors.Group{{P: 0.7, Count: 600}, {P: 0.3, Count: 400}}},
		{"list(0, 1, 1 X 2)", "list(0, 1, 1 x 2)", []priors.Group{{P: 0, Count: 1}, {P: 1, Count: 3}}},
	} {
		p, inline, err := priors.ParseInline(tc.in)
		if err != nil || !inline {
			t.Errorf("%q: inline %v, %v", tc.in, inline, err)
			continue
		}
		if got := p.Groups(); p.Key() != tc.key || p.Source() != "inline" || !slices.Equal(got, tc.groups) {
			t.Errorf("%q: key %q, groups %v; want %q, %v", tc.in, p.Key(), got, tc.key, tc.groups)
		}
		if _, ok := p.Candidates(); ok {
			t.Errorf("%q: a list says no number of candidates", tc.in)
		}
	}
	for in, item := range map[string]string{
		"list()":             `item 1 ("")`,
		"list(0.5, 1.2)":     `item 2 ("1.2"): "1.2" is not a probability in [0, 1]`,
		"list(-0.1)":         `item 1 ("-0.1")`,
		"list(NaN)":          `item 1 ("NaN")`,
		"list(0.5 x 0)":      `item 1 ("0.5 x 0"): the count n`,
		"list(0.5 x 2.5)":    `item 1 ("0.5 x 2.5")`,
		"list(0.5, 0.5 y 3)": `item 2 ("0.5 y 3") is neither`,
		"list(0.5,)":         `item 2 ("")`,
		"list(0.5 x 2e9)":    "more than 1000000000 targets",
	} {
		_, inline, err := priors.ParseInline(in)
		var ie *priors.InlineError
		if !inline || !errors.As(err, &ie) || !strings.Contains(ie.Problem, item) {
			t.Errorf("%q: inline %v, %v; want an error naming %s", in, inline, err, item)
		}
	}
}
