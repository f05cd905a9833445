package layout

import (
	"errors"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// header is a Source with a fixed header.
type header struct {
	file, sheet string
	cols        []table.Column
}

func (h header) File() string            { return h.file }
func (h header) Sheet() string           { return h.sheet }
func (h header) Columns() []table.Column { return h.cols }

func textColumns(names ...string) []table.Column {
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n, Kind: table.Text}
	}
	return cols
}

func textCells(vals ...string) []table.Cell {
	cells := make([]table.Cell, len(vals))
	for i, v := range vals {
		if v != "" {
			cells[i] = table.TextCell(v)
		}
	}
	return cells
}

func names(cols []table.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// twoTables are two inputs that name the same inputs differently (epsilon
// and eps, id and ID), repeat a header (note) and carry a stale status
// column from an earlier run.
func twoTables() []Source {
	second := textColumns("EPS", "ID", "delta", "note", "note", "status")
	second[3].Kind = table.Integer
	return []Source{
		header{file: "a.csv", cols: textColumns("id", "epsilon", "note")},
		header{file: "book.xlsx", sheet: "Q3", cols: second},
	}
}

func TestNewUnionOfHeaders(t *testing.T) {
	ev := evaluate.New()
	lay, err := New(ev, twoTables())
	if err != nil {
		t.Fatal(err)
	}
	// Columns matched by meaning keep the first table's header; a header
	// repeated in one table keeps one column per occurrence; the stale
	// status column is recomputed, not passed through.
	wantInputs := []string{"id", "epsilon", "note", "delta", "note", "source"}
	got := names(lay.Header())
	if lay.Inputs() != len(wantInputs) || !slices.Equal(got[:lay.Inputs()], wantInputs) {
		t.Fatalf("input side = %q (Inputs %d), want %q", got[:lay.Inputs()], lay.Inputs(), wantInputs)
	}
	if !slices.Equal(got[lay.Inputs():], names(ev.Columns())) {
		t.Errorf("output side = %q, want the evaluator's columns %q", got[lay.Inputs():], names(ev.Columns()))
	}
	if lay.Width() != len(wantInputs)+len(ev.Columns()) {
		t.Errorf("Width = %d, want %d", lay.Width(), len(wantInputs)+len(ev.Columns()))
	}
	if k := lay.Header()[2].Kind; k != table.Empty {
		t.Errorf("note is text in one table and integer in the other: kind %v, want empty (mixed)", k)
	}
	if k := lay.Header()[0].Kind; k != table.Text {
		t.Errorf("id is text in both tables: kind %v, want text", k)
	}
}

func TestSingleTableHasNoSourceColumn(t *testing.T) {
	ev := evaluate.New()
	lay, err := New(ev, []Source{header{file: "a.csv", cols: textColumns("epsilon", "delta")}})
	if err != nil {
		t.Fatal(err)
	}
	if lay.Inputs() != 2 {
		t.Fatalf("Inputs = %d, want 2 (no source column for one table)", lay.Inputs())
	}
	for _, c := range lay.Header() {
		if c.Name == "source" {
			t.Errorf("one input table, yet a source column")
		}
	}
}

func TestRowPlacesCellsAndEvaluates(t *testing.T) {
	ev := evaluate.New()
	tables := twoTables()
	lay, err := New(ev, tables)
	if err != nil {
		t.Fatal(err)
	}
	cells := textCells("1", "b1", "1e-5", "x", "y", "stale")
	out := make([]table.Cell, lay.Width())
	for i := range out {
		out[i] = table.TextCell("garbage from an earlier row")
	}
	src := SourceName(tables[1])
	if src != "book.xlsx:Q3" {
		t.Fatalf("SourceName = %q, want book.xlsx:Q3", src)
	}
	st := lay.Row(1, src, cells, nil, out)

	wantIn := []string{"b1", "1", "x", "1e-5", "y", "book.xlsx:Q3"}
	for j, w := range wantIn {
		if out[j].String() != w {
			t.Errorf("output column %d (%s) = %q, want %q", j, lay.Header()[j].Name, out[j].String(), w)
		}
	}
	// The output side is the binding's own evaluation of the row.
	bind, err := ev.Bind(tables[1].Columns())
	if err != nil {
		t.Fatal(err)
	}
	want := make([]table.Cell, ev.Width())
	wantSt := bind.Evaluate(cells, want)
	if st != wantSt {
		t.Errorf("status %q, want %q", st, wantSt)
	}
	if st == evaluate.StatusError {
		t.Errorf("ε = 1, δ = 1e-5 is a valid release, yet status error: %s", out[lay.Inputs()+1].String())
	}
	for k, w := range want {
		if g := out[lay.Inputs()+k]; g != w {
			t.Errorf("%s = %+v, want %+v", lay.Header()[lay.Inputs()+k].Name, g, w)
		}
	}
}

func TestRowKeepsUnreadableRowAsError(t *testing.T) {
	ev := evaluate.New()
	lay, err := New(ev, twoTables())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]table.Cell, lay.Width())
	for i := range out {
		out[i] = table.NumberCell(42)
	}
	readErr := errors.New("a.csv, row 7: bare quote in a field")
	st := lay.Row(0, "a.csv", textCells("r7", "2"), readErr, out)
	if st != evaluate.StatusError {
		t.Fatalf("status %q, want error", st)
	}
	if out[0].String() != "r7" || out[1].String() != "2" {
		t.Errorf("readable cells not kept: id %q, epsilon %q", out[0].String(), out[1].String())
	}
	if out[2].Kind != table.Empty || out[3].Kind != table.Empty || out[4].Kind != table.Empty {
		t.Errorf("columns absent from the row must be empty: %+v", out[2:5])
	}
	if out[5].String() != "a.csv" {
		t.Errorf("source = %q, want a.csv", out[5].String())
	}
	if out[lay.Inputs()].String() != "error" || out[lay.Inputs()+1].String() != readErr.Error() {
		t.Errorf("status, message = %q, %q; want error, %q", out[lay.Inputs()].String(), out[lay.Inputs()+1].String(), readErr.Error())
	}
	for k := lay.Inputs() + 2; k < len(out); k++ {
		if !out[k].IsEmpty() {
			t.Errorf("%s = %+v on an error row, want empty", lay.Header()[k].Name, out[k])
		}
	}
}

