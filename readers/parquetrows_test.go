package readers

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// drainRows reads a table to its end with NextRows, n rows at a time, as
// drain does with Next: its rows, then the error that ended it, if any.
func drainRows(t *testing.T, tb Table, n int) []entry {
	t.Helper()
	rr, ok := tb.(RowsReader)
	if !ok {
		t.Fatalf("%T is not a RowsReader", tb)
	}
	var out []entry
	for range 1_000_000 {
		rows, err := rr.NextRows(nil, n)
		if len(rows) > n {
			t.Fatalf("NextRows(%d) gave %d rows", n, len(rows))
		}
		for _, row := range rows {
			out = append(out, entry{Row: row})
		}
		if err == io.EOF {
			if len(rows) > 0 {
				t.Fatal("io.EOF with rows")
			}
			return out
		}
		if err != nil {
			out = append(out, entry{Err: err})
		}
	}
	t.Fatal("the table does not end")
	return nil
}

// TestParquetNextRows checks that NextRows reads what Next reads, in runs
// of 1, 3 and 1,000 rows, from batches of 2 and 4,096 rows (a batch of 2
// has columns null on both rows, which NextRows leaves empty without
// reading them): the fixture of every flat type, the DuckDB files, the
// sample, and damaged copies of the sample, whose errors must name the
// same row and column after the same rows. By default batches of 2 are
// read in runs of 3 only (across batches; runs of 1 and 1,000 are read
// from batches of 4,096, within one and across row groups), and the
// fixture's only at the end, where each row read is checked against the
// values written: read two rows at a time, its 5,000 rows take a quarter
// of a second per read. With RISKBATCH_LONG_TESTS=1, every run from every
// batch of every file.
func TestParquetNextRows(t *testing.T) {
	files := map[string][]byte{"fixture.parquet": parquetFixture(t)}
	for _, name := range []string{"testdata/duckdb_v2.parquet", "testdata/duckdb_zstd_v2.parquet", "../samples/releases.parquet"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = data
	}
	// Damaged copies: 8 by default, 40 in the long run.
	addDamaged(files, files["releases.parquet"], testenv.Count(8, 40), 7)
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, batch := range []int{2, 4096} {
			if batch == 2 && name == "fixture.parquet" && !testenv.Long() {
				continue // read at the end, in runs of 3
			}
			opts := Options{BatchRows: batch}
			tables, err := Open(path, opts)
			if err != nil {
				continue // refused on opening: NextRows is not reached
			}
			byRow := drain(t, tables[0])
			_ = tables[0].Close()
			runs := []int{1, 3, 1000}
			if batch == 2 && !testenv.Long() {
				runs = []int{3}
			}
			for _, n := range runs {
				tables, err := Open(path, opts)
				if err != nil {
					t.Fatalf("%s opened once, not twice: %v", name, err)
				}
				sameEntries(t, fmt.Sprintf("%s by runs of %d", name, n), drainRows(t, tables[0], n), byRow, "")
				_ = tables[0].Close()
			}
		}
	}
	// The fixture's rows are known (see wantParquetRow).
	got := drainRows(t, openOne(t, filepath.Join(dir, "fixture.parquet"), Options{BatchRows: 2}), 3)
	for i, e := range got {
		wantRow(t, e, pos(filepath.Join(dir, "fixture.parquet"), "", i+2), wantParquetRow(i))
	}
	if len(got) != parquetRows {
		t.Errorf("%d rows, want %d", len(got), parquetRows)
	}
}

// TestParquetNullColumnNext checks that Next too leaves a column null on
// a whole batch as empty cells.
func TestParquetNullColumnNext(t *testing.T) {
	path := writeFile(t, "f.parquet", parquetFixture(t))
	tb := openOne(t, path, Options{BatchRows: 1})
	for i, e := range drain(t, tb) {
		wantRow(t, e, pos(path, "", i+2), wantParquetRow(i))
	}
}
