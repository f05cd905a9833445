package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

// The pipeline of a run of eval: a reader cuts the tables into batches, the
// workers evaluate them in parallel, and the writer writes them in the
// order they were read.

// stream reads every table in order, evaluates batches in parallel and
// writes the rows in input order. Memory is bounded by the number of
// batches in flight, not by the number of rows. read counts the bytes read
// from the inputs (readers.Options.BytesRead): progress is told, as each
// batch is written, how much of the inputs had been read for it. The soft
// memory limit is set only through opts.SetMemoryLimit.
func (lay *evalLayout) stream(ctx context.Context, tables []readers.Table, read *atomic.Int64, w writers.Writer, opts Options, sum *summary) (Counts, error) {
	workers, progress := opts.Workers, opts.Progress
	f := &flow{
		ctx:  ctx,
		todo: make(chan *batch, workers),
		done: make(chan *batch, workers),
		// slots bounds the batches in flight (queued, being evaluated,
		// or evaluated and waiting for an earlier one to be written).
		// Without it one slow batch lets the batches after it pile up in
		// pending, as many as the reader can read meanwhile (827 MB on
		// one core for 10⁶ rows).
		slots:   make(chan struct{}, 2*workers+2),
		readErr: make(chan error, 1),
		quit:    make(chan struct{}),
		spare:   make(chan slab, 2*workers+2),
		batches: make(chan *batch, 2*workers+2),
	}
	f.stopReading = sync.OnceFunc(func() { close(f.quit) })
	lay.columns = lay.planColumns(tables, w)
	var limit *memoryLimit // raised as the accountant caches grow
	if _, ok := w.(writers.RowsWriter); ok && opts.SetMemoryLimit != nil && os.Getenv("GOMEMLIMIT") == "" {
		set := opts.SetMemoryLimit
		limit = &memoryLimit{base: streamMemoryLimit(), set: set}
		if lay.ev != nil {
			limit.caches = lay.ev.CacheBytes
		}
		defer set(set(limit.base))
	}
	go lay.readBatches(f, tables, read)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range f.todo {
				start := time.Now()
				lay.evaluate(b, f.cells(lay.Width()*len(b.rows)), k, workers)
				f.pace.record(len(b.rows), time.Since(start))
				limit.follow()
				f.done <- b
			}
		}()
	}
	go func() { wg.Wait(); close(f.done) }()
	return lay.writeInOrder(f, w, progress, sum)
}

// readBatches reads every table in order into batches numbered from 0 and
// sends them to the workers. It closes f.todo when it stops, and reports
// on f.readErr a fatal read error, or nil once every table is read.
func (lay *evalLayout) readBatches(f *flow, tables []readers.Table, read *atomic.Int64) {
	defer close(f.todo)
	seq := 0
	most := batchLimit(lay.Width())
	limit := f.pace.limit(most)
	for ti, t := range tables {
		src := layout.SourceName(t)
		b := f.newBatch(seq, ti, src)
		for {
			if err := lay.readInto(ti, t, b, limit); err != nil {
				if err != io.EOF {
					f.readErr <- err
					return
				}
				break
			}
			if len(b.rows) >= limit || len(b.arrays) > 0 {
				if !f.send(b, read.Load()) {
					return
				}
				seq++
				b = f.newBatch(seq, ti, src)
				limit = f.pace.limit(most)
			}
		}
		if len(b.rows) > 0 {
			if !f.send(b, read.Load()) {
				return
			}
			seq++
		}
	}
	f.readErr <- nil
}

