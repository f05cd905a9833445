package priorfiles

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/riskbatch/riskbatch/internal/arrowcell"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// parquetBatches reads a Parquet table for build.Priors a batch at a
// time, only the columns the build uses (build.Batches): it numbers the
// values of a column straight from its Arrow array, the indexes of a
// dictionary array once per dictionary value, integers, floats and
// booleans once per distinct value, and makes a table.Cell only for the
// values of other types (readers.ArrowCells), so that every value gets
// the id its cell would.
type parquetBatches struct {
	readers.Table
	cb    readers.ColumnBatches
	sel   []int
	cols  []arrowColumn // of sel
	batch arrowBatch
}

// Select chooses the columns read (build.Batches).
func (p *parquetBatches) Select(cols []int) error {
	p.sel = cols
	p.cols = make([]arrowColumn, len(cols))
	return p.cb.SelectColumns(cols)
}

// NextBatch reads the next batch (build.Batches).
func (p *parquetBatches) NextBatch() (build.Batch, error) {
	rec, first, err := p.cb.ReadBatch()
	if err != nil {
		return nil, err
	}
	for j := range p.cols {
		p.cols[j].start(rec.Column(j))
	}
	p.batch = arrowBatch{p: p, n: int(rec.NumRows()), first: first}
	return &p.batch, nil
}

// arrowBatch is a batch of parquetBatches.
type arrowBatch struct {
	p     *parquetBatches
	n     int
	first int // row number of row 0
}

func (b *arrowBatch) Len() int      { return b.n }
func (b *arrowBatch) Row(i int) int { return b.first + i }

// Cell returns the cell of row i in column j (build.Batch).
func (b *arrowBatch) Cell(j, i int) (table.Cell, error) {
	c, err := b.p.cols[j].cell(i)
	if err != nil {
		return c, b.cellError(j, i, err)
	}
	return c, nil
}

// IDs numbers the values of column j (build.Batch).
func (b *arrowBatch) IDs(j int, vals build.Values, ids []uint32) (int, error) {
	k, err := b.p.cols[j].ids(vals, ids)
	if err != nil {
		return k, b.cellError(j, k, err)
	}
	return k, nil
}

// cellError is the error of the value of row i in column j.
func (b *arrowBatch) cellError(j, i int, err error) error {
	col := b.p.sel[j]
	return &table.Error{Pos: table.Position{File: b.p.File(), Row: b.Row(i), Column: col, ColumnName: b.p.Columns()[col].Name}, Err: err}
}

// arrowColumn is a column read by parquetBatches: its array in the
// current batch, and the ids of the values met, kept from batch to batch
// (they do not depend on the Values, which is always the column's own).
type arrowColumn struct {
	arr   arrow.Array
	cells func(i int) (table.Cell, error) // of arr, made when first needed
	// dictionary arrays: the id of each dictionary value used so far in
	// this batch (the dictionary may change from batch to batch)
	dictIDs  []uint32
	dictSeen []bool
	dictCell func(i int) (table.Cell, error)
	// integers (by value), floats (by bits) and booleans met
	known map[uint64]uint32
	small []uint32     // 1 + the id of key k < smallKeys, or 0
	vals  build.Values // the numbering of the ids kept
	buf   []byte
}

// start makes arr the column's array for a new batch.
func (c *arrowColumn) start(arr arrow.Array) {
	c.arr, c.cells, c.dictCell = arr, nil, nil
	c.dictIDs, c.dictSeen = c.dictIDs[:0], c.dictSeen[:0]
}

// cell returns the cell of row i.
func (c *arrowColumn) cell(i int) (table.Cell, error) {
	if c.cells == nil {
		cells, err := readers.ArrowCells(c.arr)
		if err != nil {
			return table.Cell{}, err
		}
		c.cells = cells
	}
	return c.cells(i)
}

// ids sets ids[i] to the id of row i's value (see build.Batch.IDs).
func (c *arrowColumn) ids(vals build.Values, ids []uint32) (int, error) {
	if vals != c.vals { // another builder column reads the same column
		c.vals, c.known, c.small = vals, nil, nil
		c.dictIDs, c.dictSeen, c.dictCell = c.dictIDs[:0], c.dictSeen[:0], nil
	}
	// Whole numbers that fit an int64 (int8 to int64, uint8 to uint32):
	// one function a type, each reporting whether the array is of it.
	integerIDs := [...]func(*arrowColumn, build.Values, []uint32) (int, bool, error){
		intIDs[int64], intIDs[int32], intIDs[int16], intIDs[int8], intIDs[uint32], intIDs[uint16], intIDs[uint8],
	}
	for _, intIDs := range integerIDs {
		if n, ok, err := intIDs(c, vals, ids); ok {
			return n, err
		}
	}
	switch a := c.arr.(type) {
	case *array.Dictionary:
		return c.dictionaryIDs(a, vals, ids)
	case *array.String:
		return valueIDs(a, vals, ids, func(i int) uint32 { return vals.Text(a.Value(i)) })
	case *array.Float64:
		return numberIDs(c, a, a.Float64Values(), vals, ids, math.Float64bits, formatFloat64)
	case *array.Float32:
		return numberIDs(c, a, a.Float32Values(), vals, ids, float32Key, formatFloat32)
	case *array.Boolean:
		return valueIDs(a, vals, ids, func(i int) uint32 { return c.id(vals, boolKey(a.Value(i)), formatBool) })
	}
	for i := range ids {
		cell, err := c.cell(i)
		if err != nil {
			return i, err
		}
		ids[i] = vals.Cell(cell)
	}
	return len(ids), nil
}

