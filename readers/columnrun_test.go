package readers

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// drainColumns reads a table to its end with ReadColumns, n rows at a
// time, every column it can give as an array as one, and every column as
// cells when cells is set, but the columns skip leaves out (not read);
// it returns its rows, each row's cells rebuilt from the arrays
// (ArrowCells) where the arrays hold them, then the error that ended it,
// if any. With cells, the cells read must be those the arrays give.
func drainColumns(t *testing.T, tb Table, n int, cells bool, skip func(i int) bool) []entry {
	t.Helper()
	cr, ok := tb.(ColumnReader)
	if !ok {
		t.Fatalf("%T is not a ColumnReader", tb)
	}
	width := len(tb.Columns())
	arrays, asCells := make([]bool, width), make([]bool, width)
	for i := range width {
		if skip(i) {
			continue
		}
		arrays[i] = cr.ArrayType(i) != nil
		asCells[i] = cells || !arrays[i]
	}
	var out []entry
	var run ColumnRun
	for range 1_000_000 {
		err := cr.ReadColumns(&run, n, arrays, asCells)
		if err == io.EOF {
			return out
		}
		if err != nil {
			return append(out, entry{Err: err})
		}
		if len(run.Rows) == 0 || len(run.Rows) > n || len(run.Errs) != len(run.Rows) {
			t.Fatalf("ReadColumns(%d) gave %d rows and %d errors", n, len(run.Rows), len(run.Errs))
		}
		for r, row := range run.Rows {
			got := make([]table.Cell, width)
			copy(got, row.Cells)
			for i, arr := range run.Arrays {
				if !arrays[i] {
					if arr != nil {
						t.Fatalf("column %d: an array not asked for", i)
					}
					continue
				}
				if arr.Len() != len(run.Rows) || !sameType(arr, cr.ArrayType(i)) {
					t.Fatalf("column %d: %d values of %s for %d rows of %s", i, arr.Len(), arr.DataType(), len(run.Rows), cr.ArrayType(i))
				}
				cell, err := ArrowCells(arr)
				if err != nil {
					t.Fatal(err)
				}
				if got[i], err = cell(r); err != nil {
					t.Fatal(err)
				}
				if cells && row.Cells[i] != got[i] {
					t.Fatalf("row %d column %d: cell %+v, array %+v", row.Pos.Row, i, row.Cells[i], got[i])
				}
			}
			out = append(out, entry{Row: table.Row{Pos: row.Pos, Cells: got}, Err: run.Errs[r]})
		}
	}
	t.Fatal("the table does not end")
	return nil
}

// sameType reports whether arr is of type dt.
func sameType(arr arrow.Array, dt arrow.DataType) bool {
	return arr.DataType().Fingerprint() == dt.Fingerprint()
}

// sameRun checks that got, read by ReadColumns, is want, read by Next,
// but for the rows of the run a fatal error ends: ReadColumns returns the
// error without them.
func sameRun(t *testing.T, what string, got, want []entry) {
	t.Helper()
	if len(got) > 0 && got[len(got)-1].Err != nil && got[len(got)-1].Row.Cells == nil && got[len(got)-1].Row.Pos.File == "" {
		last := got[len(got)-1]
		if len(want) < len(got) {
			t.Fatalf("%s: %d entries, Next %d", what, len(got), len(want))
		}
		if fmt.Sprint(last.Err) != fmt.Sprint(want[len(want)-1].Err) {
			t.Fatalf("%s: ended with %v, Next with %v", what, last.Err, want[len(want)-1].Err)
		}
		got, want = got[:len(got)-1], want[:len(got)-1]
	}
	sameEntries(t, what, got, want, "")
}