// readInto appends to b the next rows of table ti, but those dropRow
// drops: a run of rows read by columns into an empty batch (see
// columnPlan), or a run of rows, up to limit in all, from a
// readers.RowsReader (whose errors all end the stream: a Parquet file's),
// else one row, with its error when the row can be kept as an error row.
// It returns io.EOF after the last row, and a fatal read error.
func (lay *evalLayout) readInto(ti int, t readers.Table, b *batch, limit int) error {
	start := len(b.rows)
	var err error
	b.columns = lay.columns.of(ti)
	if b.columns.reader != nil {
		return lay.readColumns(b.columns, ti, b, limit) // no row is dropped: there are no dataset groups
	}
	if rr, ok := t.(readers.RowsReader); ok {
		b.rows, err = rr.NextRows(b.rows, limit-start)
		for len(b.errs) < len(b.rows) {
			b.errs = append(b.errs, nil)
		}
	} else {
		var row table.Row
		if row, err = t.Next(); err == nil || (err != io.EOF && !readers.IsFatal(err)) {
			b.rows = append(b.rows, row)
			b.errs = append(b.errs, err)
			err = nil
		}
	}
	n := start
	for i := start; i < len(b.rows); i++ {
		if !lay.groups.dropRow(ti, b.rows[i].Cells) {
			b.rows[n], b.errs[n] = b.rows[i], b.errs[i]
			n++
		}
	}
	b.rows, b.errs = b.rows[:n], b.errs[:n]
	return err
}

// writeInOrder writes the evaluated batches in the order they were read,
// counting the rows by status and adding them to the summary, until the
// workers are done, the context ends, or writing fails.
func (lay *evalLayout) writeInOrder(f *flow, w writers.Writer, progress func(Progress), sum *summary) (Counts, error) {
	counts := Counts{}
	pending := map[int]*batch{}
	next := 0
	written := 0
	var writeErr error
	// The summary is written only into a workbook, the writer that
	// keeps the input's formulas, and into a workbook only do the rows'
	// input cells all come as cells (not arrays, see columnPlan).
	_, summarize := w.(writers.OriginWriter)
	// emit writes a row riskbatch adds: a dataset's total.
	emit := func(cells []table.Cell, st evaluate.Status) error {
		err := w.Write(cells)
		counts[st]++
		sum.add(written, cells, st)
		written++
		return err
	}
collect:
	for {
		var b *batch
		select {
		case <-f.ctx.Done():
			// Do not wait for the reader: it may be blocked on a pipe.
			f.stopReading()
			return counts, f.ctx.Err()
		case nb, ok := <-f.done:
			if !ok {
				break collect
			}
			b = nb
		}
		pending[b.seq] = b
		for {
			nb, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-f.slots
			rw, whole := lay.rowsWriter(w)
			if whole && writeErr == nil {
				if len(nb.arrays) > 0 {
					writeErr = rw.(writers.ColumnsWriter).WriteColumns(nb.out, nb.arrays)
				} else {
					writeErr = rw.WriteRows(nb.out)
				}
				if writeErr != nil {
					f.stopReading()
				}
			}
			for i, cells := range nb.out {
				if !whole && writeErr == nil {
					if writeErr = lay.writeRow(w, nb, i, cells, emit); writeErr != nil {
						f.stopReading()
					}
				}
				counts[nb.status[i]]++
				if summarize {
					sum.add(written, cells, nb.status[i])
				}
				written++
			}
			if progress != nil {
				progress(Progress{Rows: int64(written), BytesRead: nb.read})
			}
			f.recycle(nb)
		}
	}
	if order, ok := errors.AsType[*groupOrderError](writeErr); ok {
		return counts, order
	}
	if writeErr != nil {
		return counts, fmt.Errorf("writing the output: %w", writeErr)
	}
	if f.ctx.Err() != nil {
		return counts, f.ctx.Err()
	}
	select {
	case err := <-f.readErr:
		if err == nil && lay.groups != nil {
			if err = lay.groups.finish(emit); err != nil {
				err = fmt.Errorf("writing the output: %w", err)
			}
		}
		return counts, err
	default:
		return counts, nil // the reader stopped early: only on quit or ctx, handled above
	}
}

