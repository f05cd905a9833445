// Package memtable holds tables in memory as table.Rows, for the tests of
// the packages that read rows without knowing their file format (prior
// tables, pmp_data tables, layouts): such a test builds its table here
// instead of linking the readers, and Arrow and excelize with them.
package memtable

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// Table is a table held in memory: its header and its rows of cells. Row i
// (from 0) stands at row i+2 of the file Name, the header being row 1, as
// a CSV reader numbers them.
type Table struct {
	Name  string         // the file's path as given
	Cols  []table.Column // the header
	Cells [][]table.Cell // the rows
	next  int
}

// New returns a table of the file name with the columns named cols and
// the rows of cells rows.
func New(name string, cols []string, rows ...[]table.Cell) *Table {
	t := &Table{Name: name, Cells: rows}
	for _, c := range cols {
		t.Cols = append(t.Cols, table.Column{Name: c})
	}
	return t
}

// CSV reads CSV text (header first) into a table of text cells, as
// package readers reads a CSV file: every field is a text cell, an empty
// field an empty one. A record of another length than the header's is an
// error naming its row.
func CSV(name, text string) (*Table, error) {
	r := csv.NewReader(strings.NewReader(text))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header: %w", name, err)
	}
	t := New(name, header)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s, row %d: %w", name, len(t.Cells)+2, err)
		}
		row := make([]table.Cell, len(rec))
		for i, f := range rec {
			row[i] = table.TextCell(f)
		}
		t.Cells = append(t.Cells, row)
	}
}

// File returns the file's path as given.
func (t *Table) File() string { return t.Name }

// Sheet returns "": the table has no sheets.
func (t *Table) Sheet() string { return "" }

// Columns returns the header.
func (t *Table) Columns() []table.Column { return t.Cols }

// Next returns the next row, with its position, or io.EOF after the last.
func (t *Table) Next() (table.Row, error) {
	if t.next == len(t.Cells) {
		return table.Row{}, io.EOF
	}
	t.next++
	return table.Row{Pos: table.Position{File: t.Name, Row: t.next + 1, Column: -1}, Cells: t.Cells[t.next-1]}, nil
}

// Close does nothing: the table holds no file open.
func (t *Table) Close() error { return nil }
