package build

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/words"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Defaults of Options.
const (
	// DefaultMaxCategories is the most distinct values a column may have
	// to be an attribute by default (Options.MaxCategories = 0).
	DefaultMaxCategories = 50
	// DefaultMinCellCount is the number of records below which a cell of
	// known values is flagged (Options.MinCellCount = 0).
	DefaultMinCellCount = 5
)

// Options choose the attributes, the known columns and the small-count
// handling of Priors. Column names are matched exactly, else ignoring case.
type Options struct {
	// Name prefixes every key ("penguins" in "penguins:Sex"). Empty: the
	// first table's file name without directory and extension, or "data".
	Name string
	// Columns are the attributes reconstructed by exact match, each on its
	// own. Empty: every column (but CountColumn) with at most MaxCategories
	// distinct non-empty values; a column is dropped, its counts freed, as
	// soon as it passes that number.
	Columns []string
	// Joint lists attributes of several columns reconstructed together:
	// the guess is right only when every column is (max-product over the
	// joint distribution, Swanberg et al. 2025).
	Joint [][]string
	// MaxCategories bounds the default attributes (0: DefaultMaxCategories;
	// negative: no bound). Named columns are never bounded.
	MaxCategories int
	// Given are the columns the attacker knows; with them every attribute
	// not among them also gets a conditional prior, one p_i per record.
	Given []string
	// Ordinal are numeric columns reconstructed approximately: a guess z
	// succeeds when |x − z| ≤ Tolerance (BestWindow). Their cells must be
	// numbers, or text that reads as one.
	Ordinal []string
	// Tolerance is E, the L1 tolerance of the Ordinal columns (≥ 0).
	Tolerance float64
	// CountColumn names a column of counts for pre-aggregated input: each
	// row stands for that many records (a whole number ≥ 0; rows of 0 are
	// skipped). Empty: every row is one record.
	CountColumn string
	// MinCellCount flags cells of known values with fewer records
	// (0: DefaultMinCellCount; negative: no flag).
	MinCellCount int
	// Smoothing is the additive (Laplace) smoothing α of exact-match
	// attributes: P(u | k) = (count(k, u) + α)/(n_k + α·m) over the m
	// observed values of the attribute (0: none). It lowers the largest
	// probability, so smoothed p_i are not safe upper bounds (Swanberg et al. 2025
	// item 6); the output says so. Windows are never smoothed.
	Smoothing float64
	// MissingAsValue makes an empty cell of an exact-match attribute a
	// value of its own instead of leaving the record out of that attribute.
	// (A window attribute always leaves out records without a number.)
	MissingAsValue bool
	// ZipfDomain states the domain size N of the Zipf fit of an
	// exact-match attribute (keyed by its name: the column, or the joint's
	// columns separated by ","): a whole number ≥ its observed values, or
	// +Inf. Attributes not listed use the observed number of values.
	ZipfDomain map[string]float64
}

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

// Priors reads every row of the tables once, in order, and returns the
// priors they imply (see the package documentation and Options).
// The tables are read to their end but not closed. Every table must have
// the columns used (matched by name); the first table's header decides the
// default attributes. A row the reader cannot decode, a count that is not
// a whole number ≥ 0, or a cell of an Ordinal column that is not a number
// stops the build with an error naming its position (*table.Error).
func Priors(tables []priors.Rows, opts Options) (*Result, error) {
	if len(tables) == 0 {
		return nil, errors.New("priors: no data tables to build priors from")
	}
	b, err := newBuilder(tables, opts)
	if err != nil {
		return nil, err
	}
	for ti, t := range tables {
		if err := b.mapTable(ti, t); err != nil {
			return nil, err
		}
		for {
			row, err := t.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if err := b.add(ti, row); err != nil {
				return nil, err
			}
		}
	}
	return b.finish()
}

// column is a data column the builder reads.
type column struct {
	name      string
	idx       []int     // index in each table
	in        *interner // values, for exact-match use; nil when not needed
	keepEmpty bool      // an empty cell gets the id of "" (known columns, MissingAsValue)
	autoOnly  bool      // interned only for a default attribute
	vid       uint32    // this row's value id (noID or the "" id when empty)
	present   bool      // this row's cell is not empty
}

