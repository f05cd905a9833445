package pipeline

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

// A batch's input columns travel in one of two forms: as cells of its
// output rows (the form every writer takes, and the evaluator reads), or,
// when the reader gives them and the writer takes them, as Arrow arrays,
// one per column, that go from the reader to the writer untouched: a
// Parquet file's record batches, the fields of a CSV column gathered into
// one buffer. Copying a column so costs no cell (56 bytes) per value. The
// stream is the same for both forms; columnPlan says, per table, which
// columns take which, and a table read row by row (a workbook's sheet, or
// any table for a writer that takes no arrays) is one whose columns all
// come as cells.

// columnPlan is how the columns of each table travel.
type columnPlan struct {
	tables []*tableColumns // by table
}

// tableColumns is how the columns of one table travel.
type tableColumns struct {
	// reader reads the table by columns; nil when no column comes as an
	// array (the table is read by rows: every column as cells).
	reader readers.ColumnReader
	// arrays and cells are, by column of the table, whether it is read
	// as an array (written as it is) and whether as cells (placed in the
	// output row, or read by the evaluator).
	arrays, cells []bool
	// place lists the columns whose cells go into the output rows, with
	// their output columns.
	place []placement
	// clear lists the input-side output columns that no column of the
	// table fills (the source column aside).
	clear []int
	// numbers is whether the bound columns go to the writer as arrays
	// of float64s (see numberArrays), not as cells.
	numbers bool
}

// placement is a column of a table and its output column.
type placement struct{ from, to int }

// planColumns decides how the columns of each table travel to w: as
// arrays when w takes them (a writers.ColumnsWriter writing whole runs of
// rows: not a workbook keeping formulas, no dataset totals between the
// rows) and the table gives them (a readers.ColumnReader), a column the
// writer writes with exactly the type the reader gives; as cells
// otherwise. A column read as an array is read as cells too when the
// evaluator reads it.
func (lay *evalLayout) planColumns(tables []readers.Table, w writers.Writer) *columnPlan {
	rw, whole := lay.rowsWriter(w)
	cw, ok := rw.(writers.ColumnsWriter)
	if !whole || !ok {
		cw = nil
	}
	plan := &columnPlan{tables: make([]*tableColumns, len(tables))}
	numbers := lay.numbersTo(cw)
	for ti, t := range tables {
		cr, _ := t.(readers.ColumnReader)
		plan.tables[ti] = lay.tableColumns(ti, cr, cw)
		plan.tables[ti].numbers = numbers
	}
	return plan
}

// numbersTo reports whether the bound columns of an evaluation go to cw
// (nil: a writer that takes no arrays) as arrays of float64s: every
// bound column is a number or empty, and cw takes such an array for each.
func (lay *evalLayout) numbersTo(cw writers.ColumnsWriter) bool {
	if cw == nil || lay.passThrough || lay.groups.hasGoal() {
		return false // a goal seek writes its columns as cells (evaluateGoal)
	}
	for j := lay.Inputs() + evaluate.HeadWidth; j < lay.Width(); j++ {
		if !cw.TakesArray(j, arrow.PrimitiveTypes.Float64) {
			return false
		}
	}
	return true
}

// tableColumns is the plan of table ti, read by cr (nil: by rows) and
// written by cw (nil: a writer that takes no arrays).
func (lay *evalLayout) tableColumns(ti int, cr readers.ColumnReader, cw writers.ColumnsWriter) *tableColumns {
	m := lay.Mapping(ti)
	tc := &tableColumns{arrays: make([]bool, len(m)), cells: make([]bool, len(m))}
	for i, j := range m {
		if j < 0 {
			continue // a column riskbatch computes: not read
		}
		if cr != nil && cw != nil {
			dt := cr.ArrayType(i)
			tc.arrays[i] = dt != nil && cw.TakesArray(j, dt)
		}
		tc.cells[i] = !tc.arrays[i]
		if tc.arrays[i] {
			tc.reader = cr
		} else {
			tc.place = append(tc.place, placement{from: i, to: j})
		}
	}
	if tc.reader != nil && !lay.passThrough {
		for _, i := range lay.Binding(ti).InputColumns() {
			if i < len(tc.cells) {
				tc.cells[i] = true
			}
		}
	}
	filled := make([]bool, lay.Inputs())
	for _, j := range m {
		if j >= 0 {
			filled[j] = true
		}
	}
	for j, f := range filled {
		if !f && j != lay.SourceColumn() {
			tc.clear = append(tc.clear, j)
		}
	}
	return tc
}

