package evaluate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// parseStagesCell parses an extra_stages cell with the contract's
// mechanism names.
func parseStagesCell(s string) ([]pld.Stage, error) {
	specs := release.MechanismSpecs()
	return release.ParseStages(s, specs, release.MechanismIndex(specs))
}

// extra_stages: the accepted forms and every refusal, with its message
// naming the stage.
func TestParseStages(t *testing.T) {
	lap := func(eps float64, n int) pld.Stage { return pld.Stage{Mechanism: pld.Laplace, Epsilon: eps, Steps: n} }
	gauss := func(sigma float64, n int) pld.Stage {
		return pld.Stage{NoiseMultiplier: sigma, SampleRate: 1, Steps: n}
	}
	for _, c := range []struct {
		in   string
		want []pld.Stage
		err  string
	}{
		{"8, 1, 2", []pld.Stage{gauss(8, 2)}, ""},
		{"8 1 2; 0.9,0.01,1000;", []pld.Stage{gauss(8, 2), {NoiseMultiplier: 0.9, SampleRate: 0.01, Steps: 1000}}, ""},
		{"1, 1%, 1e3", []pld.Stage{{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 1000}}, ""},
		{"laplace(5)x10; gaussian(2)x3", []pld.Stage{lap(0.2, 10), gauss(2, 3)}, ""},
		{"Laplace(4, 2) × 3; gauss(6, 3); gdp(0.5) *2", []pld.Stage{lap(0.5, 3), gauss(2, 1), gauss(2, 2)}, ""},
		{"rr(1, 100)x2; pure(0.3); approx(0.5, 1e-6) x 4; dpsgd(1.1, 0.01)x1000", []pld.Stage{
			{Mechanism: pld.RandomizedResponse, Epsilon: 1, Categories: 100, Steps: 2}, {Mechanism: pld.EpsilonDelta, Epsilon: 0.3, Steps: 1},
			{Mechanism: pld.EpsilonDelta, Epsilon: 0.5, Delta: 1e-6, Steps: 4}, {NoiseMultiplier: 1.1, SampleRate: 0.01, Steps: 1000}}, ""},
		{"", nil, "no stage; write stages such as \"laplace(5)x10; gaussian(2)x3\" or \"σ, q, steps\", separated by \";\""},
		{"8, 1", nil, "stage 1 (\"8, 1\"): has 2 values; write a DP-SGD stage as \"noise_multiplier, sample_rate, steps\", or a mechanism such as laplace(5)x10"},
		{"0, 1, 2", nil, "stage 1 (\"0, 1, 2\"): noise multiplier 0 is out of range; expected a number > 0"},
		{"1, 1.5, 2", nil, "stage 1 (\"1, 1.5, 2\"): sample rate 1.5 is out of range; expected (0, 1]"},
		{"1, 1, 2.5", nil, "stage 1 (\"1, 1, 2.5\"): steps 2.5 is out of range; expected a whole number from 1 to 2^40"},
		{"1, 1, 2; x, 1, 2", nil, "stage 2 (\"x, 1, 2\"): "},
		{"laplace(5)x10; lapalce(5)", nil, "stage 2 (\"lapalce(5)\"): \"lapalce\" is not a mechanism; did you mean laplace?"},
		{"laplace(5", nil, "stage 1 (\"laplace(5\"): has no closing parenthesis"},
		{"laplace(5)x0", nil, "stage 1 (\"laplace(5)x0\"): count 0 is out of range; expected a whole number from 1 to 2^40"},
		{"laplace(5)y3", nil, "stage 1 (\"laplace(5)y3\"): \"y3\" after the parenthesis is not a count; write the count as x10"},
		{"laplace(0)", nil, "stage 1 (\"laplace(0)\"): scale 0 is out of range; expected a number > 0"},
		{"laplace()", nil, "stage 1 (\"laplace()\"): laplace has 0 parameters; expected laplace(b) or laplace(b, sensitivity)"},
		{"rr(1, 1)", nil, "stage 1 (\"rr(1, 1)\"): categories 1 is out of range; expected a whole number ≥ 2"},
		{"approx(1, 1)", nil, "stage 1 (\"approx(1, 1)\"): delta 1 is out of range; expected [0, 1)"},
		{"pure(-1)", nil, "stage 1 (\"pure(-1)\"): epsilon -1 is out of range; expected a finite number ≥ 0"},
		{"zcdp(0.5)", nil, "stage 1 (\"zcdp(0.5)\"): mechanism zcdp has no privacy-loss distribution to compose; expected gaussian(σ)"},
		{"gaussian(2, 0)", nil, "stage 1 (\"gaussian(2, 0)\"): sensitivity 0 is out of range; expected a number > 0"},
	} {
		got, err := parseStagesCell(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		case c.err == "" && fmt.Sprint(got) != fmt.Sprint(c.want):
			t.Errorf("%q: %v, want %v", c.in, got, c.want)
		}
	}
	many := strings.Repeat("1, 1, 1; ", release.MaxExtraStages+1)
	if _, err := parseStagesCell(many); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("%d stages: %v", release.MaxExtraStages+1, err)
	}
}