// knownCells numbers the combinations of known values (cells).
type knownCells struct {
	cols  []int     // builder column indexes of the known columns
	in    *interner // tuple of value ids → cell id
	parts []uint32  // cell id → value ids, len(cols) each
}

func (k *knownCells) count() int { return len(k.in.vals) }

// builder is the state of Priors.
type builder struct {
	opts     Options
	res      *Result
	tables   []priors.Rows
	header   []string // the first table's column names
	cols     []*column
	cats     []*catTarget
	wins     []*winTarget
	order    []any // cats and wins in output order
	known    *knownCells
	countCol int // builder column index, or -1
	maxCat   int
	dropped  []string // notes on default attributes dropped
	buf      []byte
	tuple    []byte
}

// newBuilder validates the options and resolves the columns against the
// first table's header.
func newBuilder(tables []priors.Rows, opts Options) (*builder, error) {
	if math.IsNaN(opts.Tolerance) || math.IsInf(opts.Tolerance, 0) || opts.Tolerance < 0 {
		return nil, fmt.Errorf("priors: the tolerance E must be a finite number ≥ 0, not %v", opts.Tolerance)
	}
	if math.IsNaN(opts.Smoothing) || math.IsInf(opts.Smoothing, 0) || opts.Smoothing < 0 {
		return nil, fmt.Errorf("priors: the smoothing α must be a finite number ≥ 0, not %v", opts.Smoothing)
	}
	if opts.Name == "" {
		base := filepath.Base(tables[0].File())
		opts.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if opts.Name == "" || opts.Name == "." || opts.Name == string(filepath.Separator) {
			opts.Name = "data"
		}
	}
	maxCat := opts.MaxCategories
	switch {
	case maxCat == 0:
		maxCat = DefaultMaxCategories
	case maxCat < 0:
		maxCat = math.MaxInt
	}
	switch {
	case opts.MinCellCount == 0:
		opts.MinCellCount = DefaultMinCellCount
	case opts.MinCellCount < 0:
		opts.MinCellCount = 0
	}
	b := &builder{opts: opts, tables: tables, countCol: -1, maxCat: maxCat}
	for _, c := range tables[0].Columns() {
		b.header = append(b.header, c.Name)
	}
	b.res = &Result{
		Name: opts.Name, Tolerance: opts.Tolerance, Smoothing: opts.Smoothing,
		MinCellCount: opts.MinCellCount, MissingAsValue: opts.MissingAsValue,
	}
	for _, t := range tables {
		b.res.Sources = append(b.res.Sources, sourceName(t))
	}

	if opts.CountColumn != "" {
		c, err := b.column(opts.CountColumn, "count column")
		if err != nil {
			return nil, err
		}
		b.countCol = c
		b.res.CountColumn = b.cols[c].name
	}
	// Known columns.
	if len(opts.Given) > 0 {
		b.known = &knownCells{in: newInterner()}
		for _, name := range opts.Given {
			c, err := b.column(name, "known column")
			if err != nil {
				return nil, err
			}
			if c == b.countCol {
				return nil, fmt.Errorf("priors: %q is the count column and cannot be a known column", name)
			}
			if slices.Contains(b.known.cols, c) {
				continue
			}
			b.known.cols = append(b.known.cols, c)
			b.intern(c, false)
			b.cols[c].keepEmpty = true
			b.res.Given = append(b.res.Given, b.cols[c].name)
		}
	}
	// Exact-match attributes.
	auto := len(opts.Columns) == 0
	names := opts.Columns
	if auto {
		names = nil
		for i, h := range b.header {
			if strings.TrimSpace(h) == "" {
				b.res.Notes = append(b.res.Notes, fmt.Sprintf("column %s has no header name and is not used", table.ColumnLetter(i)))
				continue
			}
			if b.countCol >= 0 && h == b.cols[b.countCol].name {
				continue
			}
			names = append(names, h)
		}
	}
	seen := map[string]bool{}
	for _, name := range names {
		c, err := b.column(name, "attribute")
		if err != nil {
			return nil, err
		}
		if c == b.countCol {
			return nil, fmt.Errorf("priors: %q is the count column and cannot be an attribute", name)
		}
		if seen[b.cols[c].name] {
			continue
		}
		seen[b.cols[c].name] = true
		b.intern(c, auto)
		t := &catTarget{name: b.cols[c].name, cols: []int{c}, auto: auto}
		b.addCat(t)
	}
	for _, joint := range opts.Joint {
		var cols []int
		for _, name := range joint {
			c, err := b.column(name, "joint attribute column")
			if err != nil {
				return nil, err
			}
			if c == b.countCol {
				return nil, fmt.Errorf("priors: %q is the count column and cannot be an attribute", name)
			}
			if slices.Contains(cols, c) {
				return nil, fmt.Errorf("priors: the joint attribute %q names column %q twice", strings.Join(joint, ","), b.cols[c].name)
			}
			cols = append(cols, c)
		}
		if len(cols) < 2 {
			return nil, fmt.Errorf("priors: a joint attribute needs at least two columns, not %q", strings.Join(joint, ","))
		}
		names := make([]string, len(cols))
		for i, c := range cols {
			b.intern(c, false)
			names[i] = b.cols[c].name
		}
		t := &catTarget{name: priors.ColumnList(names), cols: cols, joint: newInterner()}
		b.addCat(t)
	}
	for _, name := range opts.Ordinal {
		c, err := b.column(name, "ordinal column")
		if err != nil {
			return nil, err
		}
		if c == b.countCol {
			return nil, fmt.Errorf("priors: %q is the count column and cannot be an attribute", name)
		}
		t := &winTarget{name: b.cols[c].name, col: c, counts: map[float64]int64{}}
		if b.known != nil && !slices.Contains(b.known.cols, c) {
			t.cond = map[winKey]int64{}
		}
		b.wins = append(b.wins, t)
		b.order = append(b.order, t)
	}
	for name := range opts.ZipfDomain {
		if !b.hasCatTarget(name) {
			return nil, fmt.Errorf("priors: the Zipf domain size is given for %q, which is not an exact-match attribute", name)
		}
		if n := opts.ZipfDomain[name]; math.IsNaN(n) || n < 2 || (n != math.Floor(n) && !math.IsInf(n, 1)) {
			return nil, fmt.Errorf("priors: the Zipf domain size of %q must be a whole number ≥ 2 or +Inf, not %v", name, n)
		}
	}
	for _, c := range b.known.colsOrNil() {
		b.res.knownNames = append(b.res.knownNames, b.cols[c].name)
	}
	return b, nil
}

