package readers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/table"
)

// ArrayType is the Arrow type of every column of a CSV or TSV file read
// as arrays: UTF-8 strings, each field's text as Next's Text cell holds
// it, a null where Next gives an Empty cell. It is nil (cells only) when
// the limits let one field be longer than the int32 offsets of a string
// array reach after csvRunBytes (a field is at most a cell and a record).
func (t *delimited) ArrayType(i int) arrow.DataType {
	if i < 0 || i >= len(t.cols) || min(t.lim.CellBytes, t.lim.RowBytes) > math.MaxInt32-csvRunBytes {
		return nil
	}
	return arrow.BinaryTypes.String
}

// csvRunBytes ends a run of records read as arrays once a column holds
// this many bytes of text: the record that passes it adds at most one
// field, which ArrayType bounds, to stay within the int32 offsets of a
// string array.
const csvRunBytes = 1 << 30

// ReadColumns reads a run of records (see ColumnReader). Every record is
// checked as Next checks it; the fields of the columns asked for as arrays
// are copied into one buffer per column, without a string or a cell each.
func (t *delimited) ReadColumns(run *ColumnRun, n int, arrays, cells []bool) error {
	run.reset(len(t.cols))
	if t.sel != nil {
		return fileError(t.name, errors.New("rows read after SelectColumns"))
	}
	if len(arrays) != len(t.cols) || len(cells) != len(t.cols) {
		return fileError(t.name, fmt.Errorf("ReadColumns: %d and %d flags for %d columns", len(arrays), len(cells), len(t.cols)))
	}
	n = max(n, 1)
	width := len(t.cols)
	cols := make([]textColumn, width)
	if len(t.runText) != width {
		t.runText = make([]int, width)
	}
	for i := range cols {
		if arrays[i] {
			cols[i].start(n, t.runText[i])
		}
	}
	var slab []table.Cell
	cellWidth := 0 // a row's cells: up to the last column asked for
	if anyOf(cells) {
		slab, cellWidth = run.cellSlab(n, cells)
	}
	// The fields are views of the parser's buffer (see
	// recordParser.borrow), which the array columns and the cells copy.
	t.p.borrow = true
	defer func() { t.p.borrow = false }()
	var text cellText
	full := false
	for r := 0; r < n && !full; r++ {
		rec, pos, err := t.nextRecord()
		if err == io.EOF && r > 0 {
			break
		}
		if err != nil {
			return err
		}
		var row []table.Cell
		if slab != nil {
			row = slab[r*cellWidth : (r+1)*cellWidth : (r+1)*cellWidth]
		}
		err = t.checkRecord(rec, &pos, func(i int, f string) {
			if arrays[i] {
				cols[i].set(r, f)
			}
			if row != nil && cells[i] {
				row[i] = table.TextCell(text.copy(f))
			}
		})
		for i := range cols {
			if arrays[i] {
				cols[i].end()
				full = full || len(cols[i].data) >= csvRunBytes
			}
		}
		run.Rows = append(run.Rows, table.Row{Pos: pos, Cells: row})
		run.Errs = append(run.Errs, err)
	}
	for i := range cols {
		if arrays[i] {
			run.Arrays[i] = cols[i].array(len(run.Rows))
			t.runText[i] = len(cols[i].data) << 10 / len(run.Rows)
		}
	}
	return nil
}

// textGuessMax bounds the text buffer textColumn.start makes at once:
// a run of long fields does not make the next runs' buffers as large.
const textGuessMax = 4 << 20

// textColumn gathers the fields of one column of a run of records into
// the buffers of an Arrow string array.
type textColumn struct {
	data    []byte
	offsets []int32 // offsets[r] is where row r's text starts in data
	valid   []byte  // validity bitmap
	nulls   int
	filled  bool // the current row has a value
}

// start prepares the column for up to n rows of about perRow/1024 bytes
// of text each: its buffer is made that size and an eighth, but at most
// textGuessMax (a guess: the buffer grows if the rows hold more).
func (c *textColumn) start(n, perRow int) {
	size := 0
	if perRow > 0 {
		size = textGuessMax
		if n < textGuessMax<<10/perRow {
			size = n * perRow >> 10
			size += size >> 3
		}
	}
	c.data = make([]byte, 0, min(size, textGuessMax))
	c.offsets = make([]int32, 1, n+1)
	c.valid = make([]byte, bitutil.BytesForBits(int64(n)))
}

// set gives row r its field's text.
func (c *textColumn) set(r int, f string) {
	c.data = append(c.data, f...)
	bitutil.SetBit(c.valid, r)
	c.filled = true
}

// end ends the current row: a null unless set gave it a value.
func (c *textColumn) end() {
	if !c.filled {
		c.nulls++
	}
	c.filled = false
	c.offsets = append(c.offsets, int32(len(c.data)))
}

// array returns the column's rows rows as a string array.
func (c *textColumn) array(rows int) arrow.Array {
	valid := memory.NewBufferBytes(c.valid)
	if c.nulls == 0 {
		valid = nil
	}
	data := array.NewData(arrow.BinaryTypes.String, rows, []*memory.Buffer{
		valid,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)),
		memory.NewBufferBytes(c.data),
	}, nil, c.nulls, 0)
	defer data.Release()
	return array.NewStringData(data)
}

// cellText makes the strings of a run's cells: copies of their fields
// laid one after the other in chunks of memory that are only ever
// appended to, so that a string, once made, never changes, and a cell
// costs no allocation of its own. A string kept keeps its chunk (at most
// cellChunk bytes of other cells' text), as a cell of Next keeps its
// record's text.
type cellText struct{ chunk []byte }

// cellChunk is the size of cellText's chunks.
const cellChunk = 8 << 10

// copy returns a string of f's bytes, which must not be empty.
func (c *cellText) copy(f string) string {
	if len(c.chunk)+len(f) > cap(c.chunk) {
		c.chunk = make([]byte, 0, max(len(f), cellChunk))
	}
	at := len(c.chunk)
	c.chunk = append(c.chunk, f...)
	return unsafe.String(&c.chunk[at], len(f))
}
