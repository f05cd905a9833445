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
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/cellfiles/cellreaders"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/confidence"
	"github.com/riskbatch/riskbatch/pipeline"
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
	// setMemoryLimit is how a run writing Parquet sets the process's soft
	// memory limit (pipeline.Options.SetMemoryLimit): debug.SetMemoryLimit
	// for the commands that run one evaluation per process (eval, the
	// sample); nil under riskbatch serve, whose evaluations run at once.
	setMemoryLimit func(int64) int64
	// progress, when not nil, is told how far the run is after each batch
	// of rows is written: the rows written, the input bytes read and the
	// inputs' size in bytes (≤ 0 when not known).
	progress func(rows, read, size int64)
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
	for _, line := range pipeline.UnknownColumns(ev, tables) {
		fmt.Fprintln(cfg.stderr, "riskbatch: "+line)
	}
	threshold, err := parseThreshold(cfg.threshold)
	if err != nil {
		return cli.Exit("--threshold: "+err.Error(), exitUsage)
	}
	target := pipeline.Output{Path: cfg.output}
	if out.stdout {
		f, done, err := stdoutFile(cfg.stdout)
		if err != nil {
			return cli.Exit(fmt.Sprintf("%s: %v", stdoutName, err), exitUsage)
		}
		defer done()
		target = pipeline.Output{Stream: f, Name: stdoutName}
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
	res, err := pipeline.Run(ctx, ev, tables, target, pipeline.Options{
		Workers:      cfg.workers,
		Format:       cfg.format,
		ValuesOnly:   cfg.valuesOnly,
		Threshold:    threshold,
		PassThrough:  cfg.passThrough,
		SortedGroups: cfg.sortedGroups,
		Reopen:       func() ([]readers.Table, error) { return reopenTables(cfg, ev) },
		BytesRead:    &read,
		Progress: func(p pipeline.Progress) {
			progress.update(p.Rows, p.BytesRead)
			if cfg.progress != nil {
				cfg.progress(p.Rows, p.BytesRead, size)
			}
		},
		SetMemoryLimit: cfg.setMemoryLimit,
		// A cell that named the output was refused; the output must not
		// replace that file either: the input refers to it.
		BeforeCommit: func() error {
			if c := loader.OutputNamed(); c != nil {
				return fmt.Errorf("%s: the output is the file that pmp_data %s names in %s; riskbatch never overwrites a file it reads, choose another -o", c.Output, c.Ref, c.Source)
			}
			return nil
		},
	})
	progress.finish()
	if err != nil {
		if ctx.Err() != nil {
			return cli.Exit("interrupted: nothing written", exitInterrupted)
		}
		return cli.Exit(err.Error(), exitUsage)
	}
	if n := res.DroppedTotals; n > 0 {
		fmt.Fprintf(cfg.stderr, "riskbatch: %s of a previous run (status total) dropped from the input and computed again from the rows\n", plural(n, "total row"))
	}
	sample := len(cfg.inputs) == 0
	if !cfg.quiet {
		reportRun(cfg.stderr, res, out.name(), sample)
	}
	// The sample's error rows are there by design, so the demo exits 0; a
	// user's own input with error rows exits 1.
	if res.Counts[evaluate.StatusError] > 0 && !sample {
		return cli.Exit("", exitRowErrors)
	}
	return nil
}

// reopenTables opens the inputs a second time, for the first pass of the
// dataset totals, which needs every input to be a file that can be read
// again; its notes on stderr were given the first time.
func reopenTables(cfg evalConfig, ev *evaluate.Evaluator) ([]readers.Table, error) {
	for _, in := range cfg.inputs {
		if st, err := os.Stat(in); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: the dataset column needs the input read twice (a dataset's rows are marked with its total before they are written), and this input is not a file that can be read again: save it to a file, or pass --sorted-groups if each dataset's rows are contiguous", inputName(in))
		}
	}
	quiet := cfg
	quiet.stderr = io.Discard
	var read atomic.Int64
	tables, _, err := openTables(quiet, ev, &read)
	return tables, err
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

// reportRun prints the counts of a finished run and what the writer had to
// change to store the cells (cut, written as values, nulled).
func reportRun(stderr io.Writer, res pipeline.Result, name string, sample bool) {
	counts := res.Counts
	fmt.Fprintf(stderr, "riskbatch: %d rows: %d ok, %d partial, %d error → %s\n",
		counts.Rows(), counts[evaluate.StatusOK], counts[evaluate.StatusPartial], counts[evaluate.StatusError], name)
	if n := counts[evaluate.StatusTotal]; n > 0 {
		fmt.Fprintf(stderr, "riskbatch: %s appended after the rows (status total)\n", plural(n, "dataset total"))
	}
	if sample {
		fmt.Fprintln(stderr, "riskbatch: this was the built-in sample; its error rows are invalid on purpose, to show how bad cells are reported")
	}
	if res.TruncatedCells > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d cells longer than %d characters were cut to fit the workbook; each ends with %q\n",
			res.TruncatedCells, writers.MaxCellChars, writers.TruncatedMarker)
	}
	if res.FormulasAsValues > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d input formulas refer to other rows, other sheets or defined names, which are elsewhere in the output: they were written as their values\n", res.FormulasAsValues)
	}
	if res.NulledCells > 0 {
		fmt.Fprintf(stderr, "riskbatch: %d cells could not be stored in their column's type and were written as nulls\n", res.NulledCells)
	}
}

// plural writes a count of things: "1 dataset total", "2 dataset totals".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// parseThreshold reads --threshold: a probability in (0, 1], as a number or
// a percentage; empty means none.
func parseThreshold(s string) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	v, err := evaluate.ParseNumber(s)
	if err != nil || !(v > 0 && v <= 1) {
		return 0, fmt.Errorf("%q is not a probability; expected a number in (0, 1] such as 0.1 or 10%%", s)
	}
	return v, nil
}