// A bad extra_stages cell is the row's error, naming the column and the
// stage; a zcdp row cannot compose stages.
func TestExtraStagesRowErrors(t *testing.T) {
	for _, c := range []struct {
		row  map[string]string
		want string
	}{
		{map[string]string{"epsilon": "1", "extra_stages": "laplace(5)x10; lapalce(2)"}, "extra_stages: stage 2 (\"lapalce(2)\"): \"lapalce\" is not a mechanism; did you mean laplace?"},
		{map[string]string{"rho": "0.1", "extra_stages": "laplace(5)"}, "extra_stages: filled, but mechanism zcdp has no privacy-loss distribution to compose the stages with"},
	} {
		st, msg, _ := evalRow(t, c.row)
		if st != StatusError || !strings.HasPrefix(msg, c.want) {
			t.Errorf("%v: %s: %s", c.row, st, msg)
		}
	}
}

// compositionRows are rows of several releases, with the (ε, 0) route's
// values they had before exact composition (the optimal composition
// theorem of Kairouz, Oh & Viswanath 2015 at the row's per-release ε).
var compositionRows = []struct {
	row     map[string]string
	eps     float64 // per release, for the (ε, 0) route
	n       int     // releases
	tighter bool    // strictly tighter in the worst case
}{
	{map[string]string{"laplace_scale": "5", "compositions": "15", "baseline": "0.1"}, 0.2, 15, true},
	{map[string]string{"laplace_scale": "1", "sensitivity": "2", "compositions": "4", "baseline": "0.01"}, 2, 4, true},
	{map[string]string{"epsilon": "1", "rr_categories": "100", "compositions": "2", "baseline": "0.1"}, 1, 2, true},
	{map[string]string{"epsilon": "0.5", "rr_categories": "3", "compositions": "20", "baseline": "0.3"}, 0.5, 20, true},
	{map[string]string{"epsilon": "1", "rr_categories": "9007199254740992", "compositions": "3", "baseline": "0.1"}, 1, 3, true}, // 2^53, the most categories
	{map[string]string{"epsilon": "1", "rr_categories": "2", "compositions": "5", "baseline": "0.2"}, 1, 5, false},
	{map[string]string{"epsilon": "0.4", "compositions": "6", "baseline": "0.05"}, 0.4, 6, false},
	{map[string]string{"epsilon": "0.2", "extra_stages": "laplace(5)x14", "baseline": "0.1"}, 0.2, 15, true},
	{map[string]string{"epsilon": "0.5", "extra_stages": "rr(0.5, 10)x3", "baseline": "0.1"}, 0.5, 4, true},
}

// A composed row is never looser than the (ε, 0) route it replaces, and
// strictly tighter for Laplace and k-ary randomized response with k > 2;
// its fdp_composition_error says how far it may be above the exact value.
func TestComposedRowsTighter(t *testing.T) {
	for _, c := range compositionRows {
		st, msg, out := evalRow(t, c.row)
		if st != StatusOK {
			t.Fatalf("%v: %s: %s", c.row, st, msg)
		}
		old := kovRoute(t, c.eps, c.n)
		b, err := ParseNumber(c.row["baseline"])
		if err != nil {
			t.Fatal(err)
		}
		if adv, was := mustNum(t, out, "fdp_advantage", c.row), old.Advantage(b); adv > roundUpProbability(was) {
			t.Errorf("%v: fdp_advantage %.17g above the (ε, 0) route's %.17g", c.row, adv, was)
		}
		worst, was := mustNum(t, out, "fdp_worst_advantage", c.row), old.WorstAdvantage()
		if worst > roundUpProbability(was) || c.tighter && !(worst < was-1e-3) {
			t.Errorf("%v: fdp_worst_advantage %.6f, (ε, 0) route %.6f", c.row, worst, was)
		}
		if e := mustNum(t, out, "fdp_composition_error", c.row); !(e >= 0 && e < 1e-4) || !c.tighter && e != 0 {
			t.Errorf("%v: fdp_composition_error %g", c.row, e)
		}
	}
	// Two motivating rows: 0.2020 → 0.1976 (Kulynych et al. 2025, App. G.1)
	// and η 0.462 → 0.0332.
	_, _, out := evalRow(t, compositionRows[0].row)
	if v := out["fdp_advantage"].Num; math.Abs(v-0.1976) > 1e-3 {
		t.Errorf("15 Laplace queries at baseline 0.1: fdp_advantage %.5f", v)
	}
	_, _, out = evalRow(t, compositionRows[2].row)
	if v := out["fdp_worst_advantage"].Num; math.Abs(v-0.03317) > 1e-5 {
		t.Errorf("100-ary randomized response twice: fdp_worst_advantage %.5f", v)
	}
	// A single release has no composition error.
	if _, _, out := evalRow(t, map[string]string{"laplace_scale": "5"}); out["fdp_composition_error"].Kind != 0 {
		t.Errorf("one Laplace release: fdp_composition_error %+v", out["fdp_composition_error"])
	}
}

