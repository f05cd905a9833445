// Package pipeline is the pipeline that `riskbatch eval` runs once its flags are
// read: the input tables are read in batches, the batches are evaluated in
// parallel and written in input order, the rows of each dataset are
// composed into a total (two passes over the input, or one over sorted
// groups), and the output gets its Summary and Columns sheets, charts,
// live formulas and shading when it is a workbook.
//
// The command line, the analyst's page and any Go program call the same
// Run, so that their outputs are the same by construction. Run reads no
// flags, prints nothing, and never exits the process: progress is a
// callback, cancellation a context, and what the command prints comes back
// in a Result or an error.
//
// Run touches no process-wide setting unless its caller asks: with
// Options.SetMemoryLimit, a run that writes Parquet sets a soft memory
// limit through it (unless GOMEMLIMIT sets one) and restores the previous
// limit when it returns. A command that runs one evaluation at a time
// (`riskbatch eval`) asks; a server running several at once does not, as
// their limits would be set and restored out of order.
package pipeline

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/writers"
)

// Options are how a run evaluates and writes. The zero value evaluates
// every row with one worker and writes the format the output's name says.
type Options struct {
	// Workers is the number of rows evaluated in parallel; below 1, one.
	Workers int
	// Format is the output format (writers.FormatCSV, …); "" takes it from
	// the output's name.
	Format string
	// ValuesOnly writes values where a workbook would hold live formulas.
	ValuesOnly bool
	// Threshold is the advantage above which a workbook shades the
	// advantage columns red (0 for none; a row's target_advantage takes
	// precedence).
	Threshold float64
	// PassThrough reads and writes every row without evaluating it (status
	// ok, the bounds empty): the baseline of the benchmarks.
	PassThrough bool
	// SortedGroups says that the rows of each dataset are contiguous: the
	// input is read once, and each total is written after its last row
	// (--sorted-groups; a message of Run names the flag).
	SortedGroups bool
	// Reopen opens the input tables again, as they were opened for Run,
	// for the first of the two passes that dataset totals take without
	// SortedGroups; its error is returned as it is (an input that cannot
	// be read twice, such as a pipe, says so). Nil: such an input is an
	// error.
	Reopen func() ([]readers.Table, error)
	// BytesRead is the count of input bytes read that the tables were
	// opened with (readers.Options.BytesRead), reported in Progress; nil
	// for none.
	BytesRead *atomic.Int64
	// Progress, if set, is called after each batch of rows is written,
	// from one goroutine at a time.
	Progress func(Progress)
	// SetMemoryLimit, if set, is how a run that writes Parquet sets its
	// soft memory limit (see parquetMemoryLimit), and how it restores the
	// previous one when it returns: runtime/debug.SetMemoryLimit for a
	// process that runs one evaluation at a time. Nil (the zero value):
	// the run leaves the limit alone. It is not called when GOMEMLIMIT is
	// set.
	SetMemoryLimit func(int64) int64
	// BeforeCommit, if set, is called once every row is written and before
	// the output is closed: an error aborts the output, which is then not
	// written, and is returned as it is.
	BeforeCommit func() error
}

// Progress is how far a run is.
type Progress struct {
	// Rows is the number of rows written, totals included.
	Rows int64
	// BytesRead is Options.BytesRead when the last batch written was read.
	BytesRead int64
}

// Output is where a run writes: a file, replaced only when the run
// succeeds (writers.Create), or an open stream (writers.CreateStream).
type Output struct {
	// Path is the output file (its extension names the format unless
	// Options.Format does).
	Path string
	// Stream, if set, is written instead of a file; Path, if set, then
	// names the format. Run does not close it.
	Stream *os.File
	// Name is how messages name the output; Path when empty.
	Name string
}

func (o Output) name() string {
	if o.Name != "" {
		return o.Name
	}
	return o.Path
}

