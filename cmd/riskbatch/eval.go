package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/confidence"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

// evalConfig is the parsed command line of `riskbatch eval`.
type evalConfig struct {
	inputs     []string
	output     string
	sheet      string
	priors     []string
	confidence string
	workers    int
	// columns are the --columns selectors; selectCols says the flag was
	// given (an empty list is then a usage error).
	columns     []string
	selectCols  bool
	quiet       bool
	inputFormat string
	format      string
	stderr      io.Writer
	// stdout is where -o - writes.
	stdout io.Writer
	// force lets the output replace a file riskbatch did not write.
	force bool
	// dataDirs are the --data-dir folders: files named in cells may be
	// read there too, besides the input's folder.
	dataDirs []string
	// passThrough reads and writes every row without evaluating it: the
	// I/O baseline of the benchmarks (hidden flag --pass-through).
	passThrough bool
	// valuesOnly writes values where a workbook would hold live formulas.
	valuesOnly bool
	// threshold is --threshold as written: the advantage above which the
	// workbook shades a cell red ("" for none).
	threshold string
	// limits bound what the inputs may make the readers unpack or hold
	// (the --max-* flags).
	limits readers.Limits
	// sortedGroups says that the rows of each dataset group are
	// contiguous (--sorted-groups): one pass, totals after each group.
	sortedGroups bool
	// text is how CSV/TSV text and numbers written as text are read
	// (--encoding, --delimiter, --decimal-comma, --decimal-point).
	text textSettings
}

// sampleOutput is where `riskbatch` with no input writes.
const sampleOutput = "riskbatch-sample.xlsx"

// runEval evaluates every row of every input table and writes the output.
func runEval(cfg evalConfig) error {
	levels, err := confidence.Parse(cfg.confidence)
	if err != nil {
		return cli.Exit("--confidence: "+err.Error(), exitUsage)
	}
	if cfg.workers < 1 {
		cfg.workers = 1
	}
	if len(cfg.inputs) == 0 {
		if cfg.output == "" {
			cfg.output = sampleOutput
		}
	} else if cfg.output == "" {
		cfg.output = defaultOutput(cfg.inputs[0])
	}
	out := outputOf(cfg.output, cfg.stdout)
	var outFiles []string
	if !out.stdout {
		outFiles = []string{cfg.output}
	}
	// Files named in cells are read from the input's folder, or a
	// --data-dir folder, and never the output.
	loader, err := cellfiles.New(cellfiles.Options{Allowed: cfg.dataDirs, Outputs: outFiles, Limits: cfg.limits})
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	ev, reads, err := newEvaluator(cfg, levels, loader)
	if err != nil {
		return err
	}
	if err := refuseOverwrite([]output{out}, reads, cfg.stdout); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if err := refuseForeign(outFiles, cfg.force); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	// read counts the bytes read from the inputs, for the progress bar.
	var read atomic.Int64
	tables, size, err := openTables(cfg, ev, &read)
	defer func() {
		for _, t := range tables {
			t.Close()
		}
	}()
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	noteHeaderRows(cfg.stderr, tables)
	lay, err := newLayout(ev, tables)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	lay.passThrough = cfg.passThrough
	headers := newHeaderVocabulary(ev)
	sources := make([]layout.Source, len(tables))
	for i, t := range tables {
		sources[i] = t
	}
	reportUnknownColumns(cfg.stderr, headers, sources)
	threshold, err := parseThreshold(cfg.threshold)
	if err != nil {
		return cli.Exit("--threshold: "+err.Error(), exitUsage)
	}
	sheet, err := ev.BindSheet(lay.Header())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if lay.groups, err = planGroups(cfg, ev, lay, tables); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	sum := newSummary(lay.Layout, ev, sheet)
	if lay.groups != nil {
		lay.groups.sum = sum
	}
	wopts := workbookOptions(cfg, threshold, ev, sheet, sum)
	wopts.Format, wopts.SheetName = cfg.format, resultSheetName(tables)
	w, done, err := createOutput(cfg, out, wopts)
	if err != nil {
		return err
	}
	defer done()
	if err := w.WriteHeader(noteUnknownColumns(headers, lay.Header(), lay.Inputs())); err != nil {
		w.Abort()
		return cli.Exit(fmt.Sprintf("%s: %v", out.name(), err), exitUsage)
	}
	// Ctrl-C or SIGTERM stops the run: the temporary output is removed and
	// any existing file at the output path is left as it was.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := newProgress(cfg.stderr, cfg.quiet, measureWork(tables, size))
	counts, err := lay.stream(ctx, tables, &read, w, cfg.workers, progress, sum)
	progress.finish()
	if err != nil {
		w.Abort()
		if ctx.Err() != nil {
			return cli.Exit("interrupted: nothing written", exitInterrupted)
		}
		return cli.Exit(err.Error(), exitUsage)
	}
	// A cell that named the output was refused; the output must not
	// replace that file either: the input refers to it.
	if c := loader.OutputNamed(); c != nil {
		w.Abort()
		return cli.Exit(fmt.Sprintf("%s: the output is the file that pmp_data %s names in %s; riskbatch never overwrites a file it reads, choose another -o", c.Output, c.Ref, c.Source), exitUsage)
	}
	if err := w.Close(); err != nil {
		return cli.Exit(fmt.Sprintf("%s: %v", out.name(), err), exitUsage)
	}
	lay.groups.noteDropped(cfg.stderr)
	sample := len(cfg.inputs) == 0
	if !cfg.quiet {
		reportRun(cfg.stderr, counts, w, out.name(), sample)
	}
	// The sample's error rows are there by design, so the demo exits 0; a
	// user's own input with error rows exits 1.
	if counts[evaluate.StatusError] > 0 && !sample {
		return cli.Exit("", exitRowErrors)
	}
	return nil
}

