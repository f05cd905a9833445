package build

import (
	"bytes"
	"io"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/table"
)

// Batches is a table that can be read a batch of rows at a time, only the
// columns a build needs: Priors reads such a table this way, column by
// column, and any other row by row. Both give the same result (the values
// compare as in the package documentation), but a reader of batches need
// not decode the cells of the columns not read, nor make a table.Cell for
// each value of a column read: it hands each column's values to Values,
// which numbers them.
type Batches interface {
	priors.Rows
	// Select chooses the columns NextBatch reads: indexes in Columns,
	// increasing. It is called once, before NextBatch, and Next is not
	// called afterwards.
	Select(cols []int) error
	// NextBatch returns the next rows, or io.EOF after the last. The batch
	// is valid until the next call.
	NextBatch() (Batch, error)
}

// Batch is consecutive rows of a table, in the selected columns (see
// Batches.Select), which j numbers in the order of the selection.
type Batch interface {
	// Len is the number of rows.
	Len() int
	// Row is the row number of row i (table.Position.Row).
	Row(i int) int
	// IDs sets ids[i], for each row i < len(ids), to the id in vals of the
	// row's value in column j (Values.Text, Values.Canonical or
	// Values.Cell), or Values.Empty for a null. A value that cannot be
	// read stops it: it returns that row's index and the error (a
	// *table.Error naming the cell), the ids of the rows before it set;
	// else len(ids) and nil.
	IDs(j int, vals Values, ids []uint32) (int, error)
	// Cell returns the cell of row i in column j, or the error of a value
	// that cannot be read, as IDs.
	Cell(j, i int) (table.Cell, error)
}

// Values numbers the values of a column for a build: the same value always
// gets the same id. Its methods compare values as the
// package documentation says, so that every reader of Batches numbers
// values as table.Cell would.
type Values struct {
	in        *interner
	keepEmpty bool // an empty cell is a value of its own
}

// Empty returns the id of an empty cell: the id of the value "" when the
// build counts empty cells of the column as a value of their own, else an
// id that is none of a value's.
func (v Values) Empty() uint32 {
	if v.keepEmpty {
		return v.in.empty()
	}
	return noID
}

// Text returns the id of the value of a text cell: s without leading and
// trailing spaces, or Empty when that is empty.
func (v Values) Text(s string) uint32 {
	s = strings.TrimSpace(s)
	if s == "" {
		return v.Empty()
	}
	return v.in.idString(s)
}

// TextBytes is Text of string(b), which it does not keep.
func (v Values) TextBytes(b []byte) uint32 {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return v.Empty()
	}
	return v.in.idBytes(b)
}

// Canonical returns the id of a value of another kind than text, given by
// its text as cellText formats it: strconv.AppendInt for an integer,
// AppendFloat(x, 'g', -1, 64) for a number, AppendBool for a boolean.
func (v Values) Canonical(b []byte) uint32 { return v.in.idBytes(b) }

// Cell returns the id of a cell's value, or Empty for an empty cell (and
// for the kinds whose cells the build treats as empty).
func (v Values) Cell(c table.Cell) uint32 {
	var buf [32]byte
	b := buf[:0]
	id, ok := v.in.intern(c, &b)
	if !ok {
		return v.Empty()
	}
	return id
}

// readBatches reads table ti, which reads batches, to its end: the
// builder's columns, a batch at a time.
func (b *builder) readBatches(ti int, t Batches) error {
	var sel []int
	for _, c := range b.cols {
		sel = append(sel, c.idx[ti])
	}
	slices.Sort(sel)
	sel = slices.Compact(sel)
	at := make([]int, len(b.cols)) // builder column → index in sel
	for i, c := range b.cols {
		at[i], _ = slices.BinarySearch(sel, c.idx[ti])
	}
	if err := t.Select(sel); err != nil {
		return err
	}
	for {
		bt, err := t.NextBatch()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := b.addBatch(ti, t, bt, at); err != nil {
			return err
		}
	}
}

// addBatch counts the rows of a batch of table ti; at maps builder
// columns to the batch's columns. Rows are counted in order, and a row
// whose cells cannot be read or are wrong stops the build with the error
// the row-by-row build would give: that of the first such row.
func (b *builder) addBatch(ti int, t Batches, bt Batch, at []int) error {
	n := bt.Len()
	limit, limitCol := n, -1 // the first row that cannot be read, and its column
	var limitErr error
	for ci, c := range b.cols {
		if c.in == nil {
			continue
		}
		c.ids = slices.Grow(c.ids[:0], n)[:n]
		vals := Values{c.in, c.keepEmpty}
		if b.countCol >= 0 {
			vals.in = c.stagedValues()
		}
		k, err := bt.IDs(at[ci], vals, c.ids)
		if err != nil && (k < limit || (k == limit && c.idx[ti] < limitCol)) {
			limit, limitCol, limitErr = k, c.idx[ti], err
		}
	}
	if b.marginalsOnly() {
		b.countMarginals(limit)
		return limitErr
	}
	for i := range limit {
		if err := b.addBatchRow(ti, t, bt, at, i); err != nil {
			return err
		}
	}
	return limitErr
}

