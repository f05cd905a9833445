// Package evaluate turns release rows into attack-risk bounds: it is the
// evaluator a program calls, row by row, and the façade over the row
// machinery below it.
//
// New makes an Evaluator (the options: prior tables, confidence levels, the
// decimal mark, a loader of the tables cells name); Bind matches a table's
// header to the contract's input columns; Binding.Evaluate writes a row's
// status, message, headline and one cell per output column. A bad cell
// never stops evaluation: the row gets status "error" and a message naming
// the column, and the caller goes on with the next row. The rows of one
// dataset compose into a total row (Binding.EvaluateMember,
// Evaluator.EvaluateTotal), and SheetBinding writes the live formulas of
// a workbook.
//
// The machinery lives in packages whose imports only go down
// (docs/layout.md):
//
//   - evaluate/internal/registry: the registry of output columns, one
//     entry per column (its formula, paper, what asks for it and what it
//     requires, how it rounds), which drives the evaluation of every row,
//     the notes on output headers, `riskbatch columns` and the pages of
//     docs/;
//   - evaluate/internal/formula: the spreadsheet formulas of the entries;
//   - evaluate/internal/resolve: a row read into a typed Release (one
//     parameter struct per family of mechanisms, what the row says of the
//     attack) and the bridges from it to the bounds, with the run's caches;
//   - evaluate/release (the input vocabulary and the mechanisms),
//     evaluate/dataset (a dataset's total), evaluate/celldata (the tables
//     cells name), and the pure core: evaluate/curve, evaluate/bound,
//     evaluate/audit, evaluate/poibin, evaluate/numeric.
package evaluate