// newEvaluator builds the evaluator of a run (confidence levels, the
// loader of files named in cells, the decimal mark, the --priors tables)
// and lists the files the run reads, which the output must not replace.
func newEvaluator(cfg evalConfig, levels []float64, loader *cellfiles.Loader) (*evaluate.Evaluator, []readFile, error) {
	evOpts := []evaluate.Option{evaluate.WithConfidence(levels...), evaluate.WithDataLoader(loader), evaluate.WithDecimalMark(cfg.text.decimal)}
	var reads []readFile
	for _, in := range cfg.inputs {
		reads = append(reads, readFile{path: in, role: "the input file"})
	}
	if len(cfg.priors) > 0 {
		tables, opened, err := priorfiles.Load(cfg.priors)
		if err != nil {
			return nil, nil, cli.Exit("--priors: "+err.Error(), exitUsage)
		}
		evOpts = append(evOpts, evaluate.WithPriors(tables))
		for _, p := range opened {
			role := "the frequency table read with a --priors table"
			if slices.Contains(cfg.priors, p) {
				role = "the --priors table"
			}
			reads = append(reads, readFile{path: p, role: role})
		}
	}
	ev, err := selectOutputs(evaluate.New(evOpts...), cfg)
	return ev, reads, err
}

// selectOutputs restricts the evaluator to the --columns selection, if
// there is one: a selector that matches no output column is a usage error
// naming the closest names.
func selectOutputs(ev *evaluate.Evaluator, cfg evalConfig) (*evaluate.Evaluator, error) {
	if !cfg.selectCols {
		return ev, nil
	}
	var selectors []string
	for _, s := range cfg.columns {
		if s = strings.TrimSpace(s); s != "" {
			selectors = append(selectors, s)
		}
	}
	if len(selectors) == 0 {
		return nil, usagef("eval", "--columns: no column named; give output columns, patterns such as fdp_*, groups such as onerun or papers such as seed003 (see riskbatch columns)")
	}
	sel, err := ev.Select(selectors...)
	var se *evaluate.SelectError
	if errors.As(err, &se) {
		if f, ok := ev.Vocabulary().Lookup(se.Selectors[0]); ok {
			return nil, usagef("eval", "--columns: %s is an input column; --columns selects the output columns to compute (see riskbatch columns output)", ev.Vocabulary().Column(f).Name)
		}
		var outputs [][]string
		for _, r := range ev.Docs()[1:] {
			if r[1] != "input" {
				outputs = append(outputs, r)
			}
		}
		return nil, unmatchedSelectors("eval", "--columns", "output column", se.Selectors, outputs)
	}
	return sel, err
}

// openTables opens the tables of the inputs, or of the built-in sample
// when there is none, and returns their size in bytes for the progress
// bar (≤ 0: unknown). read counts the bytes read from them. The tables
// returned, even with an error, are the caller's to close.
func openTables(cfg evalConfig, ev *evaluate.Evaluator, read *atomic.Int64) ([]readers.Table, int64, error) {
	known := func(name string) bool { _, ok := ev.Vocabulary().Lookup(name); return ok }
	opts := readers.Options{Format: cfg.inputFormat, Sheet: cfg.sheet, Accept: ev.Vocabulary().Recognizes, Known: known, Limits: cfg.limits, BytesRead: read,
		Encoding: cfg.text.encoding, Delimiter: cfg.text.delimiter}
	if len(cfg.inputs) == 0 {
		wb := samples.Workbook()
		tables, err := readers.OpenReader(samples.WorkbookName, bytes.NewReader(wb), int64(len(wb)), opts)
		if err != nil {
			return nil, 0, err
		}
		return tables, int64(len(wb)), nil
	}
	tables, err := openInputs(cfg, opts, ev.Vocabulary())
	if err != nil {
		return nil, 0, err
	}
	return tables, inputBytes(cfg.inputs), nil
}

