package resolve

import (
	"strings"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/evaluate/number"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// DefaultConfidence is the confidence of the one-run success upper bound
// when none is given.
const DefaultConfidence = 0.95

// Config is what a Resolver reads rows with beyond the rows themselves.
type Config struct {
	// Priors are the prior tables that rows name by key (nil: none).
	Priors *priors.Tables
	// Confidences are the levels of the one-run success upper bound, each
	// in (0, 1); empty means DefaultConfidence alone.
	Confidences []float64
	// Decimal is the decimal mark of every input's text numbers, or
	// DecimalUnknown to leave it to each table.
	Decimal number.DecimalMark
	// Data opens the tables that cells name (nil: none is opened).
	Data celldata.Loader
}

// Resolver reads rows into Releases: the input vocabulary and mechanisms,
// the configuration, and the run's caches (bounded) of results that are
// functions of their parameters alone. It is safe for concurrent use.
type Resolver struct {
	vocab       *release.Vocabulary
	specs       []release.MechanismSpec
	mechIndex   map[string]int // canonical mechanism name or alias → specs index
	priors      *priors.Tables
	confidences []float64
	decimal     number.DecimalMark
	rdps        *rdpCache
	epsilons    *epsCache
	pmpData     *celldata.Cache
	plds        *pldCache
	noise       *noiseCache
	fanos       *fanoCache
	data        celldata.Loader
}

// NewResolver returns a Resolver with its own caches.
func NewResolver(c Config) *Resolver {
	r := &Resolver{
		vocab: release.NewVocabulary(), specs: release.MechanismSpecs(),
		priors: c.Priors, confidences: []float64{DefaultConfidence}, decimal: c.Decimal, data: c.Data,
		rdps: newRDPCache(), epsilons: NewEpsCache(), pmpData: celldata.NewCache(), plds: NewPLDCache(), noise: newNoiseCache(), fanos: newFanoCache(),
	}
	if len(c.Confidences) > 0 {
		r.confidences = append([]float64(nil), c.Confidences...)
	}
	r.mechIndex = release.MechanismIndex(r.specs)
	return r
}

// ShareCaches makes r use other's caches of results that are functions of
// their parameters alone: DP-SGD accountants (RDP and PLD), noise
// calibrations, Gaussian ε(δ) and Fano bounds. The pmp_data cache is not
// shared: its tables are the files of one run.
func (r *Resolver) ShareCaches(other *Resolver) {
	r.rdps, r.epsilons, r.plds, r.noise, r.fanos = other.rdps, other.epsilons, other.plds, other.noise, other.fanos
}

// CacheBytes returns about how many bytes the caches of DP-SGD accountants
// hold (bounded: about 230 MB), the caches that grow large.
func (r *Resolver) CacheBytes() int64 { return r.plds.bytes() }

// Vocabulary returns the input vocabulary.
func (r *Resolver) Vocabulary() *release.Vocabulary { return r.vocab }

// LookupMechanism returns the mechanism a name (or alias) names.
func (r *Resolver) LookupMechanism(name string) (*release.MechanismSpec, error) {
	return release.LookupMechanism(r.specs, r.mechIndex, name)
}

// Confidences returns the levels of the one-run success upper bound.
func (r *Resolver) Confidences() []float64 { return r.confidences }

// Confidence is the default confidence of a row: the highest level.
func (r *Resolver) Confidence() float64 {
	c := r.confidences[0]
	for _, x := range r.confidences[1:] {
		c = max(c, x)
	}
	return c
}

// Header is the header of one input table bound to the input vocabulary:
// the column of each input, how the table's text numbers are read, and the
// file it comes from. Rows of the table are read through it.
type Header struct {
	*Resolver
	index   [release.NumFields]int    // column index of each field, -1 if absent
	headers [release.NumFields]string // the header as the file writes it
	bound   []boundField              // the fields the table has, in field order
	// source is the file the table was read from: files its cells name
	// are found relative to it.
	source  string
	numbers number.Format // how the table's text numbers are read (Percent aside)
	// countHeader is the header of a column named n, which passes through
	// (a common header for counts); a dpsgd row that lacks dataset_size
	// is told it is not read as that.
	countHeader string
}

// boundField is what reading a row needs of an input field the table has,
// kept apart from the vocabulary's descriptions so that a row reads no
// more than it uses.
type boundField struct {
	field   release.Field
	column  int // index of the field's cell in a row
	text    bool
	percent bool // a probability: "5%" reads as 0.05
	domain  release.Domain
	// param marks a mechanism's parameter: a column that defines one,
	// or sensitivity, delta, compositions or calibration. A row may fill
	// only those its mechanism uses (checkColumns).
	param bool
}

// BindHeader matches a table's header to the input vocabulary. Columns it
// does not know are left alone (they pass through). Two headers naming the
// same input are an error, since riskbatch cannot tell which one the user
// means. suggested is the decimal mark the table's form suggests
// (DecimalComma for a semicolon-delimited file); the Resolver's own mark,
// if any, settles it. source is the file the table comes from ("" for
// none): files its cells name are opened relative to it.
func (r *Resolver) BindHeader(cols []table.Column, suggested number.DecimalMark, source string) (*Header, error) {
	h := &Header{Resolver: r, numbers: number.Format{Mark: suggested}, source: source}
	if r.decimal != number.DecimalUnknown {
		h.numbers = number.Format{Mark: r.decimal, Settled: true}
	}
	for f := range h.index {
		h.index[f] = -1
	}
	for i, c := range cols {
		f, ok := r.vocab.Lookup(c.Name)
		if !ok {
			if release.CanonicalName(c.Name) == "n" && h.countHeader == "" {
				h.countHeader = strings.TrimSpace(c.Name)
			}
			continue
		}
		if j := h.index[f]; j >= 0 {
			return nil, &release.DuplicateColumnError{Field: r.vocab.Column(f).Name, First: j, Again: i, FirstName: cols[j].Name, AgainName: c.Name}
		}
		h.index[f] = i
		h.headers[f] = strings.TrimSpace(c.Name)
	}
	for f := release.Field(0); f < release.NumFields; f++ {
		if i := h.index[f]; i >= 0 {
			col := r.vocab.Column(f)
			param := col.Defines || f == release.FieldSensitivity || f == release.FieldDelta || f == release.FieldCompositions || f == release.FieldCalibration
			h.bound = append(h.bound, boundField{field: f, column: i, text: col.Text, percent: col.Percent, domain: col.Domain, param: param})
		}
	}
	return h, nil
}

// format is how the table's text numbers are read in a column that does,
// or does not, take percentages.
func (h *Header) format(percent bool) number.Format {
	f := h.numbers
	f.Percent = percent
	return f
}

// Has reports whether the table has a column for the field.
func (h *Header) Has(f release.Field) bool { return h.index[f] >= 0 }

// Column returns the index of the field's column, or -1 if the table has
// none.
func (h *Header) Column(f release.Field) int { return h.index[f] }

// Name is how messages refer to a field: the table's own header when it
// has one, the contract's name otherwise.
func (h *Header) Name(f release.Field) string {
	if h.headers[f] != "" {
		return h.headers[f]
	}
	return h.vocab.Column(f).Name
}

// InputColumns returns the columns of the table whose cells a row's
// reading reads, in no particular order: a caller that reads rows a column
// at a time need make cells of these only.
func (h *Header) InputColumns() []int {
	cols := make([]int, len(h.bound))
	for i, bf := range h.bound {
		cols[i] = bf.column
	}
	return cols
}

// ReadCells reads the row's cells of the table's input columns: a text as
// it is, a number by the table's number format and within its column's
// domain, into in, which must be zero (the inputs of a row are over a
// kilobyte: filled in place, not returned). A cell that is neither is a
// problem of the row.
func (h *Header) ReadCells(cells []table.Cell, in *Inputs) RowError {
	var problems RowError
	for _, bf := range h.bound {
		f, i := bf.field, bf.column
		if i >= len(cells) || cells[i].IsEmpty() {
			continue
		}
		if bf.text {
			in.Text[f] = strings.TrimSpace(cells[i].String())
			in.Set[f] = true
			continue
		}
		v, err := cellNumber(cells[i], h.format(bf.percent))
		if err != nil {
			if number.IsLocaleError(err) {
				problems.AddErr(h.Name(f), cells[i].String(), err)
			} else if msg := err.Error(); utf8.RuneCountInString(msg) > 60 {
				// A long cell: quote its start, not all of it.
				problems.Add(h.Name(f), cells[i].String(), "%s is not a number; expected %s", release.QuoteClipped(cells[i].String()), bf.domain)
			} else {
				problems.Add(h.Name(f), cells[i].String(), "%s; expected %s", msg, bf.domain)
			}
			continue
		}
		if !bf.domain.Contains(v) {
			problems.Add(h.Name(f), FormatNumber(v), "%s is out of range; expected %s", FormatNumber(v), bf.domain)
			continue
		}
		in.Num[f], in.Set[f] = v, true
	}
	return problems
}

// ParseInputs reads a row's input cells as ReadCells does; false when a
// cell is not a valid number (such a row is an error row anyway).
func (h *Header) ParseInputs(cells []table.Cell) (Inputs, bool) {
	var in Inputs
	ok := len(h.ReadCells(cells, &in)) == 0
	return in, ok
}
