package evaluate

import (
	"sort"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// sheetRowOf lays one row (header → cell text; a value that starts with
// "#" is written as a number cell) out as riskbatch's output: the inputs in
// sorted order, then the evaluator's columns, evaluated. It returns the
// sheet binding, the row and the header.
func sheetRowOf(t *testing.T, e *Evaluator, row map[string]string) (*SheetBinding, []table.Cell, []table.Column) {
	t.Helper()
	var names []string
	for h := range row {
		names = append(names, h)
	}
	sort.Strings(names)
	var header []table.Column
	var cells []table.Cell
	for _, h := range names {
		header = append(header, table.Column{Name: h, Role: table.Input})
		v := row[h]
		switch {
		case v == "":
			cells = append(cells, table.Cell{})
		case strings.HasPrefix(v, "#"):
			x, err := ParseNumber(v[1:])
			if err != nil {
				t.Fatal(err)
			}
			cells = append(cells, table.NumberCell(x))
		default:
			cells = append(cells, table.TextCell(v))
		}
	}
	b, err := e.Bind(header)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]table.Cell, e.Width())
	b.Evaluate(cells, out)
	header = append(header, e.Columns()...)
	cells = append(cells, out...)
	s, err := e.BindSheet(header)
	if err != nil {
		t.Fatal(err)
	}
	return s, cells, header
}

// formulasOf returns the formulas of a row by column name.
func formulasOf(t *testing.T, e *Evaluator, row map[string]string) map[string]string {
	t.Helper()
	s, cells, header := sheetRowOf(t, e, row)
	f := make([]string, len(cells))
	s.Formulas(cells, f)
	got := map[string]string{}
	for i, x := range f {
		if x != "" {
			got[header[i].Name] = x
			if cells[i].Kind != table.Number {
				t.Errorf("%s: formula %q on a cell without a value", header[i].Name, x)
			}
		}
	}
	return got
}

// A formula is written where the row's value is exactly what it computes
// from the cells it references, and not otherwise.
func TestSheetFormulasWhere(t *testing.T) {
	e := New()
	cases := []struct {
		name    string
		row     map[string]string
		has     []string // columns that must have a formula
		hasNone []string // columns that must not
	}{
		{"pure row, plain numbers in text (as CSV gives them)",
			map[string]string{"mechanism": "pure", "epsilon": "1", "baseline": "0.01", "delta": ""},
			[]string{"fdp_success", "fdp_advantage", "fdp_worst_advantage", "adp_advantage", "onerun_posterior", "gb_mia_yeom"},
			[]string{"fdp_binary_success", "fano_adv_opt"}},
		{"gaussian row given by sigma and sensitivity",
			map[string]string{"mechanism": "gaussian", "sigma": "#2", "sensitivity": "#1", "baseline": "#0.1"},
			[]string{"fdp_success", "fdp_worst_advantage", "rero_zcdp"},
			[]string{"adp_advantage", "eps_at_delta", "gb_mia_yeom"}},
		{"gaussian row with sigma and an agreeing mu: the formula would ignore mu",
			map[string]string{"mechanism": "gaussian", "sigma": "#2", "mu": "#0.5", "baseline": "#0.1"},
			nil, []string{"fdp_success", "fdp_worst_advantage", "rero_zcdp"}},
		{"baseline from a prior: not a cell",
			map[string]string{"mechanism": "pure", "epsilon": "#1", "prior": "uniform(100)"},
			[]string{"fdp_worst_advantage", "adp_advantage"}, []string{"fdp_success", "onerun_posterior", "rero_eps"}},
		{"approx composed: the composition is numerical",
			map[string]string{"mechanism": "approx", "epsilon": "#1", "delta": "#1e-5", "compositions": "#3", "baseline": "#0.1"},
			nil, []string{"fdp_success", "fdp_worst_advantage", "adp_advantage", "eps_at_delta"}},
		{"pure composed: ε-based columns use k·ε, the curve is numerical",
			map[string]string{"mechanism": "pure", "epsilon": "#1", "compositions": "#3", "baseline": "#0.1"},
			[]string{"adp_advantage", "eps_at_delta", "onerun_posterior"}, []string{"fdp_success", "fdp_worst_advantage"}},
		{"ε beyond 700: e^ε would overflow a spreadsheet",
			map[string]string{"mechanism": "pure", "epsilon": "#701", "baseline": "#0.1"},
			nil, []string{"fdp_success", "adp_advantage", "onerun_posterior"}},
		{"a percentage is text to a spreadsheet",
			map[string]string{"mechanism": "pure", "epsilon": "#1", "baseline": "10%"},
			[]string{"fdp_worst_advantage"}, []string{"fdp_success", "onerun_posterior"}},
		{"error row",
			map[string]string{"mechanism": "pure", "epsilon": "#1", "baseline": "#1.5"},
			nil, []string{"fdp_success", "fdp_worst_advantage"}},
		{"zcdp row: numerical curve, closed-form comparator",
			map[string]string{"mechanism": "zcdp", "rho": "#0.5", "baseline": "#0.01", "delta": "#1e-6"},
			[]string{"rero_zcdp", "rero_rdp"}, []string{"fdp_success", "fdp_worst_advantage", "eps_at_delta"}},
		{"a gaussian baseline of 0 is outside NORM.S.INV's domain",
			map[string]string{"mechanism": "gdp", "mu": "#1", "baseline": "#0"},
			[]string{"fdp_worst_advantage"}, []string{"fdp_success"}},
	}
	for _, c := range cases {
		got := formulasOf(t, e, c.row)
		for _, col := range c.has {
			if got[col] == "" {
				t.Errorf("%s: no formula in %s (formulas: %v)", c.name, col, got)
			}
		}
		for _, col := range c.hasNone {
			if got[col] != "" {
				t.Errorf("%s: %s has formula %q", c.name, col, got[col])
			}
		}
	}
}

