package writers

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riskbatch/riskbatch/table"
)

// A fieldAppender appends the field of row r of a column given as an
// array, as appendCell appends the cell a reader makes of the value.
type fieldAppender func(line []byte, r int) []byte

// WriteRows writes the rows one after the other, as Write does.
func (w *delimitedWriter) WriteRows(rows [][]table.Cell) error {
	for _, cells := range rows {
		if err := w.writeRow(cells, nil, 0); err != nil {
			return err
		}
	}
	return nil
}

// TakesArray reports whether WriteColumns takes a column as an array of
// type dt: strings (a Text cell), 64-bit integers (an Integer cell) and
// floats (a Number cell), whose fields it appends from the array as Write
// appends those cells, and Null (empty cells).
func (w *delimitedWriter) TakesArray(i int, dt arrow.DataType) bool {
	if i < 0 || i >= len(w.cols) || dt == nil {
		return false
	}
	switch dt.ID() {
	case arrow.STRING, arrow.INT64, arrow.FLOAT64, arrow.NULL:
		return true
	}
	return false
}

// WriteColumns writes the rows as WriteRows does, with the fields of the
// columns given as arrays appended from them (see ColumnsWriter).
func (w *delimitedWriter) WriteColumns(rows [][]table.Cell, arrays []arrow.Array) error {
	fields := make([]fieldAppender, len(arrays))
	for i, a := range arrays {
		if a == nil {
			continue
		}
		if a.Len() < len(rows) || !w.TakesArray(i, a.DataType()) {
			return w.fail(fmt.Errorf("writers: %s: column %d given %d values of %s for %d rows", w.out.target, i, a.Len(), a.DataType(), len(rows)))
		}
		fields[i] = w.arrayField(a)
	}
	for r, cells := range rows {
		if err := w.writeRow(cells, fields, r); err != nil {
			return err
		}
	}
	return nil
}

// arrayField is the fieldAppender of an array TakesArray takes: a null is
// an empty field.
func (w *delimitedWriter) arrayField(a arrow.Array) fieldAppender {
	switch a := a.(type) {
	case *array.String:
		return func(line []byte, r int) []byte {
			if a.IsNull(r) {
				return line
			}
			return w.appendField(line, a.Value(r))
		}
	case *array.Int64:
		return func(line []byte, r int) []byte {
			if a.IsNull(r) {
				return line
			}
			return strconv.AppendInt(line, a.Value(r), 10)
		}
	case *array.Float64:
		return func(line []byte, r int) []byte {
			if a.IsNull(r) {
				return line
			}
			return strconv.AppendFloat(line, a.Value(r), 'g', -1, 64)
		}
	}
	return func(line []byte, _ int) []byte { return line } // Null
}
