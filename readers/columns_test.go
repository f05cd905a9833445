package readers

import (
	"fmt"
	"io"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// TestParquetSelectColumns reads columns 0 (int32 with nulls), 4 (string
// with nulls), 5 (Arrow dictionary) and 7 (uint64) of parquetFixture in
// batches: every row comes once, numbered as Next numbers it, with the
// values of wantParquetRow, the strings as dictionary arrays.
func TestParquetSelectColumns(t *testing.T) {
	path := writeFile(t, "releases.parquet", parquetFixture(t))
	sel := []int{0, 4, 5, 7}
	for _, batch := range []int{0, 333} {
		t.Run(fmt.Sprint("batch", batch), func(t *testing.T) {
			tb := openOne(t, path, Options{BatchRows: batch})
			cb, ok := tb.(ColumnBatches)
			if !ok {
				t.Fatal("a Parquet table is not ColumnBatches")
			}
			if err := cb.SelectColumns([]int{4, 0}); err == nil {
				t.Fatal("SelectColumns accepts columns out of order")
			}
			if err := cb.SelectColumns(sel); err != nil {
				t.Fatal(err)
			}
			if _, err := tb.Next(); err == nil {
				t.Fatal("Next after SelectColumns gives a row")
			}
			rows := 0
			for {
				rec, first, err := cb.ReadBatch()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if first != rows+2 || rec.NumCols() != int64(len(sel)) {
					t.Fatalf("batch at row %d with %d columns, want row %d and %d columns", first, rec.NumCols(), rows+2, len(sel))
				}
				if got := rec.Column(1).DataType().String(); got != "dictionary<values=utf8, indices=int32, ordered=false>" {
					t.Errorf("the string column reads as %s, want a dictionary", got)
				}
				for j, col := range sel {
					cells, err := ArrowCells(rec.Column(j))
					if err != nil {
						t.Fatal(err)
					}
					for i := range int(rec.NumRows()) {
						got, err := cells(i)
						want := wantParquetRow(rows + i)[col]
						if err != nil || !sameCell(got, want) {
							t.Fatalf("row %d, column %d: %v (%v), want %v", rows+i, col, got, err, want)
						}
					}
				}
				rows += int(rec.NumRows())
			}
			if rows != parquetRows {
				t.Fatalf("%d rows, want %d", rows, parquetRows)
			}
		})
	}
}

// sameCell reports whether two cells hold the same value.
func sameCell(a, b table.Cell) bool { return a.Kind == b.Kind && a.String() == b.String() }

// TestCSVNextFields reads two of the fields of CSV records, among which
// a quoted field, a short record, a blank line and a record with an
// invalid byte in a field not read: the fields read, the row numbers and
// the error are those of Next.
func TestCSVNextFields(t *testing.T) {
	text := "a,b,c\n1,\"x,\ny\",p\n\n2\n3,\xff,q\n4,z,r\n"
	path := writeFile(t, "f.csv", []byte(text))
	want := drain(t, openOne(t, path, Options{Encoding: "utf-8"}))
	tb := openOne(t, path, Options{Encoding: "utf-8"})
	fr, ok := tb.(FieldRecords)
	if !ok {
		t.Fatal("a CSV table is not FieldRecords")
	}
	if err := fr.SelectColumns([]int{0, 2}); err != nil {
		t.Fatal(err)
	}
	fields := make([]string, 2)
	for i, w := range want {
		row, err := fr.NextFields(fields)
		if row != w.Row.Pos.Row || fmt.Sprint(err) != fmt.Sprint(w.Err) {
			t.Fatalf("record %d: row %d, error %v; want row %d, error %v", i, row, err, w.Row.Pos.Row, w.Err)
		}
		for j, col := range []int{0, 2} {
			if f := w.Row.Cells[col].Str; fields[j] != f {
				t.Errorf("row %d, column %d: %q, want %q", row, col, fields[j], f)
			}
		}
	}
	if _, err := fr.NextFields(fields); err != io.EOF {
		t.Fatalf("after the last record: %v, want io.EOF", err)
	}
	// The rows, for the record: 2 (a quoted line break), 4 (after a blank
	// line), 5 (an error: the byte 0xff in column b), 6.
	if len(want) != 4 || want[2].Err == nil || want[2].Row.Pos.Row != 5 {
		t.Fatalf("Next gives %v", want)
	}
}
