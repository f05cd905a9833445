package writers

import (
	"bufio"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

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
// Column types follow table.Column.Kind: Number → DOUBLE, Integer → INT64,
// Bool → BOOLEAN, Text and Empty (unknown) → UTF8 string; all nullable. An
// empty cell is a null. A cell of another kind than its column is
// converted when that is lossless: an Integer into a DOUBLE column when
// float64 holds it exactly, a Number with an integral value into an INT64
// column, any cell into a string column as its String(). A cell that cannot
// be converted (text in a number column, a fraction in an integer column,
// a boolean in a number column) is written as a null and counted: see
// NulledCells.
type parquetWriter struct {
	lifecycle
	rowGroupRows  int // rows per row group; set before WriteHeader
	rowGroupBytes int // string bytes per row group

	buf     *bufio.Writer
	fw      *pqarrow.FileWriter
	rb      *array.RecordBuilder
	kinds   []table.Kind // the storage kind of each column
	cols    []columnBuilder
	pending int // rows in rb
	strLen  int // bytes of strings in rb
	nulled  int64
}

// columnBuilder is the builder of one column under its own type, so that
// appending a cell is a direct call rather than an interface lookup and a
// type assertion per cell. Exactly one field is set, as the column's
// storage kind says.
type columnBuilder struct {
	f64 *array.Float64Builder
	i64 *array.Int64Builder
	b   *array.BooleanBuilder
	str *array.StringBuilder
}

// parquetDictionaryBytes is the dictionary page size above which a column
// chunk falls back from dictionary to plain encoding. Text columns with few
// distinct values (status, message, mechanism) stay dictionary-encoded;
// columns of identifiers or free text stop paying for the hash table after
// a few thousand rows of each row group.
const parquetDictionaryBytes = 64 << 10

func newParquet(path string) (*parquetWriter, error) {
	out, err := createAtomic(path)
	if err != nil {
		return nil, err
	}
	return &parquetWriter{
		lifecycle:     lifecycle{out: out},
		rowGroupRows:  DefaultParquetRowGroupRows,
		rowGroupBytes: parquetRowGroupBytes,
	}, nil
}

// storageKind is the Parquet representation of a column of kind k.
func storageKind(k table.Kind) table.Kind {
	switch k {
	case table.Number, table.Integer, table.Bool:
		return k
	}
	return table.Text
}

// WriteHeader fixes the schema and opens the Parquet writer.
func (w *parquetWriter) WriteHeader(cols []table.Column) error {
	if err := w.beginHeader(cols); err != nil {
		return err
	}
	if w.rowGroupRows < 1 {
		w.rowGroupRows = DefaultParquetRowGroupRows
	}
	fields := make([]arrow.Field, len(cols))
	w.kinds = make([]table.Kind, len(cols))
	for i, c := range cols {
		k := storageKind(c.Kind)
		w.kinds[i] = k
		var t arrow.DataType
		switch k {
		case table.Number:
			t = arrow.PrimitiveTypes.Float64
		case table.Integer:
			t = arrow.PrimitiveTypes.Int64
		case table.Bool:
			t = arrow.FixedWidthTypes.Boolean
		default:
			t = arrow.BinaryTypes.String
		}
		keys := []string{ParquetRoleKey, ParquetFormatKey}
		vals := []string{roleName(c.Role), formatName(c.Format)}
		if c.Note != "" {
			keys = append(keys, ParquetNoteKey)
			vals = append(vals, c.Note)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: t, Nullable: true, Metadata: arrow.NewMetadata(keys, vals)}
	}
	schema := arrow.NewSchema(fields, nil)
	popts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(w.rowGroupRows)),
		parquet.WithDictionaryPageSizeLimit(parquetDictionaryBytes),
	}
	for i, c := range cols {
		// Numbers (bounds, parameters) are nearly all distinct: a
		// dictionary only costs a hash per value before the fallback.
		if k := w.kinds[i]; k == table.Number || k == table.Integer {
			popts = append(popts, parquet.WithDictionaryPath(parquet.ColumnPath{c.Name}, false))
		}
	}
	props := parquet.NewWriterProperties(popts...)
	// The bufio.Writer also keeps pqarrow from closing the file: the
	// temporary file must stay open for the sync before the rename.
	w.buf = bufio.NewWriterSize(w.out.f, 1<<20)
	fw, err := pqarrow.NewFileWriter(schema, w.buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return w.fail(fmt.Errorf("writers: starting the Parquet file %s: %w", w.out.target, err))
	}
	w.fw = fw
	w.rb = array.NewRecordBuilder(memory.DefaultAllocator, schema)
	w.cols = make([]columnBuilder, len(cols))
	for i, k := range w.kinds {
		switch b := w.rb.Field(i); k {
		case table.Number:
			w.cols[i].f64 = b.(*array.Float64Builder)
		case table.Integer:
			w.cols[i].i64 = b.(*array.Int64Builder)
		case table.Bool:
			w.cols[i].b = b.(*array.BooleanBuilder)
		default:
			w.cols[i].str = b.(*array.StringBuilder)
		}
	}
	return nil
}

