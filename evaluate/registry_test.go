package evaluate

import (
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
)

// value reports what a column's declaration says, in its order: what asks
// for the column and its condition first (silent), then a missing
// baseline, then a baseline of 1 where the column is undefined at 1, then
// a missing delta, and only then the column's function.
func TestValueFollowsDeclaration(t *testing.T) {
	e := New()
	column := func(name string) *registry.OutputColumn {
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
		want resolve.Skip
	}{
		// No baseline and no delta: both are reported (the message adds
		// them once for all columns).
		{map[string]string{"sigma": "1"}, "onerun_posterior", resolve.Skip{Need: resolve.NeedBaseline | resolve.NeedDelta}},
		// A baseline of 1 is reported before the missing delta.
		{map[string]string{"sigma": "1", "baseline": "1"}, "onerun_advantage", resolve.Skip{Why: "the advantage is undefined at baseline 1"}},
		{map[string]string{"sigma": "1", "baseline": "1"}, "onerun_posterior", resolve.Skip{Need: resolve.NeedDelta}},
		{map[string]string{"sigma": "1", "baseline": "1"}, "fdp_norm_advantage", resolve.Skip{Why: "the advantage is undefined at baseline 1"}},
		// A pure ε has no need of delta.
		{map[string]string{"epsilon": "1", "baseline": "0.1"}, "onerun_posterior", resolve.Skip{}},
		// Not asked for: silent, even though the baseline is missing.
		{map[string]string{"epsilon": "1"}, "onerun_eps_protect", resolve.Skip{Silent: true}},
		{map[string]string{"epsilon": "1", "target_advantage": "0.1"}, "onerun_eps_protect", resolve.Skip{Need: resolve.NeedBaseline}},
		// The condition: one composition.
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-6", "compositions": "3", "target_advantage": "0.5"}, "fdp_eps_for_target", resolve.Skip{Silent: true}},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-6", "target_advantage": "0.5"}, "fdp_eps_for_target", resolve.Skip{}},
		// The condition: a pure ε-DP row without δ.
		{map[string]string{"epsilon": "1", "delta": "1e-6"}, "gb_mia_yeom", resolve.Skip{Silent: true}},
		{map[string]string{"epsilon": "1"}, "gb_mia_yeom", resolve.Skip{}},
	} {
		b, cells := bindRow(t, e, c.row)
		var in resolve.Inputs
		problems := b.h.ReadCells(cells, &in)
		r := b.h.Resolve(&in, &problems)
		if r == nil {
			t.Fatalf("%v: %v", c.row, problems)
		}
		_, got := column(c.col).Value(r)
		if got != c.want {
			t.Errorf("%v: %s gives %+v, want %+v", c.row, c.col, got, c.want)
		}
	}
}

// Every column's entry stands alone: its needs and assumptions do not
// send the reader to another column ("as fdp_success"), nor does its
// formula ("with f as for fdp_success"); and every column that a Question
// names exists and says whether it is the answer or a comparison.
func TestColumnTextsStandAlone(t *testing.T) {
	e := New()
	names := map[string]bool{}
	for _, o := range e.Outputs() {
		names[o.Name] = true
	}
	for _, o := range e.Outputs() {
		for what, text := range map[string]string{"needs": o.Needs, "assumes": o.Assumes, "formula": o.Formula} {
			for _, ref := range []string{"as ", "as for "} {
				for i := strings.Index(text, ref); i >= 0; i = next(text, ref, i) {
					word := strings.FieldsFunc(text[i+len(ref):], func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == ')' })
					if len(word) > 0 && names[word[0]] && (i == 0 || what == "formula") {
						t.Errorf("%s: %s sends the reader to %s: %q", o.Name, what, word[0], text)
					}
				}
			}
		}
	}
	for _, q := range registry.Questions() {
		for _, name := range append(append([]string(nil), q.Answers...), q.Comparisons...) {
			if !names[name] {
				t.Errorf("question %q names %s, which is no output column", q.Text, name)
			}
		}
	}
	for _, o := range e.Outputs() {
		if o.Name == "fdp_eps_for_target" && !strings.HasPrefix(o.AnswerText(), "The answer to quote") ||
			o.Name == "onerun_eps_protect" && !strings.Contains(o.AnswerText(), "fdp_eps_for_target") {
			t.Errorf("%s: %q", o.Name, o.AnswerText())
		}
	}
}

// next is the index of the next ref in text after index i, or -1.
func next(text, ref string, i int) int {
	j := strings.Index(text[i+1:], ref)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
