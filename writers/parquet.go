package writers

import (
	"bufio"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/table"
)

// DefaultParquetRowGroupRows is the number of rows the Parquet writer
// buffers before it writes them out as one row group.
const DefaultParquetRowGroupRows = 64 * 1024

// parquetRowGroupBytes caps the text a row group buffers: a row group is
// also written out once its string cells add up to this many bytes, so
// that long messages cannot make the buffer grow past it.
const parquetRowGroupBytes = 64 << 20

// Arrow field metadata keys under which the Parquet writer stores each
// column's role, display format and note (kept in the file through the
// stored Arrow schema, "ARROW:schema").
const (
	ParquetRoleKey   = "riskbatch.role"
	ParquetFormatKey = "riskbatch.format"
	ParquetNoteKey   = "riskbatch.note"
)

// parquetWriter writes a Parquet file through pqarrow, one row group per
// rowGroupRows rows, Snappy-compressed.
//
// A column whose Source is an arrow.DataType (a column read from a Parquet
// file) is written with that type: integers of every width, floats,
// decimals with their precision and scale, timestamps with their unit and
// time zone, dates, times, UUIDs, binary values (a Text cell "0x…" of
// lower-case hexadecimal digit pairs spells bytes, as the Parquet reader
// writes binary values that are not text), and nested types (lists,
// structs, maps), rebuilt from the JSON text of their Nested cells as
// Arrow's array builders read it.
//
// Other columns take their type from table.Column.Kind: Number → DOUBLE,
// Integer → INT64, Bool → BOOLEAN, Date → DATE (date32), Timestamp →
// TIMESTAMP in the unit of the column's cell in the first row
// (microseconds when it is empty, milliseconds for seconds, which Parquet
// lacks), adjusted to UTC when that cell is an instant in UTC, TimeOfDay →
// TIME likewise (time32 for milliseconds, time64 for micro- and
// nanoseconds), and Text, Decimal, Nested
// and Empty (unknown) → UTF8 string holding the cell's String(): a decimal
// in plain notation (exact, whatever its digits; a DECIMAL type would need
// one precision and scale for the whole column), a nested value as JSON.
// All columns are nullable; an empty cell is a null.
//
// A cell of another kind than its column is converted when that is
// lossless: an Integer into a DOUBLE column when float64 holds it exactly,
// a Number with an integral value into an INT64 column, a timestamp into a
// coarser unit when it has no finer part, any cell into a string column as
// its String(). A cell that cannot be converted (text in a number column,
// a fraction in an integer column, a boolean in a number column, a value
// beyond the column's precision or range) is written as a null and
// counted: see NulledCells.
type parquetWriter struct {
	lifecycle
	rowGroupRows  int // rows per row group; set before WriteHeader
	rowGroupBytes int // string bytes per row group

	buf     *bufio.Writer
	fw      rowGroupFile // nil until the first row (or Close) fixes the schema
	schema  *arrow.Schema
	columns []columnBuilder
	pending int // rows buffered
	strLen  int // bytes of strings buffered
	nulled  int64
	filled  []bool // by column: a value on some row of the run (see WriteRows)
	// cellCols are the columns of a run that come as cells (see
	// markFilled).
	cellCols []int
	// nulls holds an array of nulls of each type written so far, at
	// least a row group long, for the columns empty on a whole row group.
	nulls map[string]arrow.Array
}

// columnBuilder is the builder of one column under its own type, so that
// appending a cell of the common types is a direct call rather than an
// interface lookup and a type assertion per cell. Exactly one of f64, i64,
// b, str, put and nested is set, as the column's type says.
type columnBuilder struct {
	f64 *array.Float64Builder
	i64 *array.Int64Builder
	b   *array.BooleanBuilder
	str *array.StringBuilder
	// put appends a cell to a column of another type, built by typed.
	put   putter
	typed array.Builder
	// nested, for a column of a nested type: the JSON text of each
	// buffered cell ("null" for a null), read into an array of type dt
	// when the row group is written.
	nested *[]string
	dt     arrow.DataType
	// builder is the builder of all but nested columns, to release.
	builder array.Builder
	// owed counts the nulls appended by WriteRows to a column empty so
	// far in the row group but not yet to builder: a column that stays
	// empty is written as a ready-made array of nulls (see nullArray),
	// and one that takes a value gets them first (see settle).
	owed int
	// chunks are the column's values in the row group so far that are
	// no longer in the builder: arrays WriteColumns took, and the
	// builder's values before each (see cut). Those from merged on are
	// small, and merged into one when there are many (see coalesce).
	chunks []arrow.Array
	merged int
}

