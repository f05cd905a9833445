package readers

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riskbatch/riskbatch/table"
)

// NextRows appends up to n rows to rows, the rows Next would return one
// after the other, and returns the longer slice. Their cells are cut from
// one slab per record batch rather than allocated row by row, and a
// column null on every row of the batch is left as the slab's empty
// cells: a file written by a pass-through run holds about 60 such
// columns, and allocating each row's cells was most of the time of
// reading it. An error ends the stream as in Next, after the rows before
// the one it names; io.EOF comes with no rows.
func (t *parquetTable) NextRows(rows []table.Row, n int) (_ []table.Row, err error) {
	var slab []table.Cell
	return t.readRows(rows, n, func(r, k int) []table.Cell {
		width := len(t.getters)
		if r == 0 {
			slab = make([]table.Cell, k*width)
		}
		return slab[r*width : (r+1)*width : (r+1)*width]
	})
}

// readRows is NextRows: the cells of each row of a record batch (the
// r-th of the k read from it) go to cells(r, k), the cell of column j at
// index j; a column null on every row of the batch is left as cells(r, k)
// holds it.
func (t *parquetTable) readRows(rows []table.Row, n int, cells func(r, k int) []table.Cell) (_ []table.Row, err error) {
	if err := t.readable(); err != nil {
		return rows, err
	}
	if t.sel != nil {
		return rows, fileError(t.name, errors.New("rows read after SelectColumns"))
	}
	defer t.settle(&err)
	for n > 0 {
		if err := t.advance(); err != nil {
			if err == io.EOF && len(rows) > 0 {
				return rows, nil
			}
			return rows, err
		}
		k := min(n, t.n-t.i)
		for r := range k {
			row := cells(r, k)
			for j, g := range t.getters {
				if g == nil {
					continue // null on every row of the batch
				}
				row[j] = g(t.i)
				if t.cellErr != nil {
					return rows, t.fail(j, t.cellErr)
				}
			}
			t.i++
			t.rows++
			rows = append(rows, table.Row{Pos: table.Position{File: t.name, Row: int(t.rows) + 1, Column: -1}, Cells: row})
		}
		n -= k
	}
	return rows, nil
}

// ArrayType is the Arrow type of column i in the file's record batches, or
// nil for a nested type (see ColumnReader).
func (t *parquetTable) ArrayType(i int) arrow.DataType {
	if i < 0 || i >= len(t.types) {
		return nil
	}
	switch dt := t.types[i]; dt.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW, arrow.STRUCT, arrow.MAP, arrow.EXTENSION,
		arrow.DENSE_UNION, arrow.SPARSE_UNION, arrow.RUN_END_ENCODED:
		return nil
	default:
		return dt
	}
}

// ReadColumns reads a run of rows of the current record batch (see
// ColumnReader): the columns asked for as arrays are slices of the batch's
// arrays, the others' cells are read as NextRows reads them. The file is
// checked as for NextRows: every column is read, those not asked for too
// (reading only some, as SelectColumns does, would halve what a file
// written by a pass-through run allocates, but a damage in a column of
// bounds, dropped and computed again, would then go unnoticed).
func (t *parquetTable) ReadColumns(run *ColumnRun, n int, arrays, cells []bool) (err error) {
	run.reset(len(t.cols))
	if err := t.readable(); err != nil {
		return err
	}
	if t.sel != nil {
		return fileError(t.name, errors.New("rows read after SelectColumns"))
	}
	if len(arrays) != len(t.cols) || len(cells) != len(t.cols) {
		return fileError(t.name, fmt.Errorf("ReadColumns: %d and %d flags for %d columns", len(arrays), len(cells), len(t.cols)))
	}
	defer t.settle(&err)
	if err := t.advance(); err != nil {
		return err
	}
	k := min(max(n, 1), t.n-t.i)
	rec := t.rr.RecordBatch()
	for j := range t.cols {
		if arrays[j] {
			if t.ArrayType(j) == nil {
				return fileError(t.name, fmt.Errorf("ReadColumns: column %s cannot be read as an array", t.cols[j].Name))
			}
			run.Arrays[j] = array.NewSlice(rec.Column(j), int64(t.i), int64(t.i+k))
		}
	}
	var slab []table.Cell
	cellWidth := 0 // a row's cells: up to the last column asked for
	if anyOf(cells) {
		slab, cellWidth = run.cellSlab(k, cells)
	}
	for r := range k {
		var row []table.Cell
		if slab != nil {
			row = slab[r*cellWidth : (r+1)*cellWidth : (r+1)*cellWidth]
			for j, g := range t.getters {
				if !cells[j] || g == nil {
					continue // not asked for, or null on every row of the batch
				}
				row[j] = g(t.i)
				if t.cellErr != nil {
					run.Release()
					return t.fail(j, t.cellErr)
				}
			}
		}
		t.i++
		t.rows++
		run.Rows = append(run.Rows, table.Row{Pos: table.Position{File: t.name, Row: int(t.rows) + 1, Column: -1}, Cells: row})
		run.Errs = append(run.Errs, nil)
	}
	return nil
}