// of returns the plan of table ti.
func (p *columnPlan) of(ti int) *tableColumns { return p.tables[ti] }

// readColumns reads the next run of rows of table ti into an empty batch b
// as tc says: the arrays by output column, the rows with their cells.
func (lay *evalLayout) readColumns(tc *tableColumns, ti int, b *batch, limit int) error {
	if err := tc.reader.ReadColumns(&b.run, limit, tc.arrays, tc.cells); err != nil {
		return err
	}
	b.rows, b.errs = b.run.Rows, b.run.Errs
	b.arrays = append(b.arrays[:0], make([]arrow.Array, lay.Width())...)
	for i, j := range lay.Mapping(ti) {
		if j >= 0 && tc.arrays[i] {
			b.arrays[j] = b.run.Arrays[i]
		}
	}
	return nil
}

// fill fills output row out of row i of a batch: the input cells that
// are not arrays (a row's cells beyond the header are dropped, those it
// lacks are empty), the source, and the evaluator's side: evaluated, or
// in a pass-through run status ok alone (the cells after it cleared
// unless tailsEmpty says they are empty), or the error of a row that
// could not be read. When tc.numbers, the bounds go to the batch's
// numbers (numbersOf), not to out, whose cells after the headline are
// left as they are: the writer takes those columns as arrays.
func (lay *evalLayout) fill(tc *tableColumns, b *batch, i int, out []table.Cell, tailsEmpty bool) (evaluate.Status, *evaluate.Member) {
	row := b.rows[i]
	for _, p := range tc.place {
		if p.from < len(row.Cells) {
			out[p.to] = row.Cells[p.from]
		} else {
			out[p.to] = table.Cell{}
		}
	}
	for _, j := range tc.clear {
		out[j] = table.Cell{}
	}
	lay.PlaceSource(b.source, out)
	if lay.passThrough && b.errs[i] == nil {
		if !tailsEmpty {
			clear(out[lay.Inputs():])
		}
		out[lay.Inputs()] = table.TextCell(string(evaluate.StatusOK))
		return evaluate.StatusOK, nil
	}
	if g := lay.groups; g != nil && !g.sorted && b.errs[i] == nil && !tc.numbers {
		if st, ok := g.evaluateGoal(lay, b, i, out); ok { // a dataset's goal seek
			return st, nil
		}
	}
	if tc.numbers {
		in := lay.Inputs()
		return lay.EvaluateNumbers(b.tableNo, row.Cells, b.errs[i], out[in:in+evaluate.HeadWidth], b.numbersOf(i)), nil
	}
	if lay.groups != nil && lay.groups.sorted { // its member from the same resolution
		st, m := lay.EvaluateMember(b.tableNo, row.Cells, b.errs[i], out, rowName(row.Pos, lay.groups.several))
		return st, &m
	}
	return lay.Evaluate(b.tableNo, row.Cells, b.errs[i], out), nil
}

// nullTails hands the writer the evaluator's columns of a pass-through
// batch read by columns, but its status, as an array of nulls each, when
// no row of the batch is an error row: they are then empty on every row,
// and the writer need not look at their cells (a pass-through output row
// has about 60 of them).
func (lay *evalLayout) nullTails(b *batch) {
	if !lay.passThrough || slices.ContainsFunc(b.errs, func(err error) bool { return err != nil }) {
		return
	}
	b.nulls = array.NewNull(len(b.rows))
	for j := lay.Inputs() + 1; j < lay.Width(); j++ {
		b.arrays[j] = b.nulls
	}
}

// bounds is the number of bound columns: the evaluator's, after the status,
// the message and the headline.
func (lay *evalLayout) bounds() int { return lay.Width() - lay.Inputs() - evaluate.HeadWidth }