// marginalsOnly reports whether the build counts only the marginals of
// single columns, one record per row: no known columns, count column,
// ordinal column or joint attribute.
func (b *builder) marginalsOnly() bool {
	if b.known != nil || b.countCol >= 0 || len(b.wins) > 0 {
		return false
	}
	for _, t := range b.cats {
		if t.joint != nil {
			return false
		}
	}
	return true
}

// countMarginals counts the first n rows of a batch whose value ids are
// read, when the build counts marginals only: column by column, as
// addBatchRow would row by row (a default attribute is dropped at the row
// where its column passes MaxCategories values, the attributes dropped in
// the order of those rows).
func (b *builder) countMarginals(n int) {
	b.res.Rows += int64(n)
	b.res.Records += int64(n)
	type drop struct{ row, cat int }
	var drops []drop
	for k, t := range b.cats {
		if t.dropped {
			continue
		}
		c := b.cols[t.cols[0]]
		ids := c.ids[:n]
		if t.auto {
			for i, v := range ids {
				if c.in.over(v) {
					ids = ids[:i]
					drops = append(drops, drop{i, k})
					break
				}
			}
		}
		if m := len(c.in.vals); len(t.counts) < m {
			t.counts = append(t.counts, make([]int64, m-len(t.counts))...)
		}
		// Without known columns an empty cell's id is noID, or that of ""
		// with MissingAsValue, which is then a value (valueOf).
		counts := t.counts
		var missing int64
		for _, v := range ids {
			if v == noID {
				missing++
			} else {
				counts[v]++
			}
		}
		t.missing += missing
	}
	slices.SortStableFunc(drops, func(x, y drop) int { return x.row - y.row })
	for _, d := range drops {
		b.dropAuto(b.cats[d.cat])
	}
}

// addBatchRow counts row i of a batch whose value ids are read (see
// addBatch).
func (b *builder) addBatchRow(ti int, t Batches, bt Batch, at []int, i int) error {
	pos := table.Position{File: t.File(), Sheet: t.Sheet(), Row: bt.Row(i), Column: -1}
	// The cells read first: an error reading one comes before the
	// errors of their values, as when the reader gives rows.
	var count table.Cell
	var err error
	if b.countCol >= 0 {
		if count, err = bt.Cell(at[b.countCol], i); err != nil {
			return err
		}
	}
	b.ords = b.ords[:0]
	for _, w := range b.wins {
		c, err := bt.Cell(at[w.col], i)
		if err != nil {
			return err
		}
		b.ords = append(b.ords, c)
	}
	w, err := b.numbers(ti, pos, count, b.ords)
	if err != nil || w == 0 {
		return err
	}
	for _, c := range b.cols {
		if c.in == nil {
			continue
		}
		// A value's id is neither noID nor that of "" (see Values).
		id := c.ids[i]
		if c.staged != nil {
			id = c.inID(id)
		}
		c.vid, c.present = id, id != noID && id != c.in.emptyID
		c.over = c.present && c.in.over(id)
	}
	b.count(ti, pos.Row, w)
	return nil
}

// stagedValues returns the interner that numbers a column's values in
// batches when the build has a count column.
//
// The ids of in follow the order in which values are first counted, and
// that order matters: a default attribute is dropped at the first record
// with more than MaxCategories values (interner.over), and the entropy of
// a marginal is summed in id order. Row by row, a row whose count is 0 is
// not counted and its values are not numbered; a batch numbers the values
// of all its rows before their counts are read. So the batch numbers them
// in staged, and a value gets its id in in only when a record with it is
// counted (inID), in row order, as row by row.
func (c *column) stagedValues() *interner {
	if c.staged == nil {
		c.staged = newInterner()
	}
	return c.staged
}

// inID returns the id in c.in of the value of staged id v (noID for
// noID), numbering the value in c.in if new.
func (c *column) inID(v uint32) uint32 {
	if v == noID {
		return noID
	}
	if int(v) >= len(c.toIn) {
		c.toIn = append(c.toIn, make([]uint32, int(v)+1-len(c.toIn))...)
	}
	if id := c.toIn[v]; id != 0 {
		return id - 1
	}
	var id uint32
	if v == c.staged.emptyID {
		id = c.in.empty()
	} else {
		id = c.in.idString(c.staged.vals[v])
	}
	c.toIn[v] = id + 1
	return id
}
