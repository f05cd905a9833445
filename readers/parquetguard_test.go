package readers

import (
	"bytes"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/table"
)

// arrow/go v17 read the BYTE_STREAM_SPLIT pages of DuckDB's PARQUET_VERSION
// V2 files as zero-length columns, without an error, and riskbatch gave 0
// rows and exit status 0. The reader now checks what Arrow returns: every
// column of a batch holds one value per row, every row group gives the
// rows its metadata declares. These tests feed it a record reader that
// loses values, as that one did.

// lossyReader is a record reader whose batches lose values: the last
// value of column short, or (short < 0) the last row of every column.
type lossyReader struct {
	pqarrow.RecordReader
	short int
	cur   arrow.RecordBatch
}

func (r *lossyReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if !r.RecordReader.Next() {
		return false
	}
	rec := r.RecordReader.RecordBatch()
	if r.short < 0 {
		r.cur = rec.NewSlice(0, rec.NumRows()-1)
		return true
	}
	r.cur = shortColumn{RecordBatch: rec, short: r.short}
	rec.Retain()
	return true
}

func (r *lossyReader) RecordBatch() arrow.RecordBatch { return r.cur }

func (r *lossyReader) Release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.RecordReader.Release()
}

// shortColumn is a batch whose column short lacks its last value.
type shortColumn struct {
	arrow.RecordBatch
	short int
}

func (b shortColumn) Column(i int) arrow.Array {
	col := b.RecordBatch.Column(i)
	if i != b.short {
		return col
	}
	return array.NewSlice(col, 0, int64(col.Len()-1))
}

// readLossy reads data through a parquetTable whose record readers are
// wrapped in lossyReader{short}, returning the rows read and the error
// that ended the stream.
func readLossy(t *testing.T, data []byte, short int) (rows int, err error) {
	t.Helper()
	tables, err := OpenReader("lossy.parquet", bytes.NewReader(data), int64(len(data)), Options{BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	pt := tables[0].(*parquetTable)
	defer pt.Close()
	pt.faulty = func(rr pqarrow.RecordReader) pqarrow.RecordReader {
		return &lossyReader{RecordReader: rr, short: short}
	}
	for {
		_, err := pt.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows++
	}
}

func TestParquetShortColumn(t *testing.T) {
	data := parquetFixture(t) // parquetRows rows in row groups of 1,500

	// Unchanged, the wrapped reader gives every row.
	if rows, err := readLossy(t, data, 99); err != nil || rows != parquetRows {
		t.Fatalf("%d rows, %v", rows, err)
	}

	// Column 4 (s) lacks a value in the first batch: refused before any row
	// of that batch is returned.
	rows, err := readLossy(t, data, 4)
	if rows != 0 {
		t.Errorf("%d rows before the error", rows)
	}
	te := wantError(t, err, table.Position{File: "lossy.parquet", Row: 2, Column: 4, ColumnName: "s"},
		"lossy.parquet, row 2, column s: the Parquet file is damaged: row group 0: the column gives 99 values for the 100 rows of a batch")
	if !IsFatal(te) {
		t.Errorf("%v does not end the stream", err)
	}

	// Every batch lacks its last row: the first row group gives 15 × 99
	// rows, not the 1,500 its metadata declares.
	rows, err = readLossy(t, data, -1)
	if rows != 15*99 {
		t.Errorf("%d rows before the error", rows)
	}
	wantError(t, err, pos("lossy.parquet", "", 15*99+2),
		"lossy.parquet, row 1487: the Parquet file is damaged: row group 0 gives 1485 rows, its metadata declares 1500")
}
