package writers

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riskbatch/riskbatch/table"
)

// WriteRows buffers rows as Write would one after the other, with the
// same row groups and the same file, but a column at a time: a column
// empty on every row of a run is appended as one run of nulls, and each
// other column's cells are appended in one loop over the rows. A pass-
// through run writes about 60 empty bound columns a row; appending them
// cell by cell was about half of its time.
func (w *parquetWriter) WriteRows(rows [][]table.Cell) error {
	for len(rows) > 0 {
		if w.schema == nil {
			// The first row fixes the schema (see start).
			if err := w.Write(rows[0]); err != nil {
				return err
			}
			rows = rows[1:]
			continue
		}
		// A run never crosses a row group's end, so the row groups are
		// those of Write.
		n := min(len(rows), w.rowGroupRows-w.pending)
		run := rows[:n]
		rows = rows[n:]
		if !w.columnwise(run) {
			for _, cells := range run {
				if err := w.Write(cells); err != nil {
					return err
				}
			}
			continue
		}
		for i := range w.columns {
			w.appendColumn(i, run)
		}
		w.pending += n
		w.rows += int64(n)
		if w.pending >= w.rowGroupRows {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// columnwise reports whether a run of rows can be appended a column at a
// time with the result of Write: every row has a cell per column (else
// Write reports the row), and the run's text cannot reach the row group's
// text limit, where Write would end the row group within the run. It
// notes in w.filled the columns with a value on some row of the run (see
// markFilled).
func (w *parquetWriter) columnwise(run [][]table.Cell) bool {
	if w.beginRow(run[0]) != nil {
		return false
	}
	text, ok := w.markFilled(run, nil)
	return ok && w.strLen+text < w.rowGroupBytes
}

// markFilled notes in w.filled the columns with a value on some row of
// the run, but those of skip (given as arrays), in one pass over the rows
// in their order in memory (a pass down each column would touch a cache
// line per cell), and returns at most how many bytes of text the run adds:
// a cell adds at most its Str and the text of a number, date or time
// (under 64 bytes; see appendCell). It reports false when a row has not a
// cell per column.
func (w *parquetWriter) markFilled(run [][]table.Cell, skip []arrow.Array) (text int, ok bool) {
	filled := w.filled[:0]
	filled = append(filled, make([]bool, len(w.cols))...)
	w.filled = filled
	cols := w.cellCols[:0]
	for i := range w.cols {
		if i >= len(skip) || skip[i] == nil {
			cols = append(cols, i)
		}
	}
	w.cellCols = cols
	const formatted = 64
	for _, cells := range run {
		if len(cells) != len(w.cols) {
			return text, false
		}
		for _, i := range cols {
			c := &cells[i]
			if c.Kind != table.Empty {
				filled[i] = true
				text += len(c.Str) + formatted
			}
		}
	}
	return text, true
}

// appendColumn appends column i of a run of rows.
func (w *parquetWriter) appendColumn(i int, run [][]table.Cell) {
	col := &w.columns[i]
	if col.builder != nil {
		if !w.filled[i] {
			// What appendCell appends for each empty cell: a null,
			// not counted as nulled; owed until the column takes a
			// value, if it does in this row group.
			col.owed += len(run)
			return
		}
		col.settle()
		col.builder.Reserve(len(run))
	}
	for _, cells := range run {
		w.appendCell(i, &cells[i])
	}
}

// TakesArray reports whether WriteColumns takes column i as an array of
// type dt: the column is written with exactly that type, and its values
// as Write writes their cells. Every column takes an array of type Null,
// which stands for a column null on every row (as empty cells are). A
// nested type is not taken (its cells are checked as JSON, see
// appendCell), nor, before the first row, a column typed by the cell of
// its first row (a timestamp or time of day without a source type).
func (w *parquetWriter) TakesArray(i int, dt arrow.DataType) bool {
	if i < 0 || i >= len(w.cols) || dt == nil || isNested(dt) {
		return false
	}
	if dt.ID() == arrow.NULL {
		return true // null on every row, whatever the column's type
	}
	var want arrow.DataType
	if w.schema != nil {
		want = w.schema.Field(i).Type
	} else {
		c := w.cols[i]
		if _, typed := c.Source.(arrow.DataType); !typed && (c.Kind == table.Timestamp || c.Kind == table.TimeOfDay) {
			return false
		}
		want = columnType(c, table.Cell{})
	}
	return arrow.TypeEqual(want, dt, arrow.CheckMetadata())
}

// WriteColumns writes a run of rows as WriteRows does, with the columns
// that come as arrays appended as slices of them (see ColumnsWriter). A
// run never crosses a row group's end, so the row groups hold as many rows
// as Write's; a row group whose text passes its limit ends after the run
// that passed it, not within it.
func (w *parquetWriter) WriteColumns(rows [][]table.Cell, arrays []arrow.Array) error {
	for off := 0; off < len(rows); {
		if err := w.beginRow(rows[off]); err != nil {
			return err
		}
		if w.schema == nil {
			if err := w.start(rows[off]); err != nil {
				return err
			}
		}
		n := min(len(rows)-off, w.rowGroupRows-w.pending)
		run := rows[off : off+n]
		if _, ok := w.markFilled(run, arrays); !ok {
			for _, cells := range run {
				if err := w.beginRow(cells); err != nil {
					return err
				}
			}
		}
		for i := range w.columns {
			if i < len(arrays) && arrays[i] != nil {
				if err := w.appendArray(i, arrays[i], off, n); err != nil {
					return err
				}
				continue
			}
			w.appendColumn(i, run)
		}
		w.pending += n
		w.rows += int64(n)
		off += n
		if w.pending >= w.rowGroupRows || w.strLen >= w.rowGroupBytes {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendArray appends rows [off, off+n) of arr to column i, after the
// values its builder holds.
func (w *parquetWriter) appendArray(i int, arr arrow.Array, off, n int) error {
	if arr.Len() < off+n {
		return w.fail(fmt.Errorf("writers: %s: column %s given %d values for %d rows", w.out.target, w.cols[i].Name, arr.Len(), off+n))
	}
	col := &w.columns[i]
	if arr.DataType().ID() == arrow.NULL && col.dt.ID() != arrow.NULL {
		// A column null on every row of the run: what appendColumn
		// appends for a run of empty cells.
		if col.builder != nil {
			col.owed += n
			return nil
		}
		for range n {
			*col.nested = append(*col.nested, "null")
		}
		w.strLen += 4 * n
		return nil
	}
	if err := w.cut(i); err != nil {
		return err
	}
	part := array.NewSlice(arr, int64(off), int64(off+n))
	w.strLen += valueBytes(part)
	w.columns[i].chunks = append(w.columns[i].chunks, part)
	if err := w.columns[i].coalesce(); err != nil {
		return w.fail(fmt.Errorf("writers: writing column %s of %s: %w", w.cols[i].Name, w.out.target, err))
	}
	return nil
}

// valueBytes is how many bytes of text or binary values arr holds, which
// count towards the row group's text limit as its cells' text would
// (appendCell): the value buffer of a string or binary array, the width
// of each value of a fixed-size binary array (which has no such buffer).
// The view types have no Parquet writer (pqarrow) to come to.
func valueBytes(arr arrow.Array) int {
	switch a := arr.(type) {
	case interface{ ValueBytes() []byte }:
		return len(a.ValueBytes())
	case *array.FixedSizeBinary:
		return a.Len() * a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
	}
	return 0
}
