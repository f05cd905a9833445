package evaluate

import "testing"

// value reports what a column's declaration says, in its order: what asks
// for the column and its condition first (silent), then a missing
// baseline, then a baseline of 1 where the column is undefined at 1, then
// a missing delta, and only then the column's function.
func TestValueFollowsDeclaration(t *testing.T) {
	e := New()
	column := func(name string) *OutputColumn {
		for k := range e.outputs {
			if e.outputs[k].Name == name {
				return &e.outputs[k]
			}
		}
		t.Fatalf("no column %s", name)
		return nil
	}
	for _, c := range []struct {
		row  map[string]string
		col  string
		want skip
	}{
		// No baseline and no delta: both are reported (the message adds
		// them once for all columns).
		{map[string]string{"sigma": "1"}, "onerun_posterior", skip{need: NeedBaseline | NeedDelta}},
		// A baseline of 1 is reported before the missing delta.
		{map[string]string{"sigma": "1", "baseline": "1"}, "onerun_advantage", skip{why: "the advantage is undefined at baseline 1"}},
		{map[string]string{"sigma": "1", "baseline": "1"}, "onerun_posterior", skip{need: NeedDelta}},
		{map[string]string{"sigma": "1", "baseline": "1"}, "fdp_norm_advantage", skip{why: "the advantage is undefined at baseline 1"}},
		// A pure ε has no need of delta.
		{map[string]string{"epsilon": "1", "baseline": "0.1"}, "onerun_posterior", skip{}},
		// Not asked for: silent, even though the baseline is missing.
		{map[string]string{"epsilon": "1"}, "onerun_eps_protect", skip{silent: true}},
		{map[string]string{"epsilon": "1", "target_advantage": "0.1"}, "onerun_eps_protect", skip{need: NeedBaseline}},
		// The condition: one composition.
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-6", "compositions": "3", "target_advantage": "0.5"}, "fdp_eps_for_target", skip{silent: true}},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-6", "target_advantage": "0.5"}, "fdp_eps_for_target", skip{}},
		// The condition: a pure ε-DP row without δ.
		{map[string]string{"epsilon": "1", "delta": "1e-6"}, "gb_mia_yeom", skip{silent: true}},
		{map[string]string{"epsilon": "1"}, "gb_mia_yeom", skip{}},
	} {
		b, cells := bindRow(t, e, c.row)
		var in inputs
		problems := b.readCells(cells, &in)
		r := b.resolve(&in, &problems)
		if r == nil {
			t.Fatalf("%v: %v", c.row, problems)
		}
		_, got := column(c.col).value(r)
		if got != c.want {
			t.Errorf("%v: %s gives %+v, want %+v", c.row, c.col, got, c.want)
		}
	}
}