// Write buffers one row and writes a row group when the buffer is full.
func (w *parquetWriter) Write(cells []table.Cell) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	for i, c := range cells {
		w.appendCell(i, c)
	}
	w.pending++
	w.rows++
	if w.pending >= w.rowGroupRows || w.strLen >= w.rowGroupBytes {
		return w.flush()
	}
	return nil
}

// appendCell appends c to column i, converting it or writing a null as the
// type doc above says.
func (w *parquetWriter) appendCell(i int, c table.Cell) {
	col := &w.cols[i]
	switch w.kinds[i] {
	case table.Number:
		switch {
		case c.Kind == table.Number:
			col.f64.Append(c.Num)
		case c.Kind == table.Integer && exactFloat(c.Int):
			col.f64.Append(float64(c.Int))
		default:
			col.f64.AppendNull()
			w.nullUnlessBlank(c)
		}
	case table.Integer:
		switch {
		case c.Kind == table.Integer:
			col.i64.Append(c.Int)
		case c.Kind == table.Number && integral(c.Num):
			col.i64.Append(int64(c.Num))
		default:
			col.i64.AppendNull()
			w.nullUnlessBlank(c)
		}
	case table.Bool:
		if c.Kind == table.Bool {
			col.b.Append(c.Bool)
		} else {
			col.b.AppendNull()
			w.nullUnlessBlank(c)
		}
	default:
		if c.Kind == table.Empty {
			col.str.AppendNull()
			return
		}
		s := c.String()
		col.str.Append(s)
		w.strLen += len(s)
	}
}

// nullUnlessBlank counts a nulled cell, except a blank text cell, which
// stands for an empty cell anyway.
func (w *parquetWriter) nullUnlessBlank(c table.Cell) {
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

// flush writes the buffered rows as one row group.
func (w *parquetWriter) flush() error {
	if w.pending == 0 {
		return nil
	}
	rec := w.rb.NewRecord()
	defer rec.Release()
	w.pending, w.strLen = 0, 0
	if err := w.fw.Write(rec); err != nil {
		return w.fail(fmt.Errorf("writers: writing a row group to %s: %w", w.out.target, err))
	}
	return nil
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
	err := w.flush()
	if cerr := w.fw.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writers: finishing the Parquet file %s: %w", w.out.target, cerr)
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
	if w.rb != nil {
		w.rb.Release()
		w.rb = nil
	}
}

// Abort removes the temporary file.
func (w *parquetWriter) Abort() error {
	if !w.beginAbort() {
		return nil
	}
	w.release()
	return w.out.abort()
}

// roleName names a role for the Parquet field metadata.
func roleName(r table.Role) string {
	switch r {
	case table.Input:
		return "input"
	case table.Output:
		return "output"
	case table.Status:
		return "status"
	case table.Message:
		return "message"
	}
	return fmt.Sprintf("role(%d)", r)
}

// formatName names a display format for the Parquet field metadata.
func formatName(f table.Format) string {
	switch f {
	case table.General:
		return "general"
	case table.Probability:
		return "probability"
	case table.Real:
		return "real"
	case table.Count:
		return "count"
	}
	return fmt.Sprintf("format(%d)", f)
}