// Result is what a finished run wrote.
type Result struct {
	// Counts counts the rows written by status: every input row is ok,
	// partial or error, and each dataset total is total.
	Counts Counts
	// DroppedTotals counts the total rows of a previous run that were
	// dropped from the input, as their totals are computed again.
	DroppedTotals int
	// TruncatedCells counts the cells cut to fit a workbook's cells (each
	// ends with writers.TruncatedMarker); FormulasAsValues the input
	// formulas written as their values; NulledCells the cells that a
	// typed output column could not hold and holds as nulls.
	TruncatedCells, FormulasAsValues, NulledCells int64
}

// Counts counts rows by status.
type Counts map[evaluate.Status]int

// Rows is the number of rows of the input: those ok, partial or in error.
func (c Counts) Rows() int {
	return c[evaluate.StatusOK] + c[evaluate.StatusPartial] + c[evaluate.StatusError]
}

// WriteError is an error of the writer of a run's output: it could not
// be opened, take the header, or be closed. It names the output.
type WriteError struct {
	Output string
	Err    error
}

func (e *WriteError) Error() string { return e.Output + ": " + e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// Run evaluates every row of tables with ev and writes them, in order,
// to out, with the columns status, message and the bounds ev computes,
// and a total row per dataset. It returns the counts of the rows written.
// On an error, or when ctx ends (the error is then ctx's), the output is
// not written (a stream keeps what was written). The tables are read once
// (twice for dataset totals, see Options.Reopen); the caller closes them.
func Run(ctx context.Context, ev *evaluate.Evaluator, tables []readers.Table, out Output, opts Options) (Result, error) {
	opts.Workers = max(opts.Workers, 1)
	lay, err := newLayout(ev, tables)
	if err != nil {
		return Result{}, err
	}
	lay.passThrough = opts.PassThrough
	sheet, err := ev.BindSheet(lay.Header())
	if err != nil {
		return Result{}, err
	}
	if lay.groups, err = planGroups(opts, ev, lay, tables); err != nil {
		return Result{}, err
	}
	sum := newSummary(lay.Layout, ev, sheet)
	if lay.groups != nil {
		lay.groups.sum = sum
	}
	wopts := workbookOptions(opts, ev, sheet, sum)
	wopts.Format, wopts.SheetName = opts.Format, resultSheetName(tables)
	var w writers.Writer
	if out.Stream != nil {
		w, err = writers.CreateStream(out.Stream, out.name(), wopts)
	} else {
		w, err = writers.Create(out.Path, wopts)
	}
	if err != nil {
		return Result{}, err
	}
	if err := w.WriteHeader(noteUnknownColumns(newHeaderVocabulary(ev), lay.Header(), lay.Inputs())); err != nil {
		w.Abort()
		return Result{}, &WriteError{Output: out.name(), Err: err}
	}
	read := opts.BytesRead
	if read == nil {
		read = new(atomic.Int64)
	}
	counts, err := lay.stream(ctx, tables, read, w, opts, sum)
	if err != nil {
		w.Abort()
		return Result{Counts: counts}, err
	}
	if opts.BeforeCommit != nil {
		if err := opts.BeforeCommit(); err != nil {
			w.Abort()
			return Result{Counts: counts}, err
		}
	}
	if err := w.Close(); err != nil {
		return Result{Counts: counts}, &WriteError{Output: out.name(), Err: err}
	}
	res := Result{Counts: counts, DroppedTotals: lay.groups.droppedTotals()}
	if tr, ok := w.(writers.TruncationReporter); ok {
		res.TruncatedCells = tr.TruncatedCells()
	}
	if fr, ok := w.(writers.FormulaReporter); ok {
		res.FormulasAsValues = fr.FormulasAsValues()
	}
	if nr, ok := w.(writers.NullReporter); ok {
		res.NulledCells = nr.NulledCells()
	}
	return res, nil
}

// errNoReopen is the error of dataset totals over an input that Options
// gives no way to read again.
var errNoReopen = errors.New("the dataset column needs the input read twice (a dataset's rows are marked with its total before they are written), and the run has no way to open it again (Options.Reopen): pass Options.SortedGroups if each dataset's rows are contiguous")

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

// evalLayout is the output layout of a run, with the run's choice to
// evaluate the rows or only pass them through.
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
