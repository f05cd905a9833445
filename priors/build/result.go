package build

import (
	"iter"
	"slices"

	"github.com/riskbatch/riskbatch/priors"
)

// Result is what Priors learned: one Entry per key, in the order of the
// attributes (each attribute's marginal, then its conditional entry), then
// windows.
type Result struct {
	Name           string   // the key prefix
	Sources        []string // the tables read: "file" or "file, sheet S"
	Rows           int64    // data rows read (rows of count 0 excluded)
	Records        int64    // records: Rows, or the sum of the counts
	Given          []string // the known columns, as named in the data
	Tolerance      float64
	Smoothing      float64
	MinCellCount   int // 0 when small cells are not flagged
	MissingAsValue bool
	CountColumn    string // empty for raw rows
	Entries        []*Entry
	Notes          []string // how missing values, small cells and smoothing were handled; columns left out

	knownNames []string   // output column names of the known values
	kids       []uint32   // cell of each record (per-record output)
	weights    []int64    // count of each record row (CountColumn only)
	runs       []run      // row numbers of the records
	knownVals  [][]string // known values of each cell
	cellOrder  []int      // cells sorted by known values
}

// run is a stretch of records from consecutive rows of one source.
type run struct {
	src, row, start, n int
}

// Entry is one prior: an attribute's marginal (Given empty) or its
// conditional distribution given the known columns, for exact match or a
// window.
type Entry struct {
	Key         string
	Target      []string // the attribute column(s)
	Given       []string // the known columns; empty for a marginal
	Window      bool     // approximate reconstruction within Tolerance
	Tolerance   float64
	Records     int64   // targets: records whose attribute is present
	Missing     int64   // records left out: attribute missing
	Support     int     // distinct values of the attribute
	EntropyBits float64 // H(U), or H(U | K) = Σ_k (n_k/N) H(U | K = k)
	// Baseline is the attacker's a-priori success: max_u P(u) for a
	// marginal; the population baseline, the mean of p_i over the records
	// Σ_k n_k p_k / N, for a conditional entry.
	Baseline         float64
	MaxP             float64 // the largest p_i (the single-target baseline)
	BestGuess        string  // the marginal's Bayes-optimal guess ("z ± E" for a window)
	Cells            int     // cells of known values with records
	SmallCells       int     // cells with fewer than MinCellCount records
	SmallCellRecords int64   // records in those cells
	Smoothed         bool    // additive smoothing was applied
	Zipf             *priors.ZipfFit
	Warnings         []string

	res      *Result
	marginal []Frequency
	cond     *condResult
}

// Conditional reports whether the entry has one p_i per record.
func (e *Entry) Conditional() bool { return e.cond != nil }

// Frequencies returns the marginal distribution of a marginal entry (by
// decreasing count for exact match, by increasing value for a window), or
// nil for a conditional entry.
func (e *Entry) Frequencies() []Frequency { return slices.Clone(e.marginal) }

// CellDistribution is the distribution of an attribute in one cell of
// known values.
type CellDistribution struct {
	Known   []string // the known values, in the order of Result.Given ("" for missing)
	Records int64    // n_k
	Best    string   // the Bayes-optimal guess
	P       float64  // p_k, the prior of every record of the cell
	Values  []Frequency
}

// CellDistributions returns the distributions of a conditional entry's cells, sorted
// by known values. Values lists the observed values (with smoothing, the
// other values of the support have probability α/(n_k + α·m)). Known and
// Values must not be modified.
func (e *Entry) CellDistributions() iter.Seq[CellDistribution] {
	return func(yield func(CellDistribution) bool) {
		if e.cond == nil {
			return
		}
		cr := e.cond
		for _, k := range e.res.cellOrder {
			if cr.cellN[k] == 0 {
				continue
			}
			d := CellDistribution{
				Known:   e.res.knownVals[k],
				Records: cr.cellN[k],
				Best:    cr.cellBest[k],
				P:       cr.cellP[k],
				Values:  cr.flat[cr.off[k]:cr.off[k+1]],
			}
			if !yield(d) {
				return
			}
		}
	}
}

// RecordPrior is one row of the prior table: a target record's p_i, or a
// marginal's single row standing for all its targets.
type RecordPrior struct {
	Source      string   // the record's table ("" for a marginal)
	Row         int      // the record's row (0 for a marginal)
	Targets     int64    // records the row stands for (the row's count, or all the marginal's targets)
	P           float64  // p_i
	Known       []string // the record's known values (nil for a marginal)
	Best        string   // the Bayes-optimal guess for the record
	CellRecords int64    // records in the record's cell (the marginal's records)
	Warning     string   // a small-cell warning, or ""
}

// PriorRows returns the prior-table rows of the entry: one row per target
// record, in data order, for a conditional entry (records whose attribute
// is missing are not targets); one row for a marginal, whose Targets is
// the number of records and P the baseline (every target has the same
// prior). Known must not be modified.
func (e *Entry) PriorRows() iter.Seq[RecordPrior] {
	return func(yield func(RecordPrior) bool) {
		if e.Records == 0 {
			return
		}
		if e.cond == nil {
			yield(RecordPrior{Targets: e.Records, P: e.Baseline, Best: e.BestGuess, CellRecords: e.Records})
			return
		}
		r, cr := e.res, e.cond
		rec := 0
		for _, ru := range r.runs {
			src := r.Sources[ru.src]
			for j := 0; j < ru.n; j, rec = j+1, rec+1 {
				if cr.miss.has(rec) {
					continue
				}
				k := r.kids[rec]
				w := int64(1)
				if r.weights != nil {
					w = r.weights[rec]
				}
				if !yield(RecordPrior{
					Source: src, Row: ru.row + j, Targets: w, P: cr.cellP[k],
					Known: r.knownVals[k], Best: cr.cellBest[k], CellRecords: cr.cellN[k],
					Warning: cr.warn[k],
				}) {
					return
				}
			}
		}
	}
}

// Entry returns the entry of a key (exact match), or nil.
func (r *Result) Entry(key string) *Entry {
	for _, e := range r.Entries {
		if e.Key == key {
			return e
		}
	}
	return nil
}
