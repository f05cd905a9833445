package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/cellfiles/cellreaders"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/confidence"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/samples"
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
	// stdin is the input named "-".
	stdin io.Reader
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
	// evalOptions are added to the evaluator's options (runWith).
	evalOptions []evaluate.Option
	// ctx, when not nil, stops the run when it is done (riskbatch serve:
	// the request's context); Ctrl-C and SIGTERM stop it too.
	ctx context.Context
	// cellFiles, when not nil, wraps the loader of files named in cells
	// (riskbatch serve: only the request's uploads may be named).
	cellFiles func(*cellfiles.Loader) evaluate.DataLoader
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
	if err := checkStdinInputs("eval", cfg.stdin, cfg.inputs, cfg.priors, cfg.output); err != nil {
		return err
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
	loader, err := cellfiles.New(cellfiles.Options{Allowed: cfg.dataDirs, Outputs: outFiles, Read: cellreaders.Read(cfg.limits)})
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	var data evaluate.DataLoader = loader
	if cfg.cellFiles != nil {
		data = cfg.cellFiles(loader)
	}
	ev, reads, err := newEvaluator(cfg, levels, data)
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
	defer closeTables(tables)
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
	parent := cfg.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
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
func newEvaluator(cfg evalConfig, levels []float64, loader evaluate.DataLoader) (*evaluate.Evaluator, []readFile, error) {
	evOpts := []evaluate.Option{evaluate.WithConfidence(levels...), evaluate.WithDataLoader(loader), evaluate.WithDecimalMark(cfg.text.decimal)}
	var reads []readFile
	for _, in := range cfg.inputs {
		if in != readers.StdinPath {
			reads = append(reads, readFile{path: in, role: "the input file"})
		}
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
	evOpts = append(evOpts, cfg.evalOptions...)
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
		Encoding: cfg.text.encoding, Delimiter: cfg.text.delimiter, Stdin: cfg.stdin}
	// Parquet types its columns: a sheet's columns get the kinds of their
	// cells (one more pass over each sheet), the other outputs type cells.
	if f, err := writers.FormatOf(cfg.output, cfg.format); err == nil && f == writers.FormatParquet {
		opts.ColumnKinds = true
	}
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

// closeTables closes every table of an input; a read that got as far as
// closing has had its errors already.
func closeTables(tables []readers.Table) {
	for _, t := range tables {
		t.Close()
	}
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
	// columns is how the columns of each table travel in a stream:
	// set by stream (see planColumns).
	columns *columnPlan
	// ev is the evaluator the layout was built for.
	ev *evaluate.Evaluator
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
	return &evalLayout{Layout: lay, ev: ev}, nil
}
