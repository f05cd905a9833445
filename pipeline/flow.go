package pipeline

import (
	"context"

	"github.com/riskbatch/riskbatch/table"
)

// flow is the channels between the reader, the workers and the writer of
// one stream.
type flow struct {
	ctx  context.Context
	todo chan *batch // read, to evaluate
	done chan *batch // evaluated, to write in order
	// slots holds a token for each batch in flight.
	slots chan struct{}
	// readErr gets the reader's result: nil when every table was read.
	readErr chan error
	// quit, closed by stopReading, stops the reader.
	quit        chan struct{}
	stopReading func()
	// spare holds the cell buffers of written batches, for the next
	// batches to reuse: a batch's output is thousands of cells, and
	// allocating (and clearing) a new buffer for each cost about a tenth
	// of the time of a closed-form run.
	spare chan slab
	// batches holds written batches, for the reader to fill again:
	// their rows, errors, output rows and statuses keep their arrays
	// (growing a new batch's rows was a tenth of the bytes a
	// pass-through run allocated).
	batches chan *batch
	// pace sizes the batches (see batchTime).
	pace pace
}

// slab is a buffer of output cells, the rows of a batch one after
// another. tailsEmpty is whether every row of it, over its whole
// capacity, has empty cells after the status column: true of a new one,
// and kept true by a pass-through batch with no error row, which writes
// only the input side and the status. A pass-through row placed in such
// a slab need not clear its hundred-odd bytes of evaluator's cells (an
// output row of the closed-form bench is 70 cells of 56 bytes, and
// clearing them was a sixth of the pass-through's time).
type slab struct {
	cells      []table.Cell
	tailsEmpty bool
}

// cells returns a buffer of n cells, a spare one if one is large enough.
// Its cells are not cleared: the batch's rows overwrite every one, or
// rely on slab.tailsEmpty.
func (f *flow) cells(n int) slab {
	select {
	case s := <-f.spare:
		if cap(s.cells) >= n {
			s.cells = s.cells[:n]
			return s
		}
	default:
	}
	return slab{cells: make([]table.Cell, n), tailsEmpty: true}
}

// recycle keeps a written batch, and its cell buffer, for a later batch.
// The batch must not be used after.
func (f *flow) recycle(b *batch) {
	select {
	case f.spare <- slab{cells: b.cells, tailsEmpty: b.tailsEmpty}:
	default:
	}
	b.cells = nil
	b.run.Release()
	if b.nulls != nil {
		b.nulls.Release()
		b.nulls = nil
	}
	clear(b.arrays)
	b.arrays = b.arrays[:0]
	clear(b.out)
	b.out = b.out[:0]
	select {
	case f.batches <- b:
	default:
	}
}

// newBatch returns an empty batch numbered seq of rows of table tableNo,
// a written one if there is one.
func (f *flow) newBatch(seq, tableNo int, source string) *batch {
	select {
	case b := <-f.batches:
		// Let go of the cells and errors of the rows it held.
		clear(b.rows)
		clear(b.errs)
		*b = batch{seq: seq, tableNo: tableNo, source: source, rows: b.rows[:0], errs: b.errs[:0], out: b.out[:0], status: b.status[:0],
			run: b.run, arrays: b.arrays[:0], nums: b.nums[:0]}
		return b
	default:
	}
	return &batch{seq: seq, tableNo: tableNo, source: source}
}

// send hands a batch to the workers; false when the run stops. read is
// the count of input bytes read so far.
func (f *flow) send(b *batch, read int64) bool {
	b.read = read
	select {
	case f.slots <- struct{}{}:
	case <-f.quit:
		return false
	case <-f.ctx.Done():
		return false
	}
	select {
	case f.todo <- b:
		return true
	case <-f.quit:
	case <-f.ctx.Done():
	}
	return false
}