import (
	"strings"
	"sync"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Status is the outcome of evaluating one row.
type Status string

// Row outcomes.
const (
	StatusOK      Status = "ok"      // every column that applies to the row computed
	StatusPartial Status = "partial" // an input is missing; message says which to add
	StatusError   Status = "error"   // row rejected; message says why
)

// Evaluator evaluates rows with the registered output columns. It is safe
// for concurrent use; its only mutable state is its Resolver's bounded
// caches: of DP-SGD accounting results, of Gaussian ε(δ), of Fano bounds
// over M candidates, and of pmp_data tables and results.
type Evaluator struct {
	rows     *resolve.Resolver // reads rows into Releases
	config   resolve.Config    // what the options set, New reads
	cachesOf *Evaluator        // whose caches to share (WithCachesOf), until New
	// all is the evaluator of every registered column that Select made
	// this one from (nil: this one has them all). A dataset's total is
	// measured with it whatever is selected: dataset_worst_advantage and
	// the goal seek read fdp_worst_advantage and fdp_success.
	all *Evaluator
	// The output columns, in output order, and what New makes of them
	// once: the columns of each mechanism (registry.NewPlans), the
	// headline rule's steps, and the inputs only some mechanisms' columns
	// use.
	outputs   []registry.OutputColumn
	plans     *registry.Plans
	headlines []registry.HeadlineStep
	unused    []registry.UnusedInput
}

// Option configures an Evaluator.
type Option func(*Evaluator)

// WithPriors makes the prior tables available to release rows whose prior
// column names a key; inline priors (uniform(M), zipf(…)) need no table.
func WithPriors(t *priors.Tables) Option { return func(e *Evaluator) { e.config.Priors = t } }

// WithConfidence sets the confidence levels of the one-run success upper
// bound (each in (0, 1)): onerun_successes_ub uses a row's own confidence,
// else the highest level; with several levels there is also one column per
// level, onerun_successes_ub_95 for 0.95.
func WithConfidence(levels ...float64) Option {
	return func(e *Evaluator) { e.config.Confidences = append([]float64(nil), levels...) }
}

// WithDecimalMark settles the decimal mark of the numbers written as text
// in every input (the --decimal-point and --decimal-comma flags): with
// DecimalPoint or DecimalComma, a text in the other convention is an error,
// and no text is ambiguous. DecimalUnknown, the default, leaves it to each
// table (see BindTable and NumberFormat).
func WithDecimalMark(m DecimalMark) Option {
	return func(e *Evaluator) { e.config.Decimal = m }
}

// WithDataLoader lets release rows name table files in cells (pmp_data):
// l opens them. Without a loader, a cell that names a file gets an error,
// and only tables written in the cell itself are used.
func WithDataLoader(l DataLoader) Option { return func(e *Evaluator) { e.config.Data = l } }

// WithCachesOf makes the evaluator share other's caches of results that
// are functions of their parameters alone: DP-SGD accountants (RDP and
// PLD), noise calibrations, Gaussian ε(δ) and Fano bounds. Runs over the
// same rows (the command's tests write one sample in several formats)
// then compute each once, and get the values they would compute
// themselves, bit for bit. The pmp_data cache is not shared: its tables
// are the files of one run.
func WithCachesOf(other *Evaluator) Option { return func(e *Evaluator) { e.cachesOf = other } }

// New returns an evaluator for every registered output column.
func New(opts ...Option) *Evaluator {
	e := &Evaluator{}
	for _, o := range opts {
		o(e)
	}
	e.rows = resolve.NewResolver(e.config)
	if e.cachesOf != nil {
		e.rows.ShareCaches(e.cachesOf.rows)
		e.cachesOf = nil
	}
	e.outputs = registry.OutputColumns(e.rows.Confidences())
	e.plans = registry.NewPlans(e.outputs)
	e.headlines = registry.HeadlineSteps(e.outputs)
	e.unused = registry.UnusedInputs(e.outputs)
	return e
}

// CacheBytes returns about how many bytes the evaluator's caches of DP-SGD
// accountants hold (bounded: about 230 MB), the caches that grow large:
// a run may let the heap grow by as much, rather than collect garbage
// without end while the caches fill its memory limit.
func (e *Evaluator) CacheBytes() int64 { return e.rows.CacheBytes() }

// Vocabulary returns the input vocabulary.
func (e *Evaluator) Vocabulary() *release.Vocabulary { return e.rows.Vocabulary() }

// Outputs returns the registered output columns in output order.
func (e *Evaluator) Outputs() []registry.OutputColumn { return e.outputs }

// HeadWidth is the number of cells the evaluator writes before the output
// columns: status, message, headline and headline_says.
const HeadWidth = 4

// Columns returns the columns the evaluator appends to every row: status,
// message, headline, headline_says, then one per output column, each with
// its note.
func (e *Evaluator) Columns() []table.Column {
	cols := []table.Column{
		{Name: "status", Kind: table.Text, Role: table.Status, Note: StatusNote},
		{Name: "message", Kind: table.Text, Role: table.Message, Note: MessageNote},
		{Name: registry.HeadlineColumn, Kind: table.Number, Role: table.Output, Format: table.Real, Note: registry.HeadlineNote()},
		{Name: registry.HeadlineSaysColumn, Kind: table.Text, Role: table.Output, Note: registry.HeadlineSaysNote},
	}
	for _, o := range e.outputs {
		cols = append(cols, table.Column{Name: o.Name, Kind: table.Number, Role: table.Output, Format: o.Format, Note: o.Note()})
	}
	return cols
}

// StatusNote says what each status means (the status column's note).
const StatusNote = "ok: every bound that applies to the row is computed; " +
	"partial: an input the row could have had is missing, and the bounds that need it are empty (the message says what to add); " +
	"error: the row was rejected (the message says why); " +
	"total: a row riskbatch appends for each dataset, the composition of the dataset's rows (the message says which)"

// MessageNote says what a message holds (the message column's note).
const MessageNote = "what to act on, in one sentence of at most 160 characters, naming the column: the input to add, the cell that was rejected, " +
	"or why a bound that applies is empty. Bounds that do not apply to the row's mechanism, or that the row did not ask for, stay empty without a message (see the Columns sheet)"

// Binding maps the columns of one input table to the contract's inputs.
type Binding struct {
	*Evaluator
	h *resolve.Header // the header bound to the input vocabulary
	// releases holds the Releases Evaluate resolves rows into, so that a
	// row does not allocate one (about 1 KB); Bindings are shared by the
	// goroutines evaluating one table's rows.
	releases sync.Pool
}

// Bind matches a table's header to the input vocabulary. Columns it does
// not know are left alone (they pass through). Two headers naming the same
// input are an error, since riskbatch cannot tell which one the user means.
// It is BindTable for a table whose form suggests no decimal mark.
func (e *Evaluator) Bind(cols []table.Column) (*Binding, error) {
	return e.BindTable(cols, DecimalUnknown)
}

// BindTable is Bind for a table whose form suggests the decimal mark of
// its numbers written as text: DecimalComma for a semicolon-delimited CSV
// file, whose comma cannot be the delimiter and is, in the spreadsheets
// that write such files, the decimal mark. The evaluator's own mark
// (WithDecimalMark) takes precedence and settles it; otherwise the text
// numbers are read in the suggested convention (the decimal point when
// none), with doubt: see NumberFormat.
func (e *Evaluator) BindTable(cols []table.Column, suggested DecimalMark) (*Binding, error) {
	return e.BindSource("", cols, suggested)
}

// BindSource is BindTable for a table read from the file source (its
// path as given): the files its cells name are opened relative to it, by
// the evaluator's DataLoader.
func (e *Evaluator) BindSource(source string, cols []table.Column, suggested DecimalMark) (*Binding, error) {
	h, err := e.rows.BindHeader(cols, suggested, source)
	if err != nil {
		return nil, err
	}
	return &Binding{Evaluator: e, h: h}, nil
}

// Has reports whether the table has a column for the field.
func (b *Binding) Has(f release.Field) bool { return b.h.Has(f) }

// InputColumns returns the columns of the table whose cells Evaluate
// reads, in no particular order: a caller that reads rows a column at a
// time need make cells of these only.
func (b *Binding) InputColumns() []int { return b.h.InputColumns() }

// Width is the number of cells Evaluate writes.
func (e *Evaluator) Width() int { return HeadWidth + len(e.outputs) }

// Evaluate computes the output cells of one row into dst, which must have
// Width() cells: dst[0] is the status, dst[1] the message, dst[2] the
// headline and dst[3] what it says (see Headline), then one cell per output
// column (a number, or empty: see Applies for when and why).
func (b *Binding) Evaluate(cells []table.Cell, dst []table.Cell) Status {
	return b.evaluateThen(cells, rowOut{cells: dst}, nil)
}

// EvaluateNumbers is Evaluate with the output columns' values written as
// numbers, not cells: head (HeadWidth cells) takes the status, the message
// and the headline, and nums (Width() − HeadWidth values) the value of each output column, NaN
// where Evaluate leaves its cell empty (no output column is ever NaN: a
// NaN is reported as a numerical failure). It is for a caller that hands
// each output column on as an array of float64s: a cell is 56 bytes with
// pointers, a value 8 without.
func (b *Binding) EvaluateNumbers(cells []table.Cell, head []table.Cell, nums []float64) Status {
	return b.evaluateThen(cells, rowOut{cells: head, nums: nums}, nil)
}

// Docs returns the column reference as rows (the first is the header): every
// input column, then status, message, headline, headline_says and every
// output column, each output
// with when it applies (Applies.Text). The workbook's Columns sheet and
// `riskbatch columns` are made from it.
func (e *Evaluator) Docs() [][]string {
	rows := [][]string{{"column", "kind", "meaning", "formula", "source", "needs", "assumptions", "applies to", "quote"}}
	for _, c := range e.rows.Vocabulary().Columns() {
		kind, valid := "input", ""
		if c.Text {
			valid = "text"
		} else {
			valid = c.Domain.String()
			if c.Percent {
				valid += ", or a percentage (5% is 0.05)"
			}
		}
		name := c.Name
		if len(c.Aliases) > 0 {
			name += " (also " + strings.Join(c.Aliases, ", ") + ")"
		}
		rows = append(rows, []string{name, kind, c.Meaning, "", "riskbatch contract", valid, "", "", ""})
	}
	for _, c := range e.Columns()[:2] {
		rows = append(rows, []string{c.Name, "output", c.Note, "", "riskbatch", "", "", "every row", ""})
	}
	rows = append(rows,
		[]string{registry.HeadlineColumn, "output (headline)", registry.HeadlineMeaning, registry.HeadlineRule(), "riskbatch, from the columns the rule names", "", "those of the column it quotes", "every row but error rows", "the number to quote for the row: the rule picks it among the answer columns"},
		[]string{registry.HeadlineSaysColumn, "output (headline)", registry.HeadlineSaysNote, "", "riskbatch", "", "", "every row with a headline", ""})
	for _, o := range e.outputs {
		rows = append(rows, []string{o.Name, "output (" + o.Family + ")", o.Meaning, o.Formula, o.Citation, o.Needs, o.Assumes, o.Applies.Text(), o.AnswerText()})
	}
	return rows
}

// String describes a status.
func (s Status) String() string { return string(s) }