// valuesArray is an Arrow array of numbers of type T held in one slice
// (array.Int64, array.Uint8, …).
type valuesArray[T any] interface {
	arrow.Array
	Values() []T
}

// intIDs is numberIDs for a column of whole numbers of type T, when the
// column's array is of that type (ok).
func intIDs[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](c *arrowColumn, vals build.Values, ids []uint32) (n int, ok bool, err error) {
	a, ok := c.arr.(valuesArray[T])
	if !ok {
		return 0, false, nil
	}
	n, err = numberIDs(c, a, a.Values(), vals, ids, intKey[T], formatInt)
	return n, true, err
}

// valueIDs sets ids[i] to the id of the empty value where row i of a is
// null, and to id(i) elsewhere.
func valueIDs(a arrow.Array, vals build.Values, ids []uint32, id func(i int) uint32) (int, error) {
	for i := range ids {
		if a.IsNull(i) {
			ids[i] = vals.Empty()
		} else {
			ids[i] = id(i)
		}
	}
	return len(ids), nil
}

// dictionaryIDs numbers the values of a dictionary array: each
// dictionary value once, when a row first uses it.
func (c *arrowColumn) dictionaryIDs(a *array.Dictionary, vals build.Values, ids []uint32) (int, error) {
	if c.dictCell == nil {
		cells, err := readers.ArrowCells(a.Dictionary())
		if err != nil {
			return 0, err
		}
		c.dictCell = cells
		n := a.Dictionary().Len()
		c.dictIDs = append(c.dictIDs[:0], make([]uint32, n)...)
		c.dictSeen = append(c.dictSeen[:0], make([]bool, n)...)
	}
	id := func(k int) (uint32, error) {
		if !c.dictSeen[k] {
			cell, err := c.dictCell(k)
			if err != nil {
				return 0, err
			}
			c.dictIDs[k], c.dictSeen[k] = vals.Cell(cell), true
		}
		return c.dictIDs[k], nil
	}
	idx, fast := a.Indices().(*array.Int32)
	null := nullAt(a)
	for i := range ids {
		if null != nil && null(i) {
			ids[i] = vals.Empty()
			continue
		}
		var k int
		if fast {
			k = int(idx.Value(i))
		} else {
			k = a.GetValueIndex(i)
		}
		v, err := id(k)
		if err != nil {
			return i, err
		}
		ids[i] = v
	}
	return len(ids), nil
}

// numberIDs numbers the values of a column of integers or floats, each
// distinct value (by key) formatted once.
func numberIDs[T any](c *arrowColumn, a arrow.Array, values []T, vals build.Values, ids []uint32, key func(T) uint64, format func([]byte, uint64) []byte) (int, error) {
	if c.small == nil {
		c.small = make([]uint32, smallKeys)
	}
	small := c.small
	var bits []byte
	off := 0
	if a.NullN() > 0 {
		bits, off = a.NullBitmapBytes(), a.Data().Offset()
	}
	for i, v := range values[:len(ids)] {
		if bits != nil && bitutil.BitIsNotSet(bits, off+i) {
			ids[i] = vals.Empty()
			continue
		}
		k := key(v)
		if k < smallKeys && small[k] != 0 {
			ids[i] = small[k] - 1
			continue
		}
		ids[i] = c.id(vals, k, format)
	}
	return len(ids), nil
}

// nullAt returns whether row i of a is null, or nil when a has no nulls.
func nullAt(a arrow.Array) func(i int) bool {
	if a.NullN() == 0 {
		return nil
	}
	bits, off := a.NullBitmapBytes(), a.Data().Offset()
	return func(i int) bool { return bitutil.BitIsNotSet(bits, off+i) }
}

// id returns the id of the value of key k, formatted by format when new.
func (c *arrowColumn) id(vals build.Values, k uint64, format func([]byte, uint64) []byte) uint32 {
	if k < smallKeys {
		if c.small == nil {
			c.small = make([]uint32, smallKeys)
		}
		if id := c.small[k]; id != 0 {
			return id - 1
		}
	} else if id, ok := c.known[k]; ok {
		return id
	}
	c.buf = format(c.buf[:0], k)
	id := vals.Canonical(c.buf)
	if k < smallKeys {
		c.small[k] = id + 1
	} else {
		if c.known == nil {
			c.known = map[uint64]uint32{}
		}
		c.known[k] = id
	}
	return id
}

// smallKeys bounds the keys whose ids an arrowColumn keeps in a slice
// (small whole numbers, as categories coded as integers are) rather than
// a map.
const smallKeys = 1 << 12

// Keys of values, and their text as build.Values.Canonical wants it (the
// text of the cells the Parquet reader makes: Integer, Number, Bool).
func intKey[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](v T) uint64 {
	return uint64(int64(v))
}
func formatInt(b []byte, k uint64) []byte { return strconv.AppendInt(b, int64(k), 10) }
func formatFloat64(b []byte, k uint64) []byte {
	return strconv.AppendFloat(b, math.Float64frombits(k), 'g', -1, 64)
}
func float32Key(v float32) uint64 { return uint64(math.Float32bits(v)) }
func formatFloat32(b []byte, k uint64) []byte {
	return strconv.AppendFloat(b, arrowcell.Float32Value(math.Float32frombits(uint32(k))), 'g', -1, 64)
}
func boolKey(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}
func formatBool(b []byte, k uint64) []byte { return strconv.AppendBool(b, k == 1) }
