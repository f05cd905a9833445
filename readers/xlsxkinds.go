package readers

import (
	"io"

	"github.com/riskbatch/riskbatch/table"
)

// A sheet declares no column types, but its cells have them. With
// Options.ColumnKinds the reader reads the sheet once before its first
// row is returned, and gives each column the kind that every non-empty
// cell under its header shares, so that a writer of typed columns
// (Parquet) writes numbers, booleans, dates and times as such. Only
// kinds whose every cell a typed column holds exactly are given: Number
// (a sheet's numbers are float64), Bool, Date, and Timestamp and
// TimeOfDay where every cell is in seconds or milliseconds, as every date
// serial number is (a typed column of the first row's unit, or finer,
// holds them); Text for a column of text. A column of cells of more than
// one kind (a number and a text, a date and a timestamp, a blank text
// among numbers), or without a non-empty cell, stays Empty: written as
// text, each cell as it reads.

// kindFold accumulates the kind the cells of one column share.
type kindFold struct {
	kind  table.Kind // Empty until the first non-empty cell
	mixed bool
}

// add folds one cell into the column's kind.
func (k *kindFold) add(c table.Cell) {
	if c.Kind == table.Empty || k.mixed {
		return
	}
	if c.Kind == table.Timestamp || c.Kind == table.TimeOfDay {
		if u := c.Unit; u != table.Second && u != table.Millisecond {
			k.mixed = true // a finer unit, or an instant in UTC: typed by the first row's cell alone
			return
		}
	}
	switch {
	case k.kind == table.Empty:
		k.kind = c.Kind
	case k.kind != c.Kind:
		k.mixed = true
	}
}

// result is the column's kind: the shared one, or Empty.
func (k *kindFold) result() table.Kind {
	switch {
	case k.mixed:
		return table.Empty
	case k.kind == table.Integer, k.kind == table.Decimal, k.kind == table.Nested:
		return table.Empty // never read from a sheet; not typed if they were
	}
	return k.kind
}

// findKinds reads the sheet's rows below its header as Next reads them
// (rows that Next skips, empty or all blank, count for nothing; a row
// with an undecodable cell counts with its readable cells, which Next
// returns with it) and sets each column's Kind. A sheet that cannot be
// read to its end keeps Empty kinds: Next reports the damage.
func (t *xlsxSheet) findKinds() error {
	s, err := t.openStream()
	if err != nil {
		return err
	}
	defer s.close()
	folds := make([]kindFold, len(t.cols))
	for i := 0; ; i++ {
		row, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil
		}
		if i <= t.header || row.err == nil && allEmpty(row.cells) {
			continue
		}
		for c, cell := range row.cells[:min(len(row.cells), len(folds))] {
			folds[c].add(cell)
		}
	}
	for i := range t.cols {
		t.cols[i].Kind = folds[i].result()
	}
	return nil
}

// allEmpty reports whether every cell is empty or blank.
func allEmpty(cells []table.Cell) bool {
	for _, c := range cells {
		if !c.IsEmpty() {
			return false
		}
	}
	return true
}