// kovRoute is the (ε, 0) route of n releases: the optimal composition
// theorem's curve.
func kovRoute(t *testing.T, eps float64, n int) *curve.ComposedApprox {
	t.Helper()
	c, err := curve.NewComposedApprox(eps, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustNum returns an output cell's number, failing if it has none.
func mustNum(t *testing.T, out map[string]table.Cell, name string, row map[string]string) float64 {
	t.Helper()
	c := out[name]
	if c.Kind != table.Number {
		t.Fatalf("%v: %s is %+v, not a number (%s)", row, name, c, out["message"].Str)
	}
	return c.Num
}

// roundUpProbability allows for the output's conservative rounding of a
// value computed here unrounded (the contract's 1e-12).
func roundUpProbability(x float64) float64 { return x + 1e-12 }

// mustResolveRow resolves a row (header → text) into its Release.
func mustResolveRow(t *testing.T, row map[string]string) *resolve.Release {
	t.Helper()
	b, cells := bindRow(t, New(), row)
	in, ok := b.h.ParseInputs(cells)
	var problems resolve.RowError
	r := b.h.Resolve(&in, &problems)
	if !ok || r == nil {
		t.Fatalf("%v: %v", row, problems)
	}
	return r
}

// The releases of several rows, as Release.Stages gives them, compose into
// the curve of one row that states them all as extra_stages (the same
// stages in the same order): three releases of one dataset, Laplace,
// Gaussian and DP-SGD.
func TestRowStagesCompose(t *testing.T) {
	var all []pld.Stage
	for _, row := range []map[string]string{
		{"laplace_scale": "5", "compositions": "10"},
		{"sigma": "2", "compositions": "3"},
		{"noise_multiplier": "1.1", "sample_rate": "0.01", "steps": "100"},
	} {
		st, ok := mustResolveRow(t, row).Stages()
		if !ok {
			t.Fatalf("%v: no stages", row)
		}
		all = append(all, st...)
	}
	total, err := curve.Compose(all, nil)
	if err != nil {
		t.Fatal(err)
	}
	one := mustResolveRow(t, map[string]string{"laplace_scale": "5", "compositions": "10", "extra_stages": "gaussian(2)x3; dpsgd(1.1, 0.01)x100"})
	for _, b := range []float64{0.001, 0.1, 0.5} {
		if got, want := total.Advantage(b), one.Curve.Advantage(b); got != want {
			t.Errorf("advantage at %g: %.17g from the rows' stages, %.17g from one row", b, got, want)
		}
	}
	// A pure row with a Gaussian stage reads its (ε, δ) view at its
	// delta, which the mixture allows.
	st, msg, out := evalRow(t, map[string]string{"mechanism": "pure", "epsilon": "0.5", "delta": "1e-6", "extra_stages": "gaussian(4)x2", "baseline": "0.1"})
	if st != StatusOK || out["eps_at_delta"].Kind != table.Number || !(out["eps_at_delta"].Num > 0.5) {
		t.Errorf("pure row with a Gaussian stage: %s: %s, eps_at_delta %+v", st, msg, out["eps_at_delta"])
	}
	// The columns of one family of mechanisms describe the row's own
	// mechanism alone: empty for a mixture (rero_zcdp would read the
	// Gaussian's ρ without the Laplace stages).
	if _, _, out := evalRow(t, map[string]string{"sigma": "2", "extra_stages": "laplace(5)x2", "baseline": "0.1"}); out["rero_zcdp"].Kind != 0 || out["fdp_advantage"].Kind != table.Number {
		t.Errorf("a Gaussian row with Laplace stages: rero_zcdp %+v, fdp_advantage %+v", out["rero_zcdp"], out["fdp_advantage"])
	}
	if _, ok := mustResolveRow(t, map[string]string{"rho": "0.1"}).Stages(); ok {
		t.Error("a zcdp row has stages")
	}
}