// numbersOf returns the bound values of row i of a batch evaluated to
// numbers (fill with tableColumns.numbers), one per bound column.
func (b *batch) numbersOf(i int) []float64 {
	k := len(b.nums) / len(b.rows)
	return b.nums[i*k : (i+1)*k : (i+1)*k]
}

// numberArrays hands a batch's bound values to the writer as one array of
// float64s per bound column, a null where the value is NaN (none), and as
// the batch's array of nulls (type Null, see nullTails) a column without
// a value on any row of the batch: most bound columns of a batch are, as
// each mechanism has its own (50 of 67 in a row group of the closed-form
// sweep), and the writers take such a run as they take empty cells,
// without a buffer of values or validity bits. The arrays are the
// writer's to keep (the Parquet writer holds a row group's arrays until
// it writes it): each is new, not a recycled buffer.
func (lay *evalLayout) numberArrays(b *batch) {
	if len(b.arrays) == 0 {
		b.arrays = append(b.arrays, make([]arrow.Array, lay.Width())...)
	}
	n, k := len(b.rows), lay.bounds()
	first := lay.Inputs() + evaluate.HeadWidth
	cols := transposeNumbers(b.nums, n, k)
	for c := range k {
		if cols.nulls[c] == n {
			if b.nulls == nil {
				b.nulls = array.NewNull(n)
			}
			b.arrays[first+c] = b.nulls
			continue
		}
		var bitmap *memory.Buffer
		if cols.nulls[c] > 0 {
			bitmap = memory.NewBufferBytes(cols.valid(c))
		}
		data := array.NewData(arrow.PrimitiveTypes.Float64, n, []*memory.Buffer{bitmap, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(cols.values(c)))}, nil, cols.nulls[c], 0)
		b.arrays[first+c] = array.NewFloat64Data(data)
		data.Release()
	}
}

// numberColumns are the k columns of n values each that transposeNumbers
// makes of n rows of k values: the values of column c (0 where a row has
// none; nil for a column with no value on any row), its validity bits
// (Arrow's: bit i%8 of byte i/8 set where row i has a value) and its count
// of rows without one.
type numberColumns struct {
	n     int
	at    []int     // where column c's values and bits start, in columns; -1 for none
	vals  []float64 // the columns with a value, one after another
	bits  []byte    // their validity bits, (n+7)/8 bytes each
	nulls []int
}

func (m numberColumns) values(c int) []float64 {
	j := m.at[c]
	if j < 0 {
		return nil
	}
	return m.vals[j*m.n : (j+1)*m.n : (j+1)*m.n]
}

func (m numberColumns) valid(c int) []byte {
	j, w := m.at[c], (m.n+7)/8
	if j < 0 {
		return nil
	}
	return m.bits[j*w : (j+1)*w : (j+1)*w]
}

// transposeNumbers turns n rows of k values (row after row, NaN for none)
// into k columns, each in new memory but those without a value, which
// take none (a first pass counts each column's NaNs). It goes through the
// rows eight at a time, the rows of one byte of validity bits: their
// values are a few kilobytes read again for every column, where one row
// at a time read a value from each of n rows, 8k bytes apart, for every
// column.
func transposeNumbers(nums []float64, n, k int) numberColumns {
	m := numberColumns{n: n, at: make([]int, k), nulls: make([]int, k)}
	for i := range n {
		for c, v := range nums[i*k : (i+1)*k] {
			if v != v { // NaN: no value
				m.nulls[c]++
			}
		}
	}
	filled := 0
	for c := range k {
		m.at[c] = -1
		if m.nulls[c] < n {
			m.at[c] = filled
			filled++
		}
	}
	w := (n + 7) / 8
	m.vals, m.bits = make([]float64, filled*n), make([]byte, filled*w)
	for i0 := 0; i0 < n; i0 += 8 {
		rows := nums[i0*k : min(i0+8, n)*k]
		for c := range k {
			at := m.at[c]
			if at < 0 {
				continue
			}
			col := m.vals[at*n+i0:]
			var bits byte
			for j := 0; j*k+c < len(rows); j++ {
				if v := rows[j*k+c]; v == v {
					col[j] = v
					bits |= 1 << j
				}
			}
			m.bits[at*w+i0/8] = bits
		}
	}
	return m
}
