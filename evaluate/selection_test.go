package evaluate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// Every output column of the five papers' families belongs to its paper,
// and every column to its family's group: the groups are the registry's
// data (Family, Paper), so a new entry has them without more code.
func TestGroupsFromRegistry(t *testing.T) {
	e := New()
	paperOf := map[string]string{"gb": "seed000", "pmp": "seed001", "onerun": "seed002", "fdp": "seed003", "adp": "seed003", "rero": "seed003", "fano": "seed004"}
	members := map[string][]string{}
	for _, g := range e.Groups() {
		members[g.Kind+" "+g.Name] = g.Columns
	}
	for _, o := range e.Outputs() {
		if o.Family == "" {
			t.Errorf("%s has no family", o.Name)
		}
		if !slices.Contains(members["family "+o.Family], o.Name) {
			t.Errorf("%s is not in the group of its family %s", o.Name, o.Family)
		}
		if want, ok := paperOf[o.Family]; ok && o.PaperID() != want {
			t.Errorf("%s (family %s): paper %q, want %q", o.Name, o.Family, o.PaperID(), want)
		}
		if p := o.PaperID(); p != "" && !slices.Contains(members["paper "+p], o.Name) {
			t.Errorf("%s is not in the group of its paper %s", o.Name, p)
		}
	}
	// An entry of a new family, or one that names its paper, is selected
	// by them.
	o := registry.OutputColumn{Name: "audit_eps_lb", Family: "audit", Paper: "seed002"}
	for _, sel := range []string{"audit", "audit_*", "seed002", "seed 2", "Audit-EPS-LB", "output"} {
		if !o.Matches(sel) {
			t.Errorf("audit_eps_lb does not match %q", sel)
		}
	}
	for _, sel := range []string{"onerun", "seed003", "audit_eps", "", "*_ub"} {
		if o.Matches(sel) {
			t.Errorf("audit_eps_lb matches %q", sel)
		}
	}
	// A column of no paper's family is its citation's paper, if any.
	o = registry.OutputColumn{Name: "x", Family: "dpsgd", Citation: "Mironov, Talwar & Zhang 2019; as restated in Kulynych, Gomez & Raisaro 2025, \"T\""}
	if p := o.PaperID(); p != "seed003" {
		t.Errorf("cited Kulynych second: paper %q, want seed003", p)
	}
	if o.Citation = "Balle & Wang 2018"; o.PaperID() != "" {
		t.Errorf("cited no paper: paper %q, want none", o.PaperID())
	}
}

// Select keeps the matching columns in registry order; a selector that
// matches nothing is a SelectError listing every such selector.
func TestSelect(t *testing.T) {
	e := New()
	s, err := e.Select("onerun_advantage", "fdp_success", "status", "seed004")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range s.Columns() {
		names = append(names, c.Name)
	}
	want := []string{"status", "message", "headline", "headline_says", "fdp_success", "fano_adv_alpha1", "fano_adv_opt", "fano_success_opt", "onerun_advantage"}
	if !slices.Equal(names, want) {
		t.Errorf("columns %q, want %q", names, want)
	}
	if s.Width() != len(want) || len(e.Outputs()) <= len(s.Outputs()) {
		t.Errorf("width %d; the evaluator selected from has %d outputs", s.Width(), len(e.Outputs()))
	}
	_, err = e.Select("fdp_success", "nope", "seed9")
	var se *registry.SelectError
	if !errors.As(err, &se) || !slices.Equal(se.Selectors, []string{"nope", "seed9"}) {
		t.Fatalf("error %v, want a SelectError of nope and seed9", err)
	}
	if got, want := err.Error(), `no output column, group or paper matches "nope", "seed9"`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if reg := s.Registered(); len(reg) != HeadWidth+len(e.Outputs()) || !slices.Contains(reg, "gb_urero") {
		t.Errorf("Registered of a selection: %d names, want all %d", len(reg), HeadWidth+len(e.Outputs()))
	}
}

// The evaluator of a selection computes none of the columns left out: it
// calls no function of theirs, so their work is not done and dropped.
func TestSelectSkipsWork(t *testing.T) {
	calls := map[string]int{}
	column := func(name string) registry.OutputColumn {
		return registry.OutputColumn{Name: name, Family: "test", Format: table.Real, MechanismBits: registry.MechanismSet(nil),
			Compute: func(*resolve.Release) (float64, resolve.Skip) { calls[name]++; return 1, resolve.Skip{} }}
	}
	e := New()
	e.outputs = []registry.OutputColumn{column("a"), column("b"), column("c")}
	s, err := e.Select("b")
	if err != nil {
		t.Fatal(err)
	}
	st, out := evalWith(t, s, map[string]string{"mechanism": "pure", "epsilon": "1"})
	if st != StatusOK || out["b"].Num != 1 || len(out) != HeadWidth+1 {
		t.Errorf("status %s, cells %v", st, out)
	}
	if calls["a"] != 0 || calls["b"] != 1 || calls["c"] != 0 {
		t.Errorf("calls %v, want b once only", calls)
	}
}

// A row of a selection speaks only of the columns selected: a missing
// input that only a column left out needs makes it neither partial nor
// part of its message, and an input that asks only for columns left out
// is not reported as unused.
func TestSelectMessages(t *testing.T) {
	s, err := New().Select("adp_advantage")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []map[string]string{
		{"mechanism": "pure", "epsilon": "1"},                            // no baseline: fdp_* would be partial
		{"mechanism": "pure", "epsilon": "1", "target_advantage": "0.1"}, // asks for the inverse columns
		{"mechanism": "pure", "epsilon": "1", "records": "10", "w": "0.01"},
	} {
		st, out := evalWith(t, s, row)
		if st != StatusOK || out["message"].String() != "" {
			t.Errorf("%v: status %s, message %q; want ok without a message", row, st, out["message"].String())
		}
		// (e − 1)/(e + 1) = 0.46211715726000974 (tanh ½), rounded up.
		if v := out["adp_advantage"].Num; v < 0.46211715726000974 || v > 0.46211715726000974+1e-12 {
			t.Errorf("%v: adp_advantage %v", row, v)
		}
	}
	full, out := evalWith(t, New(), map[string]string{"mechanism": "pure", "epsilon": "1"})
	if full != StatusPartial || !strings.Contains(out["message"].String(), "baseline") {
		t.Errorf("the full evaluator: status %s, message %q; want partial for a baseline", full, out["message"].String())
	}
}

// Selecting headline computes the columns its rule reads: the selection's
// headline is the full output's, on a row of each case of the rule.
func TestSelectHeadline(t *testing.T) {
	e := New()
	s, err := e.Select("headline")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Outputs()) == 0 || len(s.Outputs()) >= len(e.Outputs()) {
		t.Fatalf("headline selects %d of %d outputs", len(s.Outputs()), len(e.Outputs()))
	}
	for _, row := range []map[string]string{
		{"mechanism": "gaussian", "sigma": "5", "candidates": "100"},
		{"mechanism": "laplace", "epsilon": "2"},
		{"mechanism": "pure", "epsilon": "0.5", "target_advantage": "0.05"},
		{"mechanism": "gaussian", "sigma": "2", "target_advantage": "0.1", "baseline": "0.01"},
	} {
		_, full := evalWith(t, e, row)
		_, sel := evalWith(t, s, row)
		for _, name := range []string{registry.HeadlineColumn, registry.HeadlineSaysColumn} {
			if full[name].IsEmpty() || full[name] != sel[name] {
				t.Errorf("%v: %s %v selected, %v in full", row, name, sel[name], full[name])
			}
		}
	}
}