// coalesceChunks is how many small chunks a column holds before coalesce
// merges them, and coalescedRows the rows of a chunk that is no longer
// small: the runs WriteColumns is given are as short as a Parquet input's
// record batches, and a file of row groups of ten rows gave each column
// 6,500 chunks of ten values each per row group, an Arrow array each (300
// MB for 60 columns of bounds, against 110 MB for its pass-through).
// A chunk of largeChunkRows or more is not small: it is held as it came,
// the small ones before it merged into one, at most
// 2·rowGroupRows/largeChunkRows arrays a column (512 a row group).
const (
	coalesceChunks = 32
	coalescedRows  = 16384
	largeChunkRows = 256
)

// coalesce merges the column's small chunks into one when there are
// coalesceChunks of them, so that a row group holds at most about
// coalesceChunks + rowGroupRows/coalescedRows arrays a column whatever
// the length of the runs. Runs of largeChunkRows or more (an evaluated
// batch's) are not copied: merging the bound columns' batches of 512 rows
// copied every value once, 800 MB for 10⁶ rows of every column; the small
// ones before such a run are merged into one, and runs of a few rows are
// copied again as the merged chunk grows to coalescedRows.
func (col *columnBuilder) coalesce() error {
	end := len(col.chunks)
	if col.chunks[end-1].Len() >= largeChunkRows {
		if err := col.merge(end - 1); err != nil {
			return err
		}
		col.merged = len(col.chunks)
		return nil
	}
	if end-col.merged < coalesceChunks {
		return nil
	}
	if err := col.merge(end); err != nil {
		return err
	}
	if last := col.chunks[len(col.chunks)-1]; col.merged == len(col.chunks)-1 && last.Len() >= coalescedRows {
		col.merged = len(col.chunks)
	}
	return nil
}

// merge replaces the small chunks from col.merged up to end by one array
// of their values, the chunks after end kept after it. Dictionary,
// extension and nested arrays are left as they come.
func (col *columnBuilder) merge(end int) error {
	small := col.chunks[col.merged:end]
	if len(small) < 2 {
		return nil
	}
	switch small[0].DataType().(type) {
	case *arrow.DictionaryType, arrow.ExtensionType, arrow.NestedType:
		return nil
	}
	one, err := array.Concatenate(small, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	for _, c := range small {
		c.Release()
	}
	col.chunks[col.merged] = one
	n := col.merged + 1 + copy(col.chunks[col.merged+1:], col.chunks[end:])
	clear(col.chunks[n:])
	col.chunks = col.chunks[:n]
	return nil
}

// settle appends the nulls owed to the column's builder.
func (col *columnBuilder) settle() {
	if col.owed > 0 {
		col.builder.AppendNulls(col.owed)
		col.owed = 0
	}
}

func newParquet(path string, opts Options) (*parquetWriter, error) {
	out, err := openOutput(path, opts, FormatParquet)
	if err != nil {
		return nil, err
	}
	return &parquetWriter{
		lifecycle:     lifecycle{out: out},
		rowGroupRows:  DefaultParquetRowGroupRows,
		rowGroupBytes: parquetRowGroupBytes,
	}, nil
}

// WriteHeader records the columns. The schema is fixed by the first row
// (see columnType), or by Close when there is none.
func (w *parquetWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	if w.rowGroupRows < 1 {
		w.rowGroupRows = DefaultParquetRowGroupRows
	}
	return nil
}

// start fixes the schema from the columns and the first row (nil when
// there is none) and makes the columns' builders. The file is opened with
// the first row group (see open).
func (w *parquetWriter) start(first []table.Cell) error {
	fields := make([]arrow.Field, len(w.cols))
	for i, c := range w.cols {
		var cell table.Cell
		if first != nil {
			cell = first[i]
		}
		keys := []string{ParquetRoleKey, ParquetFormatKey}
		vals := []string{roleName(c.Role), formatName(c.Format)}
		if c.Note != "" {
			keys = append(keys, ParquetNoteKey)
			vals = append(vals, c.Note)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: columnType(c, cell), Nullable: true, Metadata: arrow.NewMetadata(keys, vals)}
	}
	w.schema = arrow.NewSchema(fields, nil)
	w.columns = make([]columnBuilder, len(fields))
	for i, f := range fields {
		col := &w.columns[i]
		col.dt = f.Type
		if isNested(f.Type) {
			col.nested = new([]string)
			continue
		}
		b := array.NewBuilder(memory.DefaultAllocator, f.Type)
		col.builder = b
		switch f.Type.ID() {
		case arrow.FLOAT64:
			col.f64 = b.(*array.Float64Builder)
		case arrow.INT64:
			col.i64 = b.(*array.Int64Builder)
		case arrow.BOOL:
			col.b = b.(*array.BooleanBuilder)
		case arrow.STRING:
			col.str = b.(*array.StringBuilder)
		default:
			col.typed, col.put = b, putterFor(f.Type, b)
		}
	}
	return nil
}

// Write buffers one row and writes a row group when the buffer is full.
func (w *parquetWriter) Write(cells []table.Cell) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	if w.schema == nil {
		if err := w.start(cells); err != nil {
			return err
		}
	}
	for i := range cells {
		w.appendCell(i, &cells[i])
	}
	w.pending++
	w.rows++
	if w.pending >= w.rowGroupRows || w.strLen >= w.rowGroupBytes {
		return w.flush()
	}
	return nil
}

