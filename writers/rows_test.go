package writers

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/riskbatch/riskbatch/table"
)

// writeBoth writes cols and rows to two Parquet files in dir, with row
// groups of rowGroupRows rows and text limit limit: one by Write, row by
// row, the other by WriteRows in runs of run rows. It returns both
// writers and both files.
func writeBoth(t *testing.T, dir string, cols []table.Column, rows [][]table.Cell, rowGroupRows, limit, run int) (byRow, byRun *parquetWriter, a, b []byte) {
	t.Helper()
	write := func(name string, whole bool) (*parquetWriter, []byte) {
		path := filepath.Join(dir, name)
		w := mustCreate(t, path, Options{}).(*parquetWriter)
		w.rowGroupRows, w.rowGroupBytes = rowGroupRows, limit
		if err := w.WriteHeader(cols); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(rows); i += run {
			part := rows[i:min(i+run, len(rows))]
			if whole {
				if err := w.WriteRows(part); err != nil {
					t.Fatal(err)
				}
				continue
			}
			for _, r := range part {
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return w, data
	}
	byRow, a = write("rows.parquet", false)
	byRun, b = write("runs.parquet", true)
	return byRow, byRun, a, b
}

// TestParquetWriteRows checks that WriteRows writes the very file that a
// Write of each row writes: the same row groups (of 5 rows here, so that
// runs of 3 and 512 rows cross their ends), the same nulls for columns
// empty on a whole run or row group, the same conversions and nulled
// count, and the row-by-row fallback where a run's text could reach the
// row group's text limit (150 bytes here, which ends row groups within
// runs).
func TestParquetWriteRows(t *testing.T) {
	cols := append(sampleCols(), table.Column{Name: "unused", Kind: table.Number, Role: table.Output})
	rows := manyRows(40)
	for i := range rows {
		rows[i] = append(append([]table.Cell(nil), rows[i]...), table.Cell{})
	}
	for _, c := range []struct {
		name       string
		run, bytes int
	}{
		{"runs of 3", 3, parquetRowGroupBytes},
		{"one run", 512, parquetRowGroupBytes},
		{"text limit", 7, 150},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			rw, ww, byRow, byRun := writeBoth(t, dir, cols, rows, 5, c.bytes, c.run)
			if !bytes.Equal(byRow, byRun) {
				t.Errorf("WriteRows wrote %d bytes unlike Write's %d", len(byRun), len(byRow))
			}
			// manyRows repeats sampleRows: 40 rows hold 6 copies and its
			// first 4 rows, of which the 4th has 2 nulled cells.
			if want := int64(nulledInSample*6 + 2); rw.NulledCells() != want || ww.NulledCells() != want {
				t.Errorf("nulled %d by Write, %d by WriteRows, want %d", rw.NulledCells(), ww.NulledCells(), want)
			}
			_, got, groups, _ := readParquet(t, filepath.Join(dir, "runs.parquet"))
			if len(got) != len(rows) || groups < 8 {
				t.Errorf("%d rows in %d row groups, want %d in at least 8", len(got), groups, len(rows))
			}
		})
	}
}

// TestParquetWriteRowsTypes checks WriteRows against Write on columns of
// every type DuckDB writes (duckdb_v2.parquet), written with their Arrow
// types: every other column empty on every row (ready-made arrays of
// nulls), the others empty on their first 100 rows (nulls owed, then
// appended before the first value).
func TestParquetWriteRowsTypes(t *testing.T) {
	cols, rows := readTable(t, filepath.Join("..", "readers", "testdata", "duckdb_v2.parquet"))
	for _, r := range rows[:100] {
		clear(r)
	}
	for _, r := range rows {
		for j := 1; j < len(r); j += 2 {
			r[j] = table.Cell{}
		}
	}
	_, _, byRow, byRun := writeBoth(t, t.TempDir(), cols, rows, 64, parquetRowGroupBytes, 37)
	if !bytes.Equal(byRow, byRun) {
		t.Errorf("WriteRows wrote %d bytes unlike Write's %d", len(byRun), len(byRow))
	}
}

