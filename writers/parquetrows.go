package writers

import "github.com/riskbatch/riskbatch/table"

// WriteRows buffers rows as Write would one after the other, with the
// same row groups and the same file, but a column at a time: a column
// empty on every row of a run is appended as one run of nulls, and each
// other column's cells are appended in one loop over the rows. A pass-
// through run writes about 60 empty bound columns a row; appending them
// cell by cell was about half of its time.
func (w *parquetWriter) WriteRows(rows [][]table.Cell) error {
	for len(rows) > 0 {
		if w.fw == nil {
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
// notes in w.filled the columns with a value on some row of the run, in
// one pass over the rows in their order in memory (a pass down each
// column would touch a cache line per cell).
func (w *parquetWriter) columnwise(run [][]table.Cell) bool {
	if w.beginRow(run[0]) != nil {
		return false
	}
	filled := w.filled[:0]
	filled = append(filled, make([]bool, len(w.cols))...)
	w.filled = filled
	// A cell adds at most its Str and the text of a number, date or
	// time (under 64 bytes) to the row group's text (see appendCell).
	const formatted = 64
	text := w.strLen
	for _, cells := range run {
		if len(cells) != len(w.cols) {
			return false
		}
		for i := range cells {
			c := &cells[i]
			if c.Kind != table.Empty {
				filled[i] = true
				text += len(c.Str) + formatted
			}
		}
	}
	return text < w.rowGroupBytes
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
