package build

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

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