// appendCell appends *c to column i, converting it or writing a null as
// the type doc above says.
func (w *parquetWriter) appendCell(i int, c *table.Cell) {
	col := &w.columns[i]
	if col.owed > 0 {
		col.settle()
	}
	switch {
	case col.f64 != nil: // a Number, or an Integer that float64 holds exactly
		v, ok := c.Num, c.Kind == table.Number
		if c.Kind == table.Integer {
			v, ok = float64(c.Int), exactFloat(c.Int)
		}
		appendOrNull(w, col.f64, c, v, ok)
	case col.i64 != nil: // an Integer, or a Number with a whole value that int64 holds
		v, ok := c.Int, c.Kind == table.Integer
		if c.Kind == table.Number {
			v, ok = int64(c.Num), integral(c.Num)
		}
		appendOrNull(w, col.i64, c, v, ok)
	case col.b != nil:
		appendOrNull(w, col.b, c, c.Bool, c.Kind == table.Bool)
	case col.str != nil:
		if c.Kind == table.Empty {
			col.str.AppendNull()
			return
		}
		s := c.String()
		col.str.Append(s)
		w.strLen += len(s)
	case col.nested != nil:
		text := "null"
		if c.Kind == table.Nested || (c.Kind == table.Text && !c.IsEmpty()) {
			if validJSONValue(col.dt, c.Str) {
				text = c.Str
			} else {
				w.nulled++
			}
		} else {
			w.nullUnlessBlank(c)
		}
		*col.nested = append(*col.nested, text)
		w.strLen += len(text)
	default:
		switch {
		case c.Kind == table.Empty:
			col.typed.AppendNull()
		case c.Kind == table.Text && c.IsEmpty() && !holdsText(col.dt):
			col.typed.AppendNull() // a blank stands for an empty cell
		case col.put(*c):
			w.strLen += len(c.Str)
		default:
			col.typed.AppendNull()
			w.nulled++
		}
	}
}

// holdsText reports whether a column of type dt holds a cell's text as it
// is, a blank one too: a string, or binary (a Parquet reader's cell of an
// empty binary value, or of spaces, is a blank text; see
// readers.textFromBytes).
func holdsText(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW, arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
		return true
	}
	return false
}

// validJSONValue reports whether text is one value of type dt as Arrow's
// array builders read JSON.
func validJSONValue(dt arrow.DataType, text string) bool {
	arr, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader("["+text+"]"))
	if err != nil {
		return false
	}
	defer arr.Release()
	return arr.Len() == 1
}

// appender is an Arrow array builder of values of type T.
type appender[T any] interface {
	Append(T)
	AppendNull()
}

// appendOrNull appends v to b when ok, else a null, counting c as nulled
// (see nullUnlessBlank).
func appendOrNull[T any, B appender[T]](w *parquetWriter, b B, c *table.Cell, v T, ok bool) {
	if ok {
		b.Append(v)
		return
	}
	b.AppendNull()
	w.nullUnlessBlank(c)
}

// nullUnlessBlank counts a nulled cell, except a blank text cell, which
// stands for an empty cell anyway.
func (w *parquetWriter) nullUnlessBlank(c *table.Cell) {
	if !c.IsEmpty() {
		w.nulled++
	}
}

// exactFloat reports whether float64 holds v exactly.
func exactFloat(v int64) bool {
	f := float64(v)
	return f >= -(1<<63) && f < (1<<63) && int64(f) == v
}

// integral reports whether v is a whole number that int64 holds.
func integral(v float64) bool {
	return v == math.Trunc(v) && v >= -(1<<63) && v < (1<<63)
}