func (k *knownCells) colsOrNil() []int {
	if k == nil {
		return nil
	}
	return k.cols
}

// addCat registers an exact-match attribute, with a conditional table when
// there are known columns and none of its columns is known.
func (b *builder) addCat(t *catTarget) {
	if b.known != nil {
		overlap := false
		for _, c := range t.cols {
			overlap = overlap || slices.Contains(b.known.cols, c)
		}
		if !overlap {
			t.cond = map[uint64]int64{}
			t.conditional = true
		}
	}
	b.cats = append(b.cats, t)
	b.order = append(b.order, t)
}

// hasCatTarget reports whether an exact-match attribute has the name
// (exactly, else ignoring case).
func (b *builder) hasCatTarget(name string) bool {
	for _, t := range b.cats {
		if t.name == name || strings.EqualFold(t.name, strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

// zipfDomain returns the stated Zipf domain size of an attribute, or 0.
func (b *builder) zipfDomain(name string) float64 {
	if n, ok := b.opts.ZipfDomain[name]; ok {
		return n
	}
	for k, n := range b.opts.ZipfDomain {
		if strings.EqualFold(strings.TrimSpace(k), name) {
			return n
		}
	}
	return 0
}

// intern makes column c keep its values; autoOnly marks a column needed
// only by a default attribute.
func (b *builder) intern(c int, autoOnly bool) {
	col := b.cols[c]
	if col.in == nil {
		col.in = newInterner()
		col.autoOnly = autoOnly
	} else if !autoOnly {
		col.autoOnly = false
	}
	if b.opts.MissingAsValue {
		col.keepEmpty = true
	}
}

// column returns the builder index of the column the name matches in the
// first table's header, adding it if new.
func (b *builder) column(name, role string) (int, error) {
	i, err := matchColumn(b.header, name)
	if err != nil {
		return 0, &table.Error{
			Pos: table.Position{File: b.tables[0].File(), Sheet: b.tables[0].Sheet(), Column: -1},
			Err: fmt.Errorf("%s %v", role, err),
		}
	}
	for j, c := range b.cols {
		if c.name == b.header[i] {
			return j, nil
		}
	}
	b.cols = append(b.cols, &column{name: b.header[i], vid: noID})
	return len(b.cols) - 1, nil
}

// matchColumn finds name in header: exactly (after trimming spaces), else
// ignoring case when that is unambiguous.
func matchColumn(header []string, name string) (int, error) {
	want := strings.TrimSpace(name)
	for i, h := range header {
		if strings.TrimSpace(h) == want {
			return i, nil
		}
	}
	found := -1
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), want) {
			if found >= 0 {
				return 0, fmt.Errorf("%q matches both %q and %q; write it as in the header", name, header[found], h)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("%q is not a column; the columns are %s", name, words.Quoted(header))
	}
	return found, nil
}

// sourceName describes a table: "file" or "file, sheet S".
func sourceName(t priors.Rows) string {
	return table.Position{File: t.File(), Sheet: t.Sheet(), Column: -1}.String()
}

// mapTable finds the builder's columns in table ti.
func (b *builder) mapTable(ti int, t priors.Rows) error {
	var header []string
	for _, c := range t.Columns() {
		header = append(header, c.Name)
	}
	for _, c := range b.cols {
		i, err := matchColumn(header, c.name)
		if err != nil {
			return &table.Error{Pos: table.Position{File: t.File(), Sheet: t.Sheet(), Column: -1}, Err: err}
		}
		c.idx = append(c.idx, i)
	}
	return nil
}

// cellError is an error about one cell of a row.
func (b *builder) cellError(row table.Row, c *column, ti int, err error) error {
	pos := row.Pos
	pos.Column = c.idx[ti]
	pos.ColumnName = c.name
	return &table.Error{Pos: pos, Err: err}
}

// add counts one data row of table ti.
func (b *builder) add(ti int, row table.Row) error {
	w := int64(1)
	if b.countCol >= 0 {
		c := b.cols[b.countCol]
		var err error
		if w, err = priors.CountOf(priors.CellAt(row, c.idx[ti])); err != nil {
			return b.cellError(row, c, ti, err)
		}
		if w == 0 {
			return nil
		}
	}
	if b.countCol >= 0 && b.res.Records > math.MaxInt64-w {
		return b.cellError(row, b.cols[b.countCol], ti, errors.New("the counts add up to more than 2^63 records"))
	}
	// Parse the numeric cells first, so that a bad one stops the build
	// before anything of the row is counted.
	type num struct {
		x       float64
		present bool
	}
	var nums [8]num
	xs := nums[:0]
	for _, t := range b.wins {
		c := b.cols[t.col]
		x, ok, err := numberOf(priors.CellAt(row, c.idx[ti]))
		if err != nil {
			return b.cellError(row, c, ti, fmt.Errorf("%v (an ordinal column holds numbers)", err))
		}
		xs = append(xs, num{x, ok})
	}
	b.res.Rows++
	b.res.Records += w

	for _, c := range b.cols {
		if c.in == nil {
			continue
		}
		id, ok := c.in.intern(priors.CellAt(row, c.idx[ti]), &b.buf)
		if !ok && c.keepEmpty {
			id = c.in.empty()
		}
		c.vid, c.present = id, ok
	}
	kid := uint32(noID)
	perRecord := b.known != nil
	rec := len(b.res.kids)
	if perRecord {
		b.tuple = b.tuple[:0]
		for _, c := range b.known.cols {
			b.tuple = appendID(b.tuple, b.cols[c].vid)
		}
		n := b.known.count()
		kid = b.known.in.idBytes(b.tuple)
		if int(kid) == n { // a new cell
			for _, c := range b.known.cols {
				b.known.parts = append(b.known.parts, b.cols[c].vid)
			}
		}
		b.res.kids = append(b.res.kids, kid)
		if b.countCol >= 0 {
			b.res.weights = append(b.res.weights, w)
		}
		b.addRun(ti, row.Pos.Row, rec)
	}
	for _, t := range b.cats {
		if t.dropped {
			continue
		}
		if t.auto {
			if c := b.cols[t.cols[0]]; c.in.distinct > b.maxCat {
				b.dropAuto(t)
				continue
			}
		}
		t.add(b.valueOf(t), w, kid, rec, perRecord)
	}
	for i, t := range b.wins {
		t.add(xs[i].x, xs[i].present, w, kid, rec, perRecord)
	}
	return nil
}

// addRun records that record rec comes from row of table ti.
func (b *builder) addRun(ti, row, rec int) {
	r := b.res
	if n := len(r.runs); n > 0 {
		last := &r.runs[n-1]
		if last.src == ti && last.row+last.n == row {
			last.n++
			return
		}
	}
	r.runs = append(r.runs, run{src: ti, row: row, start: rec, n: 1})
}

// valueOf returns the value id of an exact-match attribute in the current
// row, or noID when it is missing.
func (b *builder) valueOf(t *catTarget) uint32 {
	if t.joint == nil {
		c := b.cols[t.cols[0]]
		if !c.present && !b.opts.MissingAsValue {
			return noID
		}
		return c.vid
	}
	b.tuple = b.tuple[:0]
	for _, ci := range t.cols {
		c := b.cols[ci]
		if !c.present && !b.opts.MissingAsValue {
			return noID
		}
		b.tuple = appendID(b.tuple, c.vid)
	}
	n := len(t.joint.vals)
	id := t.joint.idBytes(b.tuple)
	if int(id) == n {
		for _, ci := range t.cols {
			t.parts = append(t.parts, b.cols[ci].vid)
		}
	}
	return id
}

// dropAuto drops a default attribute with more than MaxCategories values
// and stops reading its column when nothing else needs it.
func (b *builder) dropAuto(t *catTarget) {
	t.drop()
	c := b.cols[t.cols[0]]
	if c.autoOnly {
		c.in = nil
	}
	limit := b.opts.MaxCategories
	if limit == 0 {
		limit = DefaultMaxCategories
	}
	for _, w := range b.wins {
		if w.col == t.cols[0] {
			b.dropped = append(b.dropped, fmt.Sprintf("column %q has more than %d distinct values: it is an ordinal (window) attribute only, not an exact-match one (name it among the columns for that)", t.name, limit))
			return
		}
	}
	b.dropped = append(b.dropped, fmt.Sprintf("column %q has more than %d distinct values and is not an attribute (name it among the columns, or as ordinal, to use it)", t.name, limit))
}

// numberOf reads a cell of an ordinal column: ok is false for an empty
// cell; −0 reads as 0.
func numberOf(c table.Cell) (x float64, ok bool, err error) {
	switch c.Kind {
	case table.Integer:
		return float64(c.Int), true, nil
	case table.Number:
		x = c.Num
	case table.Text:
		s := strings.TrimSpace(c.Str)
		if s == "" {
			return 0, false, nil
		}
		if x, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, false, fmt.Errorf("%q is not a number", s)
		}
	case table.Bool:
		return 0, false, fmt.Errorf("the boolean %v is not a number", c.Bool)
	default:
		return 0, false, nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, fmt.Errorf("%v is not a finite number", x)
	}
	return x + 0, true, nil
}

// finish turns the counts into entries.
func (b *builder) finish() (*Result, error) {
	r := b.res
	if b.known != nil {
		nk := b.known.count()
		n := len(b.known.cols)
		r.knownVals = make([][]string, nk)
		for k := 0; k < nk; k++ {
			vals := make([]string, n)
			for j, c := range b.known.cols {
				vals[j] = b.cols[c].in.vals[b.known.parts[k*n+j]]
			}
			r.knownVals[k] = vals
		}
		r.cellOrder = make([]int, nk)
		for k := range r.cellOrder {
			r.cellOrder[k] = k
		}
		slices.SortFunc(r.cellOrder, func(a, c int) int { return slices.Compare(r.knownVals[a], r.knownVals[c]) })
	}
	for _, t := range b.order {
		switch t := t.(type) {
		case *catTarget:
			if t.dropped {
				continue
			}
			cols := make([]string, len(t.cols))
			for i, c := range t.cols {
				cols[i] = b.cols[c].name
			}
			e := b.newEntry(cols, nil, false)
			t.finishMarginal(b, e)
			if err := b.fitZipf(t, e); err != nil {
				return nil, err
			}
			r.Entries = append(r.Entries, e)
			if t.conditional {
				ce := b.newEntry(cols, r.Given, false)
				t.finishConditional(b, ce)
				r.Entries = append(r.Entries, ce)
			}
		case *winTarget:
			cols := []string{t.name}
			e := b.newEntry(cols, nil, true)
			t.finishMarginal(b, e)
			r.Entries = append(r.Entries, e)
			if t.cond != nil {
				ce := b.newEntry(cols, r.Given, true)
				t.finishConditional(b, ce)
				r.Entries = append(r.Entries, ce)
			}
		}
	}
	b.notes()
	return r, nil
}

// newEntry starts an entry.
func (b *builder) newEntry(target, given []string, window bool) *Entry {
	e := &Entry{
		Target: target, Given: given, Window: window, res: b.res,
		Smoothed: !window && b.opts.Smoothing > 0,
	}
	if window {
		e.Tolerance = b.opts.Tolerance
	}
	e.Key = priors.KeySpec{Name: b.res.Name, Target: target, Given: given, Window: window, Tolerance: e.Tolerance}.String()
	return e
}

// fitZipf fits Zipf(s, N) to a marginal's counts ranked by frequency.
func (b *builder) fitZipf(t *catTarget, e *Entry) error {
	n := b.zipfDomain(t.name)
	if n != 0 && n < float64(e.Support) {
		return fmt.Errorf("priors: the Zipf domain size of %q is %v, but %d distinct values were observed", t.name, n, e.Support)
	}
	if e.Support < 2 {
		if n != 0 {
			e.Warnings = append(e.Warnings, "no Zipf fit: fewer than two distinct values")
		}
		return nil
	}
	counts := make([]float64, len(e.marginal))
	for i, f := range e.marginal {
		counts[i] = float64(f.Count)
	}
	fit, err := priors.FitZipf(counts, n)
	if err != nil {
		e.Warnings = append(e.Warnings, "no Zipf fit: "+strings.TrimPrefix(err.Error(), "fitting Zipf(s, N): "))
		return nil
	}
	e.Zipf = &fit
	return nil
}

// notes explains the result's conventions.
func (b *builder) notes() {
	r := b.res
	if r.MissingAsValue {
		r.Notes = append(r.Notes, "missing values: an empty attribute cell is a value of its own (shown empty)")
	} else {
		r.Notes = append(r.Notes, "missing values: a record whose attribute cell is empty is not a target of that attribute and is left out of its distribution (column missing)")
	}
	if len(r.Given) > 0 {
		r.Notes = append(r.Notes, "an empty cell in a known column is a value of its own: the attacker knows the value is missing")
		if r.MinCellCount > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("cells of known values with fewer than %d records are flagged (column warning): their p_i rests on few records", r.MinCellCount))
		}
		for _, t := range b.cats {
			if !t.dropped && !t.conditional && t.joint != nil {
				r.Notes = append(r.Notes, fmt.Sprintf("the joint attribute %q includes a known column: no conditional prior", t.name))
			}
		}
	}
	if r.Smoothing > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("additive smoothing α = %v: P(u | k) = (count(k, u) + α)/(n_k + α·m); it lowers the largest probability, so the smoothed p_i are not safe upper bounds (seed002 §2.5 item 6)", r.Smoothing))
	} else {
		r.Notes = append(r.Notes, "no smoothing: probabilities are plain frequencies")
	}
	r.Notes = append(r.Notes, b.dropped...)
	if r.CountColumn != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("pre-aggregated input: each row stands for the number of records in column %q", r.CountColumn))
	}
}