// noteHeaderRows says, for a sheet whose header stands below a title or
// group labels, which row was taken, since the rows above it are not read.
func noteHeaderRows(stderr io.Writer, tables []readers.Table) {
	for _, t := range tables {
		if h, ok := t.(readers.HeaderNoter); ok && h.HeaderNote() != "" {
			fmt.Fprintf(stderr, "riskbatch: %s, sheet %s: %s\n", t.File(), t.Sheet(), h.HeaderNote())
		}
	}
}

// resultSheetName names the output's data sheet: the input's sheet when
// there is one table from a sheet, unless riskbatch's own sheets have that
// name; "Results" otherwise.
func resultSheetName(tables []readers.Table) string {
	name := "Results"
	if len(tables) == 1 && tables[0].Sheet() != "" {
		name = tables[0].Sheet()
	}
	for _, own := range []string{writers.SummarySheetName, writers.DocsSheetName, writers.CurvesSheetName} {
		if strings.EqualFold(name, own) {
			name = "Results" // those names belong to riskbatch's own sheets
		}
	}
	return name
}

// createOutput opens the writer of the output: a file, or standard output
// for -o -. done releases standard output; the caller calls it when the
// writer is finished with.
func createOutput(cfg evalConfig, out output, wopts writers.Options) (w writers.Writer, done func() error, err error) {
	if !out.stdout {
		if w, err = writers.Create(cfg.output, wopts); err != nil {
			return nil, nil, cli.Exit(err.Error(), exitUsage)
		}
		return w, func() error { return nil }, nil
	}
	f, done, err := stdoutFile(cfg.stdout)
	if err != nil {
		return nil, nil, cli.Exit(fmt.Sprintf("%s: %v", stdoutName, err), exitUsage)
	}
	if w, err = writers.CreateStream(f, stdoutName, wopts); err != nil {
		done()
		return nil, nil, cli.Exit(err.Error(), exitUsage)
	}
	return w, done, nil
}

// reportRun prints the counts of a finished run and what the writer had to
// change to store the cells (cut, written as values, nulled).
func reportRun(stderr io.Writer, counts statusCounts, w writers.Writer, name string, sample bool) {
	fmt.Fprintf(stderr, "riskbatch: %d rows: %d ok, %d partial, %d error → %s\n",
		counts.total(), counts[evaluate.StatusOK], counts[evaluate.StatusPartial], counts[evaluate.StatusError], name)
	if n := counts[evaluate.StatusTotal]; n > 0 {
		fmt.Fprintf(stderr, "riskbatch: %s appended after the rows (status total)\n", plural(n, "dataset total"))
	}
	if sample {
		fmt.Fprintln(stderr, "riskbatch: this was the built-in sample; its error rows are invalid on purpose, to show how bad cells are reported")
	}
	if tr, ok := w.(writers.TruncationReporter); ok && tr.TruncatedCells() > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d cells longer than %d characters were cut to fit the workbook; each ends with %q\n",
			tr.TruncatedCells(), writers.MaxCellChars, writers.TruncatedMarker)
	}
	if fr, ok := w.(writers.FormulaReporter); ok && fr.FormulasAsValues() > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d input formulas refer to other rows, other sheets or defined names, which are elsewhere in the output: they were written as their values\n", fr.FormulasAsValues())
	}
	if nr, ok := w.(writers.NullReporter); ok && nr.NulledCells() > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d cells could not be stored in their column's type and were written as nulls\n", nr.NulledCells())
	}
}

// defaultOutput names the output of an input: releases.csv → releases-risk.csv.
func defaultOutput(input string) string {
	ext := filepath.Ext(input)
	return strings.TrimSuffix(input, ext) + "-risk" + ext
}

// statusCounts counts rows per status.
type statusCounts map[evaluate.Status]int

func (c statusCounts) total() int {
	return c[evaluate.StatusOK] + c[evaluate.StatusPartial] + c[evaluate.StatusError]
}

// evalLayout is the output layout of a run of eval, with the run's choice
// to evaluate the rows or only pass them through.
type evalLayout struct {
	*layout.Layout
	// passThrough skips evaluation (status ok, outputs empty).
	passThrough bool
	// groups are the input's dataset groups (groups.go); nil for none.
	groups *datasetGroups
}

// newLayout builds the output layout of tables evaluated by ev.
func newLayout(ev *evaluate.Evaluator, tables []readers.Table) (*evalLayout, error) {
	sources := make([]layout.Source, len(tables))
	for i, t := range tables {
		sources[i] = t
	}
	lay, err := layout.New(ev, sources)
	if err != nil {
		return nil, err
	}
	return &evalLayout{Layout: lay}, nil
}

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
	cells   []table.Cell
	members []evaluate.Member // with --sorted-groups: each row's dataset group member
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