// flush writes the buffered rows as one row group: each column's chunks
// (arrays WriteColumns took) and the values its builder holds, in row
// order.
func (w *parquetWriter) flush() error {
	if w.pending == 0 {
		return nil
	}
	for i := range w.columns {
		if err := w.cut(i); err != nil {
			return err
		}
	}
	rows := int64(w.pending)
	w.pending, w.strLen = 0, 0
	cols := make([][]arrow.Array, len(w.columns))
	for i := range w.columns {
		cols[i] = w.columns[i].chunks
	}
	defer func() {
		for i := range w.columns {
			w.columns[i].releaseChunks()
		}
	}()
	if w.fw == nil {
		if err := w.open(cols); err != nil {
			return err
		}
	}
	if err := w.fw.writeRowGroup(cols, rows); err != nil {
		return w.fail(fmt.Errorf("writers: writing a row group to %s: %w", w.out.target, err))
	}
	return nil
}

// cut ends the values column i buffers since its last chunk (its
// builder's, the nulls it owes, its nested text) as one more chunk, if
// there are any: what WriteColumns appends next comes after them.
func (w *parquetWriter) cut(i int) error {
	col := &w.columns[i]
	switch {
	case col.nested != nil && len(*col.nested) == 0:
		return nil
	case col.builder != nil && col.builder.Len() == 0 && col.owed == 0:
		return nil
	case col.owed > 0 && col.builder.Len() == 0:
		col.chunks = append(col.chunks, w.nullArray(col.dt, col.owed))
		col.owed = 0
		return nil
	}
	if col.builder != nil {
		col.settle()
	}
	var arr arrow.Array
	switch {
	case col.f64 != nil:
		arr = col.f64.NewArray()
	case col.i64 != nil:
		arr = col.i64.NewArray()
	case col.b != nil:
		arr = col.b.NewArray()
	case col.str != nil:
		arr = col.str.NewArray()
	case col.nested != nil:
		text := "[" + strings.Join(*col.nested, ",") + "]"
		*col.nested = (*col.nested)[:0]
		var err error
		if arr, _, err = array.FromJSON(memory.DefaultAllocator, col.dt, strings.NewReader(text)); err != nil {
			return w.fail(fmt.Errorf("writers: writing column %s of %s: %w", w.cols[i].Name, w.out.target, err))
		}
	default:
		arr = col.typed.NewArray()
	}
	col.chunks = append(col.chunks, arr)
	return nil
}

// releaseChunks lets go of the column's chunks.
func (col *columnBuilder) releaseChunks() {
	for _, c := range col.chunks {
		c.Release()
	}
	clear(col.chunks)
	col.chunks = col.chunks[:0]
	col.merged = 0
}

// nullArray returns an array of n nulls of type dt, cut from one kept
// for the type: the writer then neither grows a builder's buffers nor
// allocates new ones for the row groups of a column that stays empty.
func (w *parquetWriter) nullArray(dt arrow.DataType, n int) arrow.Array {
	// The fingerprint of an extension type is that of its storage type:
	// two extension types over one storage share a key, so the kept
	// array's type is checked too.
	key := dt.Fingerprint()
	kept := w.nulls[key]
	if kept == nil || kept.Len() < n || !arrow.TypeEqual(kept.DataType(), dt) {
		if kept != nil {
			kept.Release()
		}
		if w.nulls == nil {
			w.nulls = map[string]arrow.Array{}
		}
		kept = array.MakeArrayOfNull(memory.DefaultAllocator, dt, max(n, w.rowGroupRows))
		w.nulls[key] = kept
	}
	return array.NewSlice(kept, 0, int64(n))
}

// NulledCells returns how many cells could not be represented in their
// column's type and were written as nulls.
func (w *parquetWriter) NulledCells() int64 { return w.nulled }

// Close writes the last row group and the footer and renames the file
// into place.
func (w *parquetWriter) Close() error {
	if err := w.beginClose(); err != nil {
		w.release()
		return err
	}
	var err error
	if w.schema == nil {
		err = w.start(nil) // no row: the schema from the header alone
	}
	if err == nil {
		err = w.flush()
		if err == nil && w.fw == nil {
			err = w.open(nil) // no row group
		}
		if w.fw != nil {
			if cerr := w.fw.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("writers: finishing the Parquet file %s: %w", w.out.target, cerr)
			}
		}
	}
	if err == nil {
		if ferr := w.buf.Flush(); ferr != nil {
			err = fmt.Errorf("writers: writing %s: %w", w.out.target, ferr)
		}
	}
	w.release()
	if err != nil {
		_ = w.out.abort()
		return err
	}
	return w.out.commit()
}

// release frees the Arrow builders.
func (w *parquetWriter) release() {
	for i := range w.columns {
		col := &w.columns[i]
		if col.builder != nil {
			col.builder.Release()
		}
		col.releaseChunks()
	}
	w.columns = nil
	for _, a := range w.nulls {
		a.Release()
	}
	w.nulls = nil
}

// Abort removes the temporary file.
func (w *parquetWriter) Abort() error {
	if !w.beginAbort() {
		return nil
	}
	w.release()
	return w.out.abort()
}
