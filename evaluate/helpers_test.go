package evaluate

import (
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

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