// TestReadColumns checks that ReadColumns reads the rows, cells, errors
// and end Next reads, in runs of 1, 3 and 1,000 rows, with the columns as
// arrays (their values as the cells Next gives) and as cells: the Parquet
// files of TestParquetNextRows and damaged copies of the sample, and the
// CSV files of testdata/csv with records that are errors (too many fields,
// invalid UTF-8, a cut quoted field) among them.
func TestReadColumns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string][]byte{"fixture.parquet": parquetFixture(t)}
	names, err := filepath.Glob("testdata/csv/*")
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, "testdata/duckdb_v2.parquet", "testdata/duckdb_zstd_v2.parquet", "../samples/releases.parquet", "../samples/releases.csv")
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = data
	}
	files["errors.csv"] = []byte("id,epsilon,note\na,1,\nb,2,x,extra\n\"c\",\xff,\n,,\nd,, \"q\"\"\" \ne,3,\"cut")
	files["wide.csv"] = []byte("a,b\n" + strings.Repeat("x,\n,y\n1,2\n", 400))
	addDamaged(files, files["releases.parquet"], testenv.Count(6, 30), 11)
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{BatchRows: 2}
		tables, err := Open(path, opts)
		if err != nil {
			continue // refused on opening: ReadColumns is not reached
		}
		byRow := drain(t, tables[0])
		_ = tables[0].Close()
		none := func(int) bool { return false }
		odd := func(i int) bool { return i%2 == 1 }
		runs := []int{1, 3, 1000}
		if name == "fixture.parquet" && !testenv.Long() {
			runs = []int{3} // 5,000 rows in batches of 2: every run in the long run
		}
		for _, n := range runs {
			for _, cells := range []bool{false, true} {
				tables, err := Open(path, opts)
				if err != nil {
					t.Fatalf("%s opened once, not twice: %v", name, err)
				}
				sameRun(t, fmt.Sprintf("%s by runs of %d (cells %v)", name, n, cells), drainColumns(t, tables[0], n, cells, none), byRow)
				_ = tables[0].Close()
			}
		}
		// The even columns alone: the others are read and checked, but not
		// handed over.
		tables, err = Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		sameRun(t, name+" even columns", drainColumns(t, tables[0], 3, false, odd), withoutColumns(byRow, odd))
		_ = tables[0].Close()
	}
}

// withoutColumns is entries with the cells of the columns skip names
// emptied.
func withoutColumns(entries []entry, skip func(i int) bool) []entry {
	out := make([]entry, len(entries))
	for k, e := range entries {
		out[k] = e
		if e.Row.Cells == nil {
			continue
		}
		cells := slices.Clone(e.Row.Cells)
		for i := range cells {
			if skip(i) {
				cells[i] = table.Cell{}
			}
		}
		out[k].Row.Cells = cells
	}
	return out
}

// TestCSVArrayTypeLimits checks that a CSV column comes as an array only
// when one field, after a run's csvRunBytes of text, still fits the int32
// offsets of a string array: with the cell and record limits removed
// (math.MaxInt64, see Limits) it comes as cells only.
func TestCSVArrayTypeLimits(t *testing.T) {
	path := writeFile(t, "a.csv", []byte("a,b\n1,2\n"))
	for _, c := range []struct {
		cell, row int64
		array     bool
	}{
		{0, 0, true}, // the defaults: 1 MiB, 2 MiB
		{math.MaxInt32 - csvRunBytes, math.MaxInt64, true},
		{math.MaxInt64, math.MaxInt32 - csvRunBytes, true},
		{math.MaxInt32 - csvRunBytes + 1, math.MaxInt64, false},
		{math.MaxInt64, math.MaxInt64, false},
	} {
		lim := DefaultLimits()
		if c.cell > 0 {
			lim.CellBytes, lim.RowBytes = c.cell, c.row
		}
		cr := openOne(t, path, Options{Limits: lim}).(ColumnReader)
		if got := cr.ArrayType(1) != nil; got != c.array {
			t.Errorf("cell limit %d, row limit %d: column as an array %v, want %v", c.cell, c.row, got, c.array)
		}
	}
}
