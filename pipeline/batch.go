package pipeline

import (
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// batch is a run of consecutive rows of one table, evaluated by one worker.
type batch struct {
	seq     int
	tableNo int
	source  string
	rows    []table.Row
	errs    []error // a row that could not be decoded: kept, as an error row
	read    int64   // bytes read from the inputs when the batch was full
	out     [][]table.Cell
	status  []evaluate.Status
	// cells holds the cells of out, one row after another: taken from the
	// flow's spare buffers and given back once the batch is written.
	cells []table.Cell
	// tailsEmpty is whether every row of cells, over its whole
	// capacity, has empty cells after its status (see slab).
	tailsEmpty bool
	members    []evaluate.Member // with --sorted-groups: each row's dataset group member
	// columns is how the columns of the batch's table travel (see
	// columnPlan). When the table is read by columns, run holds what was
	// read, rows and errs are its rows, and arrays holds, by output
	// column, the input columns that go to the writer as arrays (nil for
	// the others); arrays is empty otherwise.
	columns *tableColumns
	run     readers.ColumnRun
	arrays  []arrow.Array
	nulls   arrow.Array // an array of nulls some of arrays are (see nullTails)
	// nums holds the bound values of the rows, one row after another,
	// when the batch is evaluated to numbers (tableColumns.numbers).
	nums []float64
}

// batchRows is the most rows of a batch.
const batchRows = 512

// batchCells bounds a batch by its output cells too, so that a very wide
// input (thousands of columns) does not make each batch hundreds of MB.
const batchCells = 1 << 18

// batchLimit is the number of rows of a batch for an output of width cells.
func batchLimit(width int) int { return max(1, min(batchRows, batchCells/max(width, 1))) }

// batchTime is how long evaluating a batch should take: the reader makes
// batches of as many rows as the workers evaluate in that time (see pace),
// within [minBatchRows, batchLimit]. Closed-form rows (a few µs each) fill
// whole batches, so that handing them over costs little; rows that take
// milliseconds (DP-SGD, zCDP, one-run tails) go a few at a time, so that
// every worker has work until the end of the input and no batch of slow
// rows holds the others up.
const batchTime = 5 * time.Millisecond

// minBatchRows is the fewest rows of a full batch.
const minBatchRows = 4

// firstBatchRows is the size of the batches read before any is evaluated.
const firstBatchRows = 32

// pace is the workers' measured cost of evaluating a row, a moving
// average, for the reader to size the batches by.
type pace struct {
	nsPerRow atomic.Int64 // 0 until a batch has been evaluated
}

// record adds the time one batch of rows took.
func (p *pace) record(rows int, took time.Duration) {
	if rows == 0 {
		return
	}
	ns := max(int64(took)/int64(rows), 1)
	if old := p.nsPerRow.Load(); old > 0 {
		ns = (3*old + ns) / 4
	}
	p.nsPerRow.Store(ns)
}

// limit is the number of rows of the next batch, at most most.
func (p *pace) limit(most int) int {
	ns := p.nsPerRow.Load()
	if ns == 0 {
		return min(firstBatchRows, most)
	}
	return max(min(int(int64(batchTime)/ns), most), min(minBatchRows, most))
}