func TestPlaceDropsCellsBeyondHeader(t *testing.T) {
	ev := evaluate.New()
	lay, err := New(ev, []Source{header{file: "a.csv", cols: textColumns("epsilon")}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]table.Cell, lay.Width())
	lay.Place(0, "a.csv", textCells("1", "extra"), out)
	if out[0].String() != "1" {
		t.Errorf("epsilon = %q, want 1", out[0].String())
	}
	for k := 1; k < len(out); k++ {
		if !out[k].IsEmpty() {
			t.Errorf("column %d = %+v, want empty", k, out[k])
		}
	}
}

func TestDuplicateInputIsPositionedError(t *testing.T) {
	ev := evaluate.New()
	_, err := New(ev, []Source{
		header{file: "a.csv", cols: textColumns("epsilon")},
		header{file: "b.csv", cols: textColumns("id", "epsilon", "eps")},
	})
	var te *table.Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a *table.Error", err)
	}
	if te.Pos.File != "b.csv" || te.Pos.Row != 1 || te.Pos.Column != 2 || te.Pos.ColumnName != "eps" {
		t.Errorf("position %+v, want b.csv, row 1, column 2 (eps)", te.Pos)
	}
	var dup *release.DuplicateColumnError
	if !errors.As(err, &dup) {
		t.Errorf("err = %v, want it to wrap *release.DuplicateColumnError", err)
	}
}

// fingerprinted stands for an arrow.DataType: a source type with a
// Fingerprint.
type fingerprinted string

func (f fingerprinted) Fingerprint() string { return string(f) }

// An input column keeps its source type (for Parquet input, its Arrow
// type, which the Parquet writer writes back) when every table that has it
// agrees on it; tables that disagree leave it without one.
func TestSourceTypes(t *testing.T) {
	cols := func(ts, note any) []table.Column {
		c := textColumns("epsilon", "ts", "note")
		c[1].Source, c[2].Source = ts, note
		return c
	}
	ev := evaluate.New()
	one, err := New(ev, []Source{header{file: "a.parquet", cols: cols(fingerprinted("timestamp[us]"), nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Header()[1].Source; got != fingerprinted("timestamp[us]") {
		t.Errorf("one table: source %v", got)
	}
	two, err := New(ev, []Source{
		header{file: "a.parquet", cols: cols(fingerprinted("timestamp[us]"), "x")},
		header{file: "b.parquet", cols: cols(fingerprinted("timestamp[us]"), "y")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := two.Header()[1].Source; got != fingerprinted("timestamp[us]") {
		t.Errorf("two tables that agree: source %v", got)
	}
	if got := two.Header()[2].Source; got != nil {
		t.Errorf("two tables that disagree: source %v, want none", got)
	}
	three, err := New(ev, []Source{
		header{file: "a.parquet", cols: cols(fingerprinted("timestamp[us]"), nil)},
		header{file: "b.csv", cols: cols(nil, nil)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := three.Header()[1].Source; got != nil {
		t.Errorf("a typed and an untyped table: source %v, want none", got)
	}
}

// PlaceInputs fills the input side as Place does and leaves the cells
// after it as they were. An input-side cell no cell of the row lands in
// is cleared: a column the table lacks (table a.csv has no delta and one
// note), and a column of a short row.
func TestPlaceInputsKeepsTail(t *testing.T) {
	ev := evaluate.New()
	lay, err := New(ev, twoTables())
	if err != nil {
		t.Fatal(err)
	}
	single, err := New(ev, []Source{header{file: "a.csv", cols: textColumns("epsilon", "delta")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		lay   *Layout
		cells []table.Cell
		want  []string // the input side
	}{
		{"columns the table lacks", lay, textCells("7", "1", "n"), []string{"7", "1", "n", "", "", "a.csv"}},
		{"a whole row", single, textCells("1", "1e-5"), []string{"1", "1e-5"}},
		{"a short row", single, textCells("1"), []string{"1", ""}},
	} {
		out := make([]table.Cell, c.lay.Width())
		for k := range out {
			out[k] = table.TextCell("x")
		}
		c.lay.PlaceInputs(0, "a.csv", c.cells, out)
		got := make([]string, c.lay.Inputs())
		for k := range got {
			got[k] = out[k].String()
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: input side %q, want %q", c.name, got, c.want)
		}
		for k := c.lay.Inputs(); k < len(out); k++ {
			if out[k].String() != "x" {
				t.Errorf("%s: column %d = %+v, want x as before", c.name, k, out[k])
			}
		}
	}
}
