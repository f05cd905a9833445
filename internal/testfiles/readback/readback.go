// Package readback reads back what a test checks, independently of the
// code under test: a file's bytes, CSV files as encoding/csv reads them,
// and the rows of any table to its end. It links no file format (no
// Arrow, no excelize), so the tests of packages that read tables in memory
// may use it.
package readback

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// ReadFile returns the bytes of the file at path, failing the test when it
// cannot be read.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// ReadCSV reads back every record of the delimited file at path as
// encoding/csv reads it, with comma as the delimiter (',' when 0),
// independently of package readers: a test of a writer or of a prior table
// does not trust the code it checks. It fails the test when the file
// cannot be read or is not valid CSV.
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

// Text returns the names of src's header, then the text (table.Cell's
// String) of every cell of every row read with AllRows, joined by single
// spaces: a small table's content in one string to compare.
func Text(t testing.TB, src interface {
	Columns() []table.Column
	Next() (table.Row, error)
}) string {
	t.Helper()
	var words []string
	for _, c := range src.Columns() {
		words = append(words, c.Name)
	}
	for _, r := range AllRows(t, src) {
		for _, c := range r {
			words = append(words, c.String())
		}
	}
	return strings.Join(words, " ")
}