// rowsWriter returns w as a writers.RowsWriter, and true, when a batch
// can be written whole: w takes runs of rows, keeps no formulas of the
// input (an OriginWriter), and no dataset totals go between the rows.
func (lay *evalLayout) rowsWriter(w writers.Writer) (writers.RowsWriter, bool) {
	if _, ok := w.(writers.OriginWriter); ok || lay.groups != nil {
		return nil, false
	}
	rw, ok := w.(writers.RowsWriter)
	return rw, ok
}

// writeRow writes output row i of a batch, after the dataset totals that
// go before it, if any (emit writes them).
func (lay *evalLayout) writeRow(w writers.Writer, b *batch, i int, cells []table.Cell, emit emitFunc) error {
	if lay.groups != nil {
		if err := lay.groups.beforeRow(b, i, emit); err != nil {
			return err
		}
	}
	return lay.write(w, b, i, cells)
}

// write writes output row i of a batch, with where its input cells were
// read for a writer that keeps their formulas.
func (lay *evalLayout) write(w writers.Writer, b *batch, i int, cells []table.Cell) error {
	if ow, ok := w.(writers.OriginWriter); ok {
		return ow.WriteFrom(cells, writers.RowOrigin{Row: b.rows[i].Pos.Row, Columns: lay.Origins(b.tableNo)})
	}
	return w.Write(cells)
}

// evaluate fills a batch's output rows into flat, width cells a row,
// whatever its cells held before (see fill: the empty cells after a
// pass-through row's status are left when flat.tailsEmpty says they are
// empty, and the input columns that go to the writer as arrays are not
// written). Worker k
// of workers evaluates the rows in its own order (rowAt); each row's cells
// go to its own place, so the output is the same in any order.
func (lay *evalLayout) evaluate(b *batch, flat slab, k, workers int) {
	width := lay.Width()
	// Every row's output and status is set below.
	b.out = slices.Grow(b.out[:0], len(b.rows))[:len(b.rows)]
	b.status = slices.Grow(b.status[:0], len(b.rows))[:len(b.rows)]
	b.cells = flat.cells
	// Only pass-through rows keep the tails empty.
	b.tailsEmpty = flat.tailsEmpty && lay.passThrough
	if b.columns.numbers {
		n := len(b.rows) * lay.bounds()
		b.nums = slices.Grow(b.nums[:0], n)[:n]
	}
	for j := range b.rows {
		i := rowAt(j, len(b.rows), k, workers)
		out := flat.cells[i*width : (i+1)*width : (i+1)*width]
		var member *evaluate.Member // a sorted run's member, read with the row
		b.status[i], member = lay.fill(b.columns, b, i, out, flat.tailsEmpty)
		if b.errs[i] != nil {
			b.tailsEmpty = false // an error row's message
		}
		if lay.groups != nil {
			lay.groups.mark(b, i, out, b.status[i], member)
		}
		b.out[i] = out
	}
	if b.columns.numbers && len(b.rows) > 0 {
		lay.numberArrays(b)
	}
	if len(b.arrays) > 0 {
		lay.nullTails(b)
	}
}

// rowAt is the row that worker k of workers evaluates j-th in a batch of
// n rows. The rows of a sweep often cycle through a few values that are
// costly to compute once and then cached for the run (DP-SGD's
// accountants, zCDP's curves): when two workers ask for one not yet
// computed at the same time, one computes it and the other waits
// (memo.Cache), and two workers that each start a batch at the beginning
// of such a cycle would take the values one after the other, one worker
// always waiting. So worker k starts at row k·n/workers, and odd workers
// go backward: two workers whose batches begin on the same value (a cycle
// whose length divides k·n/workers) ask first for the two ends of the
// cycle and meet in its middle. Worker 0 goes in input order.
func rowAt(j, n, k, workers int) int {
	start := k * n / max(workers, 1)
	if k%2 == 1 {
		return ((start-1-j)%n + n) % n
	}
	return (start + j) % n
}
