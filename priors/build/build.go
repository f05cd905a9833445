package build

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/internal/compression"
	"github.com/riskbatch/riskbatch/internal/words"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Priors reads every row of the tables once, in order, and returns the
// priors they imply (see the package documentation and Options). A table
// that implements Batches is read a batch at a time, only the columns
// used; any other row by row.
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
		if bt, ok := t.(Batches); ok && len(b.cols) > 0 {
			if err := b.readBatches(ti, bt); err != nil {
				return nil, err
			}
			continue
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
	over      bool      // the column has more than MaxCategories values by this row
	ids       []uint32  // value ids of the rows of a batch (see readBatches)
	// With a count column, a batch's value ids are those of staged, which
	// numbers the values of every row, and toIn maps them to ids of in
	// (1 + the id, or 0 before the first record with the value is
	// counted): see stagedIDs.
	staged *interner
	toIn   []uint32
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
	ords     []table.Cell // the cells of the ordinal columns of a row
	xs       []num        // their numbers
}

// newBuilder validates the options and resolves the columns against the
// first table's header.
func newBuilder(tables []priors.Rows, opts Options) (*builder, error) {
	opts, maxCat, err := checkOptions(opts, tables[0])
	if err != nil {
		return nil, err
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
	for _, add := range []func() error{b.addCountColumn, b.addKnown, b.addAttributes, b.addJoints, b.addOrdinals, b.checkZipfDomains} {
		if err := add(); err != nil {
			return nil, err
		}
	}
	for _, c := range b.known.colsOrNil() {
		b.res.knownNames = append(b.res.knownNames, b.cols[c].name)
	}
	return b, nil
}

// checkOptions validates the numbers of opts and fills in its defaults
// (the name from the first table t); maxCat is the bound of the default
// attributes.
func checkOptions(opts Options, t priors.Rows) (_ Options, maxCat int, err error) {
	if math.IsNaN(opts.Tolerance) || math.IsInf(opts.Tolerance, 0) || opts.Tolerance < 0 {
		return opts, 0, fmt.Errorf("priors: the tolerance E must be a finite number ≥ 0, not %v", opts.Tolerance)
	}
	if math.IsNaN(opts.Smoothing) || math.IsInf(opts.Smoothing, 0) || opts.Smoothing < 0 {
		return opts, 0, fmt.Errorf("priors: the smoothing α must be a finite number ≥ 0, not %v", opts.Smoothing)
	}
	if opts.Name == "" {
		_, base, _ := compression.ByName(filepath.Base(t.File())) // data.csv.gz: data
		opts.Name = strings.TrimSuffix(base, filepath.Ext(base))
		if opts.Name == "" || opts.Name == "." || opts.Name == string(filepath.Separator) {
			opts.Name = "data"
		}
	}
	maxCat = opts.MaxCategories
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
	return opts, maxCat, nil
}

// addCountColumn resolves the count column of pre-aggregated input.
func (b *builder) addCountColumn() error {
	if b.opts.CountColumn == "" {
		return nil
	}
	c, err := b.column(b.opts.CountColumn, "count column")
	if err != nil {
		return err
	}
	b.countCol = c
	b.res.CountColumn = b.cols[c].name
	return nil
}

// addKnown resolves the known columns.
func (b *builder) addKnown() error {
	if len(b.opts.Given) == 0 {
		return nil
	}
	b.known = &knownCells{in: newInterner()}
	for _, name := range b.opts.Given {
		c, err := b.nonCountColumn(name, "known column", "a known column")
		if err != nil {
			return err
		}
		if slices.Contains(b.known.cols, c) {
			continue
		}
		b.known.cols = append(b.known.cols, c)
		b.intern(c, false)
		b.cols[c].keepEmpty = true
		b.res.Given = append(b.res.Given, b.cols[c].name)
	}
	return nil
}

// addAttributes resolves the exact-match attributes of one column: the
// named ones, or by default every column with a header name but the count
// column.
func (b *builder) addAttributes() error {
	auto := len(b.opts.Columns) == 0
	names := b.opts.Columns
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
		c, err := b.nonCountColumn(name, "attribute", "an attribute")
		if err != nil {
			return err
		}
		if seen[b.cols[c].name] {
			continue
		}
		seen[b.cols[c].name] = true
		b.intern(c, auto)
		t := &catTarget{name: b.cols[c].name, cols: []int{c}, auto: auto}
		b.addCat(t)
	}
	return nil
}

// addJoints resolves the joint attributes.
func (b *builder) addJoints() error {
	for _, joint := range b.opts.Joint {
		var cols []int
		for _, name := range joint {
			c, err := b.nonCountColumn(name, "joint attribute column", "an attribute")
			if err != nil {
				return err
			}
			if slices.Contains(cols, c) {
				return fmt.Errorf("priors: the joint attribute %q names column %q twice", strings.Join(joint, ","), b.cols[c].name)
			}
			cols = append(cols, c)
		}
		if len(cols) < 2 {
			return fmt.Errorf("priors: a joint attribute needs at least two columns, not %q", strings.Join(joint, ","))
		}
		names := make([]string, len(cols))
		for i, c := range cols {
			b.intern(c, false)
			names[i] = b.cols[c].name
		}
		t := &catTarget{name: priors.ColumnList(names), cols: cols, joint: newInterner()}
		b.addCat(t)
	}
	return nil
}

// addOrdinals resolves the ordinal (window) attributes.
func (b *builder) addOrdinals() error {
	for _, name := range b.opts.Ordinal {
		c, err := b.nonCountColumn(name, "ordinal column", "an attribute")
		if err != nil {
			return err
		}
		t := &winTarget{name: b.cols[c].name, col: c, counts: map[float64]int64{}}
		if b.known != nil && !slices.Contains(b.known.cols, c) {
			t.cond = map[winKey]int64{}
		}
		b.wins = append(b.wins, t)
		b.order = append(b.order, t)
	}
	return nil
}

// checkZipfDomains checks that each stated Zipf domain size belongs to an
// exact-match attribute and is a whole number ≥ 2 or +Inf.
func (b *builder) checkZipfDomains() error {
	for name, n := range b.opts.ZipfDomain {
		if !b.hasCatTarget(name) {
			return fmt.Errorf("priors: the Zipf domain size is given for %q, which is not an exact-match attribute", name)
		}
		if math.IsNaN(n) || n < 2 || (n != math.Floor(n) && !math.IsInf(n, 1)) {
			return fmt.Errorf("priors: the Zipf domain size of %q must be a whole number ≥ 2 or +Inf, not %v", name, n)
		}
	}
	return nil
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
	if autoOnly {
		col.in.limit = b.maxCat
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

// nonCountColumn is column for a column used as what (an attribute, a
// known column), which the count column cannot be.
func (b *builder) nonCountColumn(name, role, what string) (int, error) {
	c, err := b.column(name, role)
	if err != nil {
		return 0, err
	}
	if c == b.countCol {
		return 0, fmt.Errorf("priors: %q is the count column and cannot be %s", name, what)
	}
	return c, nil
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
