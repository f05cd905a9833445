// Package evaluate turns release rows into attack-risk bounds. A single
// registry of output columns (name, formula, citation, inputs, function)
// drives the evaluation of every row, the notes written on output headers
// and the column reference printed by `riskbatch columns`.
//
// A bad cell never stops evaluation: the row gets status "error" and a
// message naming the column, and the caller goes on with the next row.
package evaluate

import (
	"math"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Status is the outcome of evaluating one row.
type Status string

// Row outcomes.
const (
	StatusOK      Status = "ok"      // every column computed
	StatusPartial Status = "partial" // some columns empty; message says why
	StatusError   Status = "error"   // row rejected; message says why
)

// Evaluator evaluates rows with the registered output columns. It is safe
// for concurrent use; its only mutable state is bounded caches: of DP-SGD
// accounting results, of Gaussian ε(δ), and of pmp_data tables and results.
type Evaluator struct {
	vocab       *Vocabulary
	specs       []mechanismSpec
	mechIndex   map[string]int // canonical mechanism name or alias → specs index
	outputs     []OutputColumn
	priors      *priors.Tables
	confidences []float64
	rdps        *rdpCache
	epsilons    *epsCache
	pmpData     *pmpCache
}

// DefaultConfidence is the confidence of the one-run success upper bound
// when none is given.
const DefaultConfidence = 0.95

// Option configures an Evaluator.
type Option func(*Evaluator)

// WithPriors makes the prior tables available to release rows whose prior
// column names a key; inline priors (uniform(M), zipf(…)) need no table.
func WithPriors(t *priors.Tables) Option { return func(e *Evaluator) { e.priors = t } }

// WithConfidence sets the confidence levels of the one-run success upper
// bound (each in (0, 1)): onerun_successes_ub uses a row's own confidence,
// else the highest level; with several levels there is also one column per
// level, onerun_successes_ub_95 for 0.95.
func WithConfidence(levels ...float64) Option {
	return func(e *Evaluator) { e.confidences = append([]float64(nil), levels...) }
}

// New returns an evaluator for every registered output column.
func New(opts ...Option) *Evaluator {
	e := &Evaluator{vocab: NewVocabulary(), specs: mechanismSpecs(), confidences: []float64{DefaultConfidence}, rdps: &rdpCache{}, epsilons: &epsCache{}, pmpData: &pmpCache{}}
	for _, o := range opts {
		o(e)
	}
	e.mechIndex = mechanismIndex(e.specs)
	e.outputs = outputColumns(e.confidences)
	return e
}

// confidence is the default confidence of a row: the highest level.
func (e *Evaluator) confidence() float64 {
	c := e.confidences[0]
	for _, x := range e.confidences[1:] {
		c = max(c, x)
	}
	return c
}

// Vocabulary returns the input vocabulary.
func (e *Evaluator) Vocabulary() *Vocabulary { return e.vocab }

// Outputs returns the registered output columns in output order.
func (e *Evaluator) Outputs() []OutputColumn { return e.outputs }

// Columns returns the columns the evaluator appends to every row: status,
// message, then one per output column, each with its note.
func (e *Evaluator) Columns() []table.Column {
	cols := []table.Column{
		{Name: "status", Kind: table.Text, Role: table.Status, Note: "ok: every bound computed; partial: some bounds empty, reason in message; error: row rejected, reason in message"},
		{Name: "message", Kind: table.Text, Role: table.Message, Note: "why cells are empty or the row was rejected, naming the column at fault"},
	}
	for _, o := range e.outputs {
		cols = append(cols, table.Column{Name: o.Name, Kind: table.Number, Role: table.Output, Format: o.Format, Note: o.Note()})
	}
	return cols
}

// Note is the header note of an output column: meaning, formula, source.
func (o OutputColumn) Note() string {
	return o.Meaning + ".\nFormula: " + o.Formula + ".\nSource: " + o.Citation + ".\nSee the Columns sheet."
}

// Binding maps the columns of one input table to the contract's inputs.
type Binding struct {
	*Evaluator
	index   [numFields]int    // column index of each field, -1 if absent
	headers [numFields]string // the header as the file writes it
}

// Bind matches a table's header to the input vocabulary. Columns it does
// not know are left alone (they pass through). Two headers naming the same
// input are an error, since riskbatch cannot tell which one the user means.
func (e *Evaluator) Bind(cols []table.Column) (*Binding, error) {
	b := &Binding{Evaluator: e}
	for f := range b.index {
		b.index[f] = -1
	}
	for i, c := range cols {
		f, ok := e.vocab.Lookup(c.Name)
		if !ok {
			continue
		}
		if j := b.index[f]; j >= 0 {
			return nil, &DuplicateColumnError{Field: e.vocab.Column(f).Name, First: j, Again: i, FirstName: cols[j].Name, AgainName: c.Name}
		}
		b.index[f] = i
		b.headers[f] = strings.TrimSpace(c.Name)
	}
	return b, nil
}

// Has reports whether the table has a column for the field.
func (b *Binding) Has(f Field) bool { return b.index[f] >= 0 }

// name is how messages refer to a field: the table's own header when it has
// one, the contract's name otherwise.
func (b *Binding) name(f Field) string {
	if b.headers[f] != "" {
		return b.headers[f]
	}
	return b.vocab.Column(f).Name
}

// Width is the number of cells Evaluate writes.
func (e *Evaluator) Width() int { return 2 + len(e.outputs) }

// Evaluate computes the output cells of one row into dst, which must have
// Width() cells: dst[0] is the status, dst[1] the message, then one cell per
// output column (a number, or empty with its reason in the message).
func (b *Binding) Evaluate(cells []table.Cell, dst []table.Cell) Status {
	var in inputs
	var problems rowError
	for f := Field(0); f < numFields; f++ {
		i := b.index[f]
		if i < 0 || i >= len(cells) || cells[i].IsEmpty() {
			continue
		}
		col := b.vocab.Column(f)
		if col.Text {
			in.text[f] = strings.TrimSpace(cells[i].String())
			in.set[f] = true
			continue
		}
		v, err := cellNumber(cells[i])
		if err != nil {
			problems.add("%s: %v; expected %s", b.name(f), err, col.Domain)
			continue
		}
		if !col.Domain.Contains(v) {
			problems.add("%s: %s is out of range; expected %s", b.name(f), formatNumber(v), col.Domain)
			continue
		}
		in.num[f], in.set[f] = v, true
	}
	var r *Release
	if len(problems) == 0 {
		r = b.resolve(&in, &problems)
	}
	for k := 2; k < len(dst); k++ {
		dst[k] = table.Cell{}
	}
	if r == nil {
		dst[0] = table.TextCell(string(StatusError))
		dst[1] = table.TextCell(strings.Join(problems, "; "))
		return StatusError
	}
	status := StatusOK
	var reasons, notes []reason
	for k, o := range b.outputs {
		v, s := o.compute(r)
		if s.ok() && (math.IsNaN(v) || math.IsInf(v, 0)) {
			// Never write NaN or ±Inf: report it (tests look for this).
			s = skip{why: whyNumericalFailure}
		}
		if s.ok() {
			dst[2+k] = table.NumberCell(v)
			if s.note != "" {
				notes = addReason(notes, s.note, o.Name)
			}
			continue
		}
		if s.silent {
			continue
		}
		if !s.info {
			status = StatusPartial
		}
		reasons = addReason(reasons, s.why, o.Name)
	}
	dst[0] = table.TextCell(string(status))
	var parts []string
	for _, r := range reasons {
		parts = append(parts, strings.Join(r.columns, ", ")+" empty: "+r.text)
	}
	for _, n := range notes {
		parts = append(parts, strings.Join(n.columns, ", ")+": "+n.text)
	}
	if len(parts) == 0 {
		dst[1] = table.Cell{}
	} else {
		dst[1] = table.TextCell(strings.Join(parts, "; "))
	}
	return status
}

// reason is one part of a row's message: a text and the columns it is
// about.
type reason struct {
	text    string
	columns []string
}

// addReason adds column to the part with the same text, or a new part.
func addReason(rs []reason, text, column string) []reason {
	for j := range rs {
		if rs[j].text == text {
			rs[j].columns = append(rs[j].columns, column)
			return rs
		}
	}
	return append(rs, reason{text: text, columns: []string{column}})
}

// Docs returns the column reference as rows (the first is the header): every
// input column, then status, message and every output column. The workbook's
// Columns sheet and `riskbatch columns` are made from it.
func (e *Evaluator) Docs() [][]string {
	rows := [][]string{{"column", "kind", "meaning", "formula", "source", "needs", "assumptions"}}
	for _, c := range e.vocab.Columns() {
		kind, valid := "input", ""
		if c.Text {
			valid = "text"
		} else {
			valid = c.Domain.String()
		}
		name := c.Name
		if len(c.Aliases) > 0 {
			name += " (also " + strings.Join(c.Aliases, ", ") + ")"
		}
		rows = append(rows, []string{name, kind, c.Meaning, "", "riskbatch contract", valid, ""})
	}
	for _, c := range e.Columns()[:2] {
		rows = append(rows, []string{c.Name, "output", c.Note, "", "riskbatch", "", ""})
	}
	for _, o := range e.outputs {
		needs := o.Needs
		if o.Request != "" {
			needs += ". Filled only for " + o.Request + "; otherwise empty without a message"
		}
		rows = append(rows, []string{o.Name, "output (" + o.Family + ")", o.Meaning, o.Formula, o.Citation, needs, o.Assumes})
	}
	return rows
}

// String describes a status.
func (s Status) String() string { return string(s) }
