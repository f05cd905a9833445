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
	decimal     DecimalMark // the decimal mark of every input's text numbers, or DecimalUnknown
	rdps        *rdpCache
	epsilons    *epsCache
	pmpData     *pmpCache
	plds        *pldCache
	noise       *noiseCache
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

// WithDecimalMark settles the decimal mark of the numbers written as text
// in every input (the --decimal-point and --decimal-comma flags): with
// DecimalPoint or DecimalComma, a text in the other convention is an error,
// and no text is ambiguous. DecimalUnknown, the default, leaves it to each
// table (see BindTable and NumberFormat).
func WithDecimalMark(m DecimalMark) Option { return func(e *Evaluator) { e.decimal = m } }

// New returns an evaluator for every registered output column.
func New(opts ...Option) *Evaluator {
	e := &Evaluator{vocab: NewVocabulary(), specs: mechanismSpecs(), confidences: []float64{DefaultConfidence}, rdps: &rdpCache{}, epsilons: &epsCache{}, pmpData: &pmpCache{}, plds: &pldCache{}, noise: &noiseCache{}}
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
	bound   []boundField      // the fields the table has, in field order
	numbers NumberFormat      // how the table's text numbers are read (Percent aside)
}

// boundField is what Evaluate needs of an input field the table has, kept
// apart from the vocabulary's descriptions so that a row reads no more
// than it uses.
type boundField struct {
	field   Field
	column  int // index of the field's cell in a row
	text    bool
	percent bool // a probability: "5%" reads as 0.05
	domain  Domain
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
	b := &Binding{Evaluator: e, numbers: NumberFormat{Mark: suggested}}
	if e.decimal != DecimalUnknown {
		b.numbers = NumberFormat{Mark: e.decimal, Settled: true}
	}
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
	for f := Field(0); f < numFields; f++ {
		if i := b.index[f]; i >= 0 {
			col := e.vocab.Column(f)
			b.bound = append(b.bound, boundField{field: f, column: i, text: col.Text, percent: col.Percent, domain: col.Domain})
		}
	}
	return b, nil
}

// format is how the table's text numbers are read in a column that does,
// or does not, take percentages.
func (b *Binding) format(percent bool) NumberFormat {
	f := b.numbers
	f.Percent = percent
	return f
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
	for _, bf := range b.bound {
		f, i := bf.field, bf.column
		if i >= len(cells) || cells[i].IsEmpty() {
			continue
		}
		if bf.text {
			in.text[f] = strings.TrimSpace(cells[i].String())
			in.set[f] = true
			continue
		}
		v, err := cellNumber(cells[i], b.format(bf.percent))
		if err != nil {
			if isLocaleError(err) {
				problems.add("%s: %v", b.name(f), err)
			} else {
				problems.add("%s: %v; expected %s", b.name(f), err, bf.domain)
			}
			continue
		}
		if !bf.domain.Contains(v) {
			problems.add("%s: %s is out of range; expected %s", b.name(f), formatNumber(v), bf.domain)
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
	// The reasons for empty cells and the notes on written ones, in column
	// order; most rows have a few, so they live on the stack.
	var buf [32]mark
	marks := buf[:0]
	for k := range b.outputs {
		o := &b.outputs[k]
		v, s := o.compute(r)
		if s.ok() && (math.IsNaN(v) || math.IsInf(v, 0)) {
			// Never write NaN or ±Inf: report it (tests look for this).
			s = skip{why: whyNumericalFailure}
		}
		if s.ok() {
			dst[2+k] = table.NumberCell(v)
			if s.note != "" {
				marks = append(marks, mark{text: s.note, column: k, note: true})
			}
			continue
		}
		if s.silent {
			continue
		}
		if !s.info {
			status = StatusPartial
		}
		marks = append(marks, mark{text: s.why, column: k})
	}
	dst[0] = table.TextCell(string(status))
	if len(marks) == 0 {
		dst[1] = table.Cell{}
	} else {
		dst[1] = table.TextCell(b.message(marks))
	}
	return status
}

// mark is one output column of a row that has a reason (why it is empty)
// or a note (a warning about its value) in the row's message.
type mark struct {
	text   string
	column int // index in the evaluator's outputs
	note   bool
}

// message writes a row's message from its marks: one part per distinct
// reason, in order of first appearance, naming its columns ("a, b empty:
// why"), then one part per distinct note ("c: note"), joined by "; ".
func (b *Binding) message(marks []mark) string {
	// A mark whose text appeared before is written with its first
	// occurrence. The scans are quadratic in the marks of one row, which
	// are a few dozen at most, and allocate nothing but the message.
	var sb strings.Builder
	sb.Grow(256)
	for _, notes := range [2]bool{false, true} {
		for i := range marks {
			m := &marks[i]
			if m.note != notes || seenBefore(marks, i) {
				continue
			}
			if sb.Len() > 0 {
				sb.WriteString("; ")
			}
			first := true
			for j := i; j < len(marks); j++ {
				if marks[j].note != notes || marks[j].text != m.text {
					continue
				}
				if !first {
					sb.WriteString(", ")
				}
				first = false
				sb.WriteString(b.outputs[marks[j].column].Name)
			}
			if notes {
				sb.WriteString(": ")
			} else {
				sb.WriteString(" empty: ")
			}
			sb.WriteString(m.text)
		}
	}
	return sb.String()
}

// seenBefore reports whether a mark before marks[i], of the same kind
// (reason or note), has the same text.
func seenBefore(marks []mark, i int) bool {
	for j := 0; j < i; j++ {
		if marks[j].note == marks[i].note && marks[j].text == marks[i].text {
			return true
		}
	}
	return false
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
			if c.Percent {
				valid += ", or a percentage (5% is 0.05)"
			}
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