// TestParquetWriteRowsMisuse checks that WriteRows fails as Write does on
// a row of the wrong width, after writing the rows before it.
func TestParquetWriteRowsMisuse(t *testing.T) {
	w := mustCreate(t, filepath.Join(t.TempDir(), "bad.parquet"), Options{}).(*parquetWriter)
	defer w.Abort()
	if err := w.WriteHeader(sampleCols()); err != nil {
		t.Fatal(err)
	}
	rows := sampleRows()
	rows[3] = rows[3][:2]
	err := w.WriteRows(rows)
	if err == nil || w.rows != 3 {
		t.Fatalf("WriteRows of a short 4th row: %v after %d rows, want an error after 3", err, w.rows)
	}
	if want := "data row 4 has 2 cells, the header 9 columns"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// TestDelimitedLikeEncodingCSV checks that the CSV and TSV writers write
// the bytes encoding/csv writes for the cells' String(): quotes, line
// breaks, separators, leading spaces, `\.`, every kind of cell.
func TestDelimitedLikeEncodingCSV(t *testing.T) {
	cols := []table.Column{{Name: " lead"}, {Name: "a,b"}, {Name: `q"`}, {Name: `\.`}, {Name: "t\tab"}, {Name: "d"}, {Name: "ts"}, {Name: "x"}}
	rows := [][]table.Cell{
		{text("plain"), text("x,y"), text(`say "hi"`), text(`\.`), text("tab\there"), table.DateCell(19000), table.TimestampCell(1_700_000_000_123, table.Millisecond.InUTC()), text("\u00a0nbsp")},
		{num(1e-300), num(-0.1), integ(-42), boo(true), text("cr\rlf\n"), table.DecimalCell("-12.340"), table.NestedCell(`{"a":[1,2]}`), empty()},
		{text(" "), text(""), empty(), num(3), text("é,ü"), table.TimeOfDayCell(3_600_000_001, table.Microsecond), text("\\."), text("\x00\xff")},
	}
	for _, sep := range []rune{',', '\t'} {
		path := filepath.Join(t.TempDir(), "out.csv")
		w, err := newDelimited(path, sep, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		fill(t, w, cols, rows)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		cw := csv.NewWriter(&want)
		cw.Comma = sep
		header := make([]string, len(cols))
		for i, c := range cols {
			header[i] = c.Name
		}
		_ = cw.Write(header)
		for _, r := range rows {
			record := make([]string, len(r))
			for i, c := range r {
				record[i] = c.String()
			}
			_ = cw.Write(record)
		}
		cw.Flush()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("separator %q:\n got %q\nwant %q", sep, got, want.Bytes())
		}
	}
}

// TestParquetWriteRowsExtensionNulls checks that two columns of
// different extension types over one storage type (JSON and an opaque
// type, both over strings), empty on a whole row group, are each written
// with their own type: Arrow's type fingerprint of an extension type is
// that of its storage, so a kept array of nulls found by it alone would
// be of the other column's type.
func TestParquetWriteRowsExtensionNulls(t *testing.T) {
	json, err := extensions.NewJSONType(arrow.BinaryTypes.String)
	if err != nil {
		t.Fatal(err)
	}
	opaque := extensions.NewOpaqueType(arrow.BinaryTypes.String, "geo.point", "riskbatch")
	cols := []table.Column{
		{Name: "j", Kind: table.Text, Source: json},
		{Name: "o", Kind: table.Text, Source: opaque},
	}
	rows := [][]table.Cell{{table.TextCell(`{"a":1}`), table.TextCell("x")}, {}, {}, {}, {}}
	for i := 1; i < len(rows); i++ {
		rows[i] = make([]table.Cell, 2)
	}
	byRow, byRun, a, b := writeBoth(t, t.TempDir(), cols, rows, 2, parquetRowGroupBytes, 5)
	if !bytes.Equal(a, b) {
		t.Errorf("WriteRows wrote %d bytes unlike Write's %d", len(b), len(a))
	}
	if byRow.rows != 5 || byRun.rows != 5 {
		t.Errorf("rows written: %d by Write, %d by WriteRows, want 5", byRow.rows, byRun.rows)
	}
}
