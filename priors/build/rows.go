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
	var count table.Cell
	if b.countCol >= 0 {
		count = priors.CellAt(row, b.cols[b.countCol].idx[ti])
	}
	b.ords = b.ords[:0]
	for _, t := range b.wins {
		b.ords = append(b.ords, priors.CellAt(row, b.cols[t.col].idx[ti]))
	}
	w, err := b.numbers(ti, row.Pos, count, b.ords)
	if err != nil || w == 0 {
		return err
	}
	for _, c := range b.cols {
		if c.in == nil {
			continue
		}
		id, ok := c.in.intern(priors.CellAt(row, c.idx[ti]), &b.buf)
		if !ok && c.keepEmpty {
			id = c.in.empty()
		}
		c.vid, c.present = id, ok
		c.over = c.in.distinct > b.maxCat
	}
	b.count(ti, row.Pos.Row, w)
	return nil
}

// numbers reads a row's weight w from the cell of the count column (1
// without one) and the numbers of its ordinal columns from their cells,
// into b.xs; it counts the row among Rows and Records unless its weight is
// 0. A bad cell is an error at pos, in its column.
func (b *builder) numbers(ti int, pos table.Position, count table.Cell, ords []table.Cell) (w int64, err error) {
	row := table.Row{Pos: pos}
	w = 1
	if b.countCol >= 0 {
		c := b.cols[b.countCol]
		if w, err = priors.CountOf(count); err != nil {
			return 0, b.cellError(row, c, ti, err)
		}
		if w == 0 {
			return 0, nil
		}
		if b.res.Records > math.MaxInt64-w {
			return 0, b.cellError(row, c, ti, errors.New("the counts add up to more than 2^63 records"))
		}
	}
	// Parse the numeric cells first, so that a bad one stops the build
	// before anything of the row is counted.
	b.xs = b.xs[:0]
	for i, t := range b.wins {
		x, ok, err := numberOf(ords[i])
		if err != nil {
			return 0, b.cellError(row, b.cols[t.col], ti, fmt.Errorf("%v (an ordinal column holds numbers)", err))
		}
		b.xs = append(b.xs, num{x, ok})
	}
	b.res.Rows++
	b.res.Records += w
	return w, nil
}

// num is a number of an ordinal column, or a missing one.
type num struct {
	x       float64
	present bool
}

// count counts a record of weight w from row of table ti, whose columns
// hold their value ids (column.vid) and whose ordinal numbers are in b.xs.
func (b *builder) count(ti, row int, w int64) {
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
		b.addRun(ti, row, rec)
	}
	for _, t := range b.cats {
		if t.dropped {
			continue
		}
		if t.auto && b.cols[t.cols[0]].over {
			b.dropAuto(t)
			continue
		}
		t.add(b.valueOf(t), w, kid, rec, perRecord)
	}
	for i, t := range b.wins {
		t.add(b.xs[i].x, b.xs[i].present, w, kid, rec, perRecord)
	}
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
