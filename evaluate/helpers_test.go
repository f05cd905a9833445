package evaluate

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// loadPriors loads prior tables from CSV files held in memory (name →
// content): name first, then the others in the order of their names (the
// frequency tables beside a prior table), as priorfiles.Load reads a
// prior table and the frequency table beside it. The tables are built in
// memory so that this package's tests link no file readers.
func loadPriors(t *testing.T, name string, files map[string]string) *priors.Tables {
	t.Helper()
	names := []string{name}
	for n := range files {
		if n != name {
			names = append(names, n)
		}
	}
	slices.Sort(names[1:])
	l := priors.NewLoader()
	for _, n := range names {
		tb, err := memtable.CSV(n, files[n])
		if err != nil {
			t.Fatal(err)
		}
		l.File(n)
		l.Read(tb)
	}
	ts, err := l.Tables()
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// bindRow binds a row given as header → cell text.
func bindRow(t *testing.T, e *Evaluator, row map[string]string) (*Binding, []table.Cell) {
	t.Helper()
	cols := make([]table.Column, 0, len(row))
	cells := make([]table.Cell, 0, len(row))
	for k, v := range row {
		cols = append(cols, table.Column{Name: k})
		if v == "" {
			cells = append(cells, table.Cell{})
		} else {
			cells = append(cells, table.TextCell(v))
		}
	}
	b, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	return b, cells
}

// evalWith evaluates one row (header → text) with an evaluator: its status
// and its output cells by column name.
func evalWith(t *testing.T, e *Evaluator, row map[string]string) (Status, map[string]table.Cell) {
	t.Helper()
	b, cells := bindRow(t, e, row)
	dst := make([]table.Cell, e.Width())
	st := b.Evaluate(cells, dst)
	out := map[string]table.Cell{}
	for i, c := range e.Columns() {
		out[c.Name] = dst[i]
	}
	return st, out
}

// merged returns one row of the cells of rows, later ones overriding.
func merged(rows ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, r := range rows {
		for k, v := range r {
			out[k] = v
		}
	}
	return out
}

// resolveRow resolves one row (header → text) into its Release, or nil and
// the row's problems.
func resolveRow(t *testing.T, row map[string]string) (*resolve.Release, resolve.RowError) {
	t.Helper()
	e := New()
	var cols []table.Column
	var in resolve.Inputs
	for h, v := range row {
		cols = append(cols, table.Column{Name: h})
		f, _ := e.rows.Vocabulary().Lookup(h)
		if e.rows.Vocabulary().Column(f).Text {
			in.Text[f] = v
		} else {
			in.Num[f], _ = ParseNumber(v)
		}
		in.Set[f] = true
	}
	b, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	var problems resolve.RowError
	return b.h.Resolve(&in, &problems), problems
}

// retyped returns a copy of a row with target_advantage and the cells drop
// cleared and the cells set filled: a calibration's value typed back into
// the row it came from.
func retyped(row map[string]string, set map[string]string, drop ...string) map[string]string {
	r := make(map[string]string, len(row))
	for k, v := range row {
		r[k] = v
	}
	delete(r, "target_advantage")
	for _, k := range drop {
		delete(r, k)
	}
	for k, v := range set {
		r[k] = v
	}
	return r
}

// inferenceCase is a row (header → text) and the mechanism it resolves
// to, or "" for a row that must not resolve (an error).
type inferenceCase struct {
	row  map[string]string
	mech release.Mechanism
}

// checkInference resolves each case's row and checks its mechanism.
func checkInference(t *testing.T, cases []inferenceCase) {
	t.Helper()
	for _, c := range cases {
		r, problems := resolveRow(t, c.row)
		switch {
		case c.mech == "" && r != nil:
			t.Errorf("%v: %s, want an error", c.row, r.Mechanism)
		case c.mech != "" && (r == nil || r.Mechanism != c.mech):
			t.Errorf("%v: got %v (%v), want %s", c.row, r, problems, c.mech)
		}
	}
}

// newRand is the tests' random source, fixed by its seed.
func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }
