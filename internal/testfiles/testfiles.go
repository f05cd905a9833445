// Package testfiles reads back, for tests, the files that riskbatch and
// other programs write, independently of package readers: so that a test
// of a writer or of a prior table does not trust the code it checks.
package testfiles

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/riskbatch/riskbatch/table"
)

// ReadCSV returns every record of the delimited file at path as
// encoding/csv reads it, with comma as the delimiter (',' when 0). It
// fails the test when the file cannot be read or is not valid CSV.
func ReadCSV(t testing.TB, path string, comma rune) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	if comma != 0 {
		r.Comma = comma
	}
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

// AllRows returns the cells of every row of src, read to its end (io.EOF)
// with Next: a table of package readers, an evaluator's data table. It
// fails the test on any other error.
func AllRows(t testing.TB, src interface{ Next() (table.Row, error) }) [][]table.Cell {
	t.Helper()
	var rows [][]table.Cell
	for {
		row, err := src.Next()
		if errors.Is(err, io.EOF) {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row.Cells)
	}
}

// WriteParquet writes rec as the Parquet file at path, in one row group
// with the default properties, and fails the test on an error: an input
// made from Arrow arrays, for the tests that read or pass Parquet through.
func WriteParquet(t testing.TB, path string, rec arrow.RecordBatch) {
	t.Helper()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
