package memtable

import (
	"io"
	"reflect"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// CSV text reads back as its header and text cells, numbered from row 2;
// a ragged record is an error naming its row.
func TestCSV(t *testing.T) {
	tb, err := CSV("f.csv", "a,b\n1,\n\"x,y\",2\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.Columns(); len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Errorf("columns %v", got)
	}
	want := []table.Row{
		{Pos: table.Position{File: "f.csv", Row: 2, Column: -1}, Cells: []table.Cell{table.TextCell("1"), table.TextCell("")}},
		{Pos: table.Position{File: "f.csv", Row: 3, Column: -1}, Cells: []table.Cell{table.TextCell("x,y"), table.TextCell("2")}},
	}
	for i, w := range want {
		r, err := tb.Next()
		if err != nil || !reflect.DeepEqual(r, w) {
			t.Errorf("row %d: %v, %v, want %v", i, r, err, w)
		}
	}
	if _, err := tb.Next(); err != io.EOF {
		t.Errorf("after the last row: %v, want io.EOF", err)
	}
	if _, err := CSV("r.csv", "a,b\n1,2\n3\n"); err == nil || err.Error() != "r.csv, row 3: record on line 3: wrong number of fields" {
		t.Errorf("ragged record: %v", err)
	}
}