// stream reads every table in order, evaluates batches in parallel and
// writes the rows in input order. Memory is bounded by the number of
// batches in flight, not by the number of rows. read counts the bytes read
// from the inputs (readers.Options.BytesRead): the progress bar shows, as
// each batch is written, how much of the inputs had been read for it.
func (lay *evalLayout) stream(ctx context.Context, tables []readers.Table, read *atomic.Int64, w writers.Writer, workers int, progress *progress, sum *summary) (statusCounts, error) {
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
		spare:   make(chan []table.Cell, 2*workers+2),
	}
	f.stopReading = sync.OnceFunc(func() { close(f.quit) })
	go lay.readBatches(f, tables, read)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range f.todo {
				start := time.Now()
				lay.evaluate(b, f.cells(lay.Width()*len(b.rows)))
				f.pace.record(len(b.rows), time.Since(start))
				f.done <- b
			}
		}()
	}
	go func() { wg.Wait(); close(f.done) }()
	return lay.writeInOrder(f, w, progress, sum)
}

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
	spare chan []table.Cell
	// pace sizes the batches (see batchTime).
	pace pace
}

// cells returns a buffer of n cells, a spare one if one is large enough.
// Its cells are not cleared: the batch's rows overwrite every one.
func (f *flow) cells(n int) []table.Cell {
	select {
	case c := <-f.spare:
		if cap(c) >= n {
			return c[:n]
		}
	default:
	}
	return make([]table.Cell, n)
}

// recycle keeps a written batch's cell buffer for a later batch.
func (f *flow) recycle(b *batch) {
	select {
	case f.spare <- b.cells:
	default:
	}
	b.cells, b.out = nil, nil
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
		b := &batch{seq: seq, tableNo: ti, source: src}
		for {
			row, err := t.Next()
			if err == io.EOF {
				break
			}
			if err != nil && readers.IsFatal(err) {
				f.readErr <- err
				return
			}
			if lay.groups.dropRow(ti, row.Cells) {
				continue
			}
			b.rows = append(b.rows, row)
			b.errs = append(b.errs, err)
			if len(b.rows) >= limit {
				if !f.send(b, read.Load()) {
					return
				}
				seq++
				b = &batch{seq: seq, tableNo: ti, source: src}
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

// writeInOrder writes the evaluated batches in the order they were read,
// counting the rows by status and adding them to the summary, until the
// workers are done, the context ends, or writing fails.
func (lay *evalLayout) writeInOrder(f *flow, w writers.Writer, progress *progress, sum *summary) (statusCounts, error) {
	counts := statusCounts{}
	pending := map[int]*batch{}
	next := 0
	written := 0
	var writeErr error
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
			for i, cells := range nb.out {
				if writeErr == nil && lay.groups != nil {
					if writeErr = lay.groups.beforeRow(nb, i, emit); writeErr != nil {
						f.stopReading()
					}
				}
				if writeErr == nil {
					if err := lay.write(w, nb, i, cells); err != nil {
						writeErr = err
						f.stopReading()
					}
				}
				counts[nb.status[i]]++
				sum.add(written, cells, nb.status[i])
				written++
			}
			f.recycle(nb)
			progress.update(int64(written), nb.read)
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

// write writes output row i of a batch, with where its input cells were
// read for a writer that keeps their formulas.
func (lay *evalLayout) write(w writers.Writer, b *batch, i int, cells []table.Cell) error {
	if ow, ok := w.(writers.OriginWriter); ok {
		return ow.WriteFrom(cells, writers.RowOrigin{Row: b.rows[i].Pos.Row, Columns: lay.Origins(b.tableNo)})
	}
	return w.Write(cells)
}

// evaluate fills a batch's output rows into flat, width cells a row,
// whatever its cells held before (each row's are cleared first).
func (lay *evalLayout) evaluate(b *batch, flat []table.Cell) {
	width := lay.Width()
	b.out = make([][]table.Cell, len(b.rows))
	b.status = make([]evaluate.Status, len(b.rows))
	b.cells = flat
	for i, row := range b.rows {
		out := flat[i*width : (i+1)*width : (i+1)*width]
		if lay.passThrough && b.errs[i] == nil {
			lay.Place(b.tableNo, b.source, row.Cells, out)
			out[lay.Inputs()] = table.TextCell(string(evaluate.StatusOK))
			b.status[i] = evaluate.StatusOK
		} else {
			b.status[i] = lay.Row(b.tableNo, b.source, row.Cells, b.errs[i], out)
		}
		if lay.groups != nil {
			lay.groups.mark(b, i, out, b.status[i])
		}
		b.out[i] = out
	}
}
