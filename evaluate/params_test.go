package evaluate

import (
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// A rejected row's problems are typed: each names the column, the cell's
// value and the reason, and prints as the row's message gives it.
func TestCellError(t *testing.T) {
	e := New()
	b, err := e.Bind([]table.Column{{Name: "mechanism"}, {Name: "Epsilon"}, {Name: "sigma"}})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]table.Cell, e.Width())
	cells := []table.Cell{table.TextCell("pure"), table.NumberCell(-1), table.NumberCell(2)}
	st, _, problems, _ := b.evaluate(cells, dst, nil)
	if st != StatusError || len(problems) != 1 {
		t.Fatalf("status %s, problems %v; want error with one problem", st, problems)
	}
	want := resolve.CellError{Column: "Epsilon", Value: "-1", Reason: "-1 is out of range; expected a number ≥ 0"}
	if got := *problems[0]; got != want {
		t.Errorf("problem %+v, want %+v", got, want)
	}
	if got, want := problems[0].Error(), "Epsilon: -1 is out of range; expected a number ≥ 0"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}

	cells[1] = table.NumberCell(1)
	st, _, problems, _ = b.evaluate(cells, dst, nil)
	if st != StatusError || len(problems) != 1 {
		t.Fatalf("status %s, problems %v; want error with one problem", st, problems)
	}
	want = resolve.CellError{Column: "sigma", Value: "2", Reason: "filled, but mechanism pure does not use it; clear it or correct mechanism"}
	if got := *problems[0]; got != want {
		t.Errorf("problem %+v, want %+v", got, want)
	}
	// rowError is an error in its own right (SuccessCurve wraps it).
	if got := problems.Error(); got != want.Error() {
		t.Errorf("rowError = %q, want %q", got, want.Error())
	}
}
