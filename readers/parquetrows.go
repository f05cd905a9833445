package readers

import (
	"errors"
	"io"

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
		width := len(t.getters)
		slab := make([]table.Cell, k*width)
		for r := range k {
			cells := slab[r*width : (r+1)*width : (r+1)*width]
			for j, g := range t.getters {
				if g == nil {
					continue // null on every row of the batch
				}
				cells[j] = g(t.i)
				if t.cellErr != nil {
					return rows, t.fail(j, t.cellErr)
				}
			}
			t.i++
			t.rows++
			rows = append(rows, table.Row{Pos: table.Position{File: t.name, Row: int(t.rows) + 1, Column: -1}, Cells: cells})
		}
		n -= k
	}
	return rows, nil
}
