package readers

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/table"
)

// ColumnReader is a Table whose rows can be read a run at a time with
// some of their columns as Arrow arrays rather than cells: a Parquet file
// (its record batches' arrays, sliced) and a CSV or TSV file (each
// column's fields gathered into a string array, no cell or string made
// for a field). A program that copies columns to an output that takes
// arrays (the Parquet writer) reads them so, and asks for cells only of
// the columns it reads itself.
type ColumnReader interface {
	Table
	// ArrayType is the Arrow type column i comes as in a ColumnRun's
	// Arrays, or nil when it cannot come as an array (it comes as cells
	// only): Parquet's nested types, whose values are checked as they are
	// turned into JSON cells.
	ArrayType(i int) arrow.DataType
	// ReadColumns reads the next run of at most n rows (at least one)
	// into run, replacing what it held: the column i as an array when
	// arrays[i] (ArrayType(i) must not be nil), as cells of the rows when
	// cells[i]; a column may be both, or neither (not read). The rows,
	// their positions and errors, are those Next would return, with the
	// cells Next would give of the columns asked for as cells (each row's
	// Cells is nil when no column is): in particular, a CSV record's error
	// comes with it in run.Errs, and its array values are the fields that
	// Next keeps as cells; a field not kept is a null. A Parquet run ends
	// at the end of a record batch. It returns io.EOF after the last row,
	// and an error that ends the stream as Next's would; the rows before it
	// are then not returned. The rows' cells are valid until the next
	// ReadColumns into the same run, which reuses their memory.
	ReadColumns(run *ColumnRun, n int, arrays, cells []bool) error
}

// ColumnRun is a run of consecutive rows of a table read by
// ColumnReader.ReadColumns.
type ColumnRun struct {
	// Arrays holds, for each column of the table asked for as an array,
	// its len(Rows) values; nil for the other columns.
	Arrays []arrow.Array
	// Rows holds each row's position, and its cells of the columns asked
	// for as cells (an empty cell for the others, and none after the last
	// column asked for: a row is as long as that column's index, plus one).
	Rows []table.Row
	// Errs holds the error that comes with each row (nil: none).
	Errs []error

	// slab holds the rows' cells, kept from one run to the next (see
	// cellSlab), with the width and the columns asked for as cells it
	// was cut for.
	slab      []table.Cell
	slabWidth int
	slabAsked []int
}

// cellSlab returns the cells of the n rows of a run whose columns asked
// for as cells are those flagged in asked, one row after another, every
// cell empty, and the width of a row: up to the last column asked for
// (the cells of the columns after it, never asked for, are left out: a
// row shorter than the header is empty there). It is the previous run's
// slab when that is large enough and was cut for the same columns, with
// those columns cleared (a reader writes only those: the others are
// still empty), so that reading a file does not allocate, clear and
// collect its rows' cells run after run. The rows of the previous run
// are then overwritten: a run's cells are valid until the next
// ReadColumns into the same run.
func (run *ColumnRun) cellSlab(n int, asked []bool) (slab []table.Cell, width int) {
	cols := run.slabAsked[:0]
	for j, a := range asked {
		if a {
			cols = append(cols, j)
		}
	}
	if len(cols) > 0 {
		width = cols[len(cols)-1] + 1
	}
	if cap(run.slab) >= n*width && run.slabWidth == width && slices.Equal(cols, run.slabAsked) {
		s := run.slab[:n*width]
		for r := range n {
			row := s[r*width : (r+1)*width]
			for _, j := range cols {
				row[j] = table.Cell{}
			}
		}
		return s, width
	}
	run.slab = make([]table.Cell, n*width)
	run.slabWidth = width
	run.slabAsked = slices.Clone(cols)
	return run.slab, width
}

// Release lets go of the run's arrays and rows, keeping its slices for
// the next run.
func (run *ColumnRun) Release() {
	for _, a := range run.Arrays {
		if a != nil {
			a.Release()
		}
	}
	clear(run.Arrays)
	clear(run.Rows)
	clear(run.Errs)
	run.Rows, run.Errs = run.Rows[:0], run.Errs[:0]
}

// reset prepares run for a run of a table of ncol columns.
func (run *ColumnRun) reset(ncol int) {
	run.Release()
	if cap(run.Arrays) < ncol {
		run.Arrays = make([]arrow.Array, ncol)
	}
	run.Arrays = run.Arrays[:ncol]
}

// anyOf reports whether some flag is set.
func anyOf(flags []bool) bool {
	for _, f := range flags {
		if f {
			return true
		}
	}
	return false
}
