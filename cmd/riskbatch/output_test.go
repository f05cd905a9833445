package main

import (
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// Reading back what riskbatch wrote, in any format, as cell text.

// readAll reads every table of a file into a header and rows of cell text.
func readAll(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	tables, err := readers.Open(path, readers.Options{Accept: release.NewVocabulary().Recognizes})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	var header []string
	var rows [][]string
	for _, tb := range tables {
		header = header[:0]
		for _, c := range tb.Columns() {
			header = append(header, c.Name)
		}
		for {
			r, err := tb.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("read %s: %v", path, err)
			}
			row := make([]string, len(header))
			for i, c := range r.Cells {
				if i < len(row) {
					row[i] = cellText(c)
				}
			}
			rows = append(rows, row)
		}
		tb.Close()
	}
	return header, rows
}

// cellText prints a cell so that the same value read from different
// formats compares equal.
func cellText(c table.Cell) string {
	if c.IsEmpty() {
		return ""
	}
	return c.String()
}

// column is the index of the column name in header, -1 where absent.
func column(header []string, name string) int { return slices.Index(header, name) }

// sameValue compares cell texts, numerically when both are numbers (a
// number written by a spreadsheet may gain or lose a trailing ".0").
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, errA := parseFloat(a)
	y, errB := parseFloat(b)
	return errA == nil && errB == nil && x == y
}

func itoa(i int) string                    { return strconv.Itoa(i) }
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
