package readers

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/table"
)

// The committed sample files hold exactly the rows of samples.Releases, in
// all three formats. Run `go run ./samples/gen` after changing the rows.
// (Package samples tests that its embedded workbook is the committed one;
// reading the files is tested here, so that its tests link no readers.)
func TestSampleFilesMatchReleases(t *testing.T) {
	cols, rows := samples.Releases()
	for _, name := range []string{"releases.xlsx", "releases.csv", "releases.parquet"} {
		sheet := ""
		if filepath.Ext(name) == ".xlsx" {
			sheet = "Releases"
		}
		tables, err := Open(filepath.Join("..", "samples", name), Options{Sheet: sheet})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tb := tables[0]
		got := tb.Columns()
		if len(got) != len(cols) {
			t.Fatalf("%s: %d columns, want %d (run go run ./samples/gen)", name, len(got), len(cols))
		}
		for i := range cols {
			if got[i].Name != cols[i].Name {
				t.Errorf("%s: column %d is %q, want %q", name, i, got[i].Name, cols[i].Name)
			}
		}
		for i, want := range rows {
			r, err := tb.Next()
			if err != nil {
				t.Fatalf("%s row %d: %v", name, i+2, err)
			}
			for j := range want {
				if !sameSampleCell(r.Cells[j], want[j]) {
					t.Errorf("%s row %d column %s: %v, want %v (run go run ./samples/gen)", name, i+2, cols[j].Name, r.Cells[j], want[j])
				}
			}
		}
		if _, err := tb.Next(); err != io.EOF {
			t.Errorf("%s: more rows than samples.Releases", name)
		}
		tb.Close()
	}
}

// sameSampleCell compares a cell read back with the cell written: CSV
// gives text.
func sameSampleCell(got, want table.Cell) bool {
	if got.IsEmpty() || want.IsEmpty() {
		return got.IsEmpty() == want.IsEmpty()
	}
	return got.String() == want.String()
}
