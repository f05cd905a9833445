package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/readers"
)

// kindsWorkbooks are the readers' fixtures of one kind per column, written
// by openpyxl and saved by LibreOffice (readers/testdata/gen_xlsx.py).
var kindsWorkbooks = []string{"kinds.xlsx", "kinds-lo.xlsx"}

// kindsTypes is the Parquet type of each input column of kindsWorkbooks
// in the output, as Arrow names it, and as DuckDB does.
var kindsTypes = []struct{ name, arrow, duckdb string }{
	{"id", "utf8", "VARCHAR"},
	{"mechanism", "utf8", "VARCHAR"},
	{"epsilon", "float64", "DOUBLE"},
	{"compositions", "float64", "DOUBLE"},
	{"baseline", "float64", "DOUBLE"},
	{"reviewed", "bool", "BOOLEAN"},
	{"released", "date32", "DATE"},
	{"checked_at", "timestamp[ms]", "TIMESTAMP"},
	{"at_time", "time32[ms]", "TIME"},
	{"mixed", "utf8", "VARCHAR"},  // 1, "two", 3
	{"spaced", "utf8", "VARCHAR"}, // 1, " ", 2
	{"doubled", "float64", "DOUBLE"},
	{"note", "utf8", "VARCHAR"}, // no value
}

// kindsInput is the path of a kindsWorkbooks fixture.
func kindsInput(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "readers", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A workbook's columns come out of a Parquet output typed by their cells:
// numbers DOUBLE, booleans BOOLEAN, dates DATE, timestamps and times in
// milliseconds, text and columns of mixed kinds as strings; every cell
// reads back as the CSV output of the same workbook shows it (a whole
// second with the ".000" of its millisecond column), so no value is lost
// to its column's type.
func TestXLSXToParquetTyped(t *testing.T) {
	t.Parallel()
	for _, name := range kindsWorkbooks {
		dir := t.TempDir()
		in := kindsInput(t, name)
		pq, csv := filepath.Join(dir, "out.parquet"), filepath.Join(dir, "out.csv")
		mustRun(t, exitOK, "eval", in, "-o", pq, "-q")
		mustRun(t, exitOK, "eval", in, "-o", csv, "-q")
		tables, err := readers.Open(pq, readers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cols := tables[0].Columns()
		closeTables(tables)
		for i, want := range kindsTypes {
			dt, _ := cols[i].Source.(arrow.DataType)
			if cols[i].Name != want.name || dt == nil || dt.String() != want.arrow {
				t.Errorf("%s: column %d is %s %v, want %s %s", name, i, cols[i].Name, dt, want.name, want.arrow)
			}
		}
		pqHeader, pqRows := readAll(t, pq)
		csvHeader, csvRows := readAll(t, csv)
		if len(pqRows) != 4 || len(csvRows) != 4 || len(pqHeader) != len(csvHeader) {
			t.Fatalf("%s: %d rows and %d columns in Parquet, %d and %d in CSV", name, len(pqRows), len(pqHeader), len(csvRows), len(csvHeader))
		}
		for r := range pqRows {
			for j := range kindsTypes {
				if a, b := pqRows[r][j], csvRows[r][j]; a != b && strings.TrimSuffix(a, ".000") != b {
					t.Errorf("%s row %d, %s: %q in Parquet, %q in CSV", name, r+2, pqHeader[j], pqRows[r][j], csvRows[r][j])
				}
			}
		}
	}
}

// DuckDB reads those columns with those types. Needs node and DuckDB's
// Node package (RISKBATCH_NODE_MODULES); skips where they are absent,
// fails then under CI=true.
func TestXLSXToParquetReadByDuckDB(t *testing.T) {
	duck := newDuckDB(t)
	for _, name := range kindsWorkbooks {
		out := filepath.Join(t.TempDir(), "out.parquet")
		mustRun(t, exitOK, "eval", kindsInput(t, name), "-o", out, "-q")
		got := duck.read(t, out)
		for i, want := range kindsTypes {
			if got.Types[i] != [2]string{want.name, want.duckdb} {
				t.Errorf("%s: DuckDB reads column %d as %v, want %s %s", name, i, got.Types[i], want.name, want.duckdb)
			}
		}
		// The second row, as DuckDB shows it (gen_xlsx.py writes it).
		row := got.Rows[1]
		for col, want := range map[string]any{"epsilon": 1.0, "reviewed": false, "released": "2024-02-29",
			"checked_at": "2024-02-29 23:59:59.5", "at_time": "00:00:01", "mixed": "two", "spaced": " ", "doubled": 2.0} {
			if row[col] != want {
				t.Errorf("%s row 3, %s: DuckDB reads %#v, want %#v", name, col, row[col], want)
			}
		}
	}
}