// Formulas refer to the row's own cells by their header names, as the
// header spells them, and to earlier output columns by theirs.
func TestSheetFormulaReferences(t *testing.T) {
	e := New()
	got := formulasOf(t, e, map[string]string{"mechanism": "pure", "epsilon": "#2", "baseline": "#0.25"})
	if f := got["onerun_posterior"]; f != "[@baseline]*EXP([@epsilon])/([@baseline]*EXP([@epsilon])+1-[@baseline])" {
		t.Errorf("onerun_posterior formula %q", f)
	}
	if f := got["eps_at_delta"]; f != "[@epsilon]" {
		t.Errorf("eps_at_delta formula %q", f)
	}
	// A header name that is not a plain word is bracketed (and escaped).
	got = formulasOf(t, e, map[string]string{"mechanism": "laplace", "Laplace scale": "#2"})
	if f := got["eps_at_delta"]; f != "(1/[@[Laplace scale]])" {
		t.Errorf("eps_at_delta formula %q with the header Laplace scale", f)
	}
	got = formulasOf(t, e, map[string]string{"mechanism": "pure", "ε": "#2"})
	if f := got["eps_at_delta"]; f != "[@ε]" {
		t.Errorf("eps_at_delta formula %q with the header ε", f)
	}
}

// SuccessCurve gives, at each baseline, the fdp_success that evaluating
// the row with that baseline gives; the curve lies between b and 1 and
// does not decrease.
func TestSuccessCurve(t *testing.T) {
	t.Parallel()
	e := New()
	grid := []float64{0, 1e-9, 0.001, 0.1, 0.37, 0.5, 0.9, 1}
	for _, row := range []map[string]string{
		{"mechanism": "approx", "epsilon": "#1", "delta": "#1e-5", "baseline": "#0.2"},
		{"mechanism": "gaussian", "sigma": "#1.5", "baseline": "#0.2"},
		{"mechanism": "laplace", "laplace_scale": "#2", "baseline": "#0.2"},
		{"mechanism": "zcdp", "rho": "#0.3", "baseline": "#0.2"},
		{"mechanism": "rr", "epsilon": "#2", "rr_categories": "#5", "baseline": "#0.2"},
	} {
		s, cells, _ := sheetRowOf(t, e, row)
		curve, err := s.SuccessCurve(cells, grid)
		if err != nil {
			t.Fatalf("%v: %v", row, err)
		}
		for i, b := range grid {
			r := map[string]string{}
			for k, v := range row {
				r[k] = v
			}
			r["baseline"] = "#" + ftoa(b)
			_, _, out := evalRow(t, stripHashes(r))
			if want := out["fdp_success"].Num; curve[i] != want {
				t.Errorf("%v at b = %v: curve %v, fdp_success %v", row["mechanism"], b, curve[i], want)
			}
			if curve[i] < b || curve[i] > 1 || (i > 0 && curve[i] < curve[i-1]) {
				t.Errorf("%v: curve %v not in [b, 1] and non-decreasing at b = %v", row["mechanism"], curve, b)
			}
		}
	}
	s, cells, _ := sheetRowOf(t, e, map[string]string{"mechanism": "pure", "epsilon": "-1"})
	if _, err := s.SuccessCurve(cells, grid); err == nil {
		t.Error("an error row has a curve")
	}
}

// stripHashes turns sheetRowOf's number marks back into plain text.
func stripHashes(row map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range row {
		out[k] = strings.TrimPrefix(v, "#")
	}
	return out
}
