package readers

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/table"
)

// DefaultBatchRows is the number of rows a Parquet file is read by when
// Options.BatchRows is 0.
const DefaultBatchRows = 4096

// parquetTable reads a Parquet file one record batch at a time (see
// Options.BatchRows), never the whole file: memory holds one batch, plus
// the pages being decoded. Row groups are read one after the other, each
// with its own record reader: a batch that spans two row groups of a
// dictionary-encoded column has two dictionaries, which pqarrow's record
// reader (arrow/go v17) rejects with "not implemented".
//
// Columns must be flat. Their kinds, reported by Columns, and their cells:
//   - integers of every width, signed or unsigned: Integer (an unsigned
//     64-bit value above math.MaxInt64 is a Number cell, the only cell
//     whose kind differs from its column's);
//   - float16, float32, float64: Number;
//   - decimal128, decimal256: Number, the float64 nearest to the decimal
//     (exact up to 15 significant digits; larger decimals are rounded and
//     those beyond the float64 range become ±Inf);
//   - string, large string, string view: Text; an empty string is a Text
//     cell holding "", distinct from null;
//   - binary of any kind: Text, the bytes as they are when they are valid
//     UTF-8, else "0x" followed by their hexadecimal digits;
//   - dictionary-encoded columns: decoded through the dictionary, with the
//     kind of the dictionary's values;
//   - bool: Bool;
//   - date32, date64: Text "2006-01-02"; timestamp: Text in RFC 3339 form,
//     in UTC with a "Z" when the column has a time zone, without a zone
//     when it has none (a local date and time); time32, time64: Text
//     "15:04:05.999999999"; duration: Text such as "1h30m0s";
//   - a column of type null: Empty.
//
// Nulls are Empty cells. Any other type (list, struct, map, union,
// interval) makes Open fail with an error naming the column.
//
// Row numbers are the 1-based index of the data row plus one, so the first
// data row is row 2, as in a spreadsheet whose header is row 1.
type parquetTable struct {
	name    string
	src     io.ReaderAt
	size    int64
	lim     Limits
	pf      *file.Reader
	fr      *pqarrow.FileReader
	rr      pqarrow.RecordReader // of row group rg; nil before the first
	rg      int                  // the row group being read
	cols    []table.Column
	closer  io.Closer
	getters []getter // for the current batch
	i, n    int      // next row in the batch, rows in the batch
	rows    int      // data rows returned so far
	err     error    // io.EOF once the stream ended
	closed  bool
}

// getter returns the cell of row i of a column of the current batch.
type getter func(i int) table.Cell

// openParquet reads a Parquet file's schema and prepares to read batches.
func openParquet(name string, r io.ReaderAt, size int64, closer io.Closer, opts Options) (t *parquetTable, err error) {
	var pf *file.Reader
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fileError(name, fmt.Errorf("not a readable Parquet file: the decoder failed: %v", p))
		}
		if err != nil && pf != nil {
			_ = pf.Close()
		}
	}()
	notParquet := func(err error) error {
		var le *LimitError
		if !errors.As(err, &le) {
			err = fmt.Errorf("not a readable Parquet file: %w", err)
		}
		return fileError(name, err)
	}
	if err := checkParquetFooter(r, size, opts.Limits); err != nil {
		return nil, notParquet(err)
	}
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true // read pages as needed, not whole column chunks
	pf, err = file.NewParquetReader(io.NewSectionReader(r, 0, size), file.WithReadProps(props))
	if err != nil {
		return nil, fileError(name, fmt.Errorf("not a readable Parquet file: %w", err))
	}
	dropStoredArrowSchema(pf)
	if err := checkParquetMetadata(pf, size, opts.Limits); err != nil {
		return nil, notParquet(err)
	}
	batch := opts.BatchRows
	if batch <= 0 {
		batch = DefaultBatchRows
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batch)}, memory.DefaultAllocator)
	if err != nil {
		return nil, fileError(name, fmt.Errorf("not a readable Parquet file: %w", err))
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, fileError(name, fmt.Errorf("not a readable Parquet file: %w", err))
	}
	fields := schema.Fields()
	if len(fields) == 0 {
		return nil, fileError(name, errors.New("the Parquet file has no columns"))
	}
	cols := make([]table.Column, len(fields))
	for i, f := range fields {
		k, err := kindOf(f.Type)
		if err != nil {
			return nil, &table.Error{
				Pos: table.Position{File: name, Column: i, ColumnName: f.Name},
				Err: fmt.Errorf("%w; only flat columns of numbers, text, booleans, dates and times can be read", err),
			}
		}
		cols[i] = table.Column{Name: f.Name, Kind: k}
	}
	return &parquetTable{name: name, src: r, size: size, lim: opts.Limits, pf: pf, fr: fr, rg: -1, cols: cols, closer: closer}, nil
}

// File returns the file's name as given to Open.
func (t *parquetTable) File() string { return t.name }

// Sheet returns "": Parquet files have no sheets.
func (t *parquetTable) Sheet() string { return "" }

// Columns returns the file's columns with their kinds.
func (t *parquetTable) Columns() []table.Column { return t.cols }

// Next returns the next row. Errors end the stream (they come from a
// damaged file): the next call returns io.EOF.
func (t *parquetTable) Next() (row table.Row, err error) {
	if t.err != nil {
		return table.Row{}, t.err
	}
	if t.closed {
		return table.Row{}, fileError(t.name, errors.New("read after close"))
	}
	defer func() {
		if p := recover(); p != nil {
			t.err = io.EOF
			row, err = table.Row{}, t.fatal(fmt.Errorf("the decoder failed: %v", p))
		}
	}()
	for t.i >= t.n {
		if t.rr == nil || !t.rr.Next() {
			if t.rr != nil {
				err := t.rr.Err()
				t.rr.Release()
				t.rr = nil
				if err != nil && !errors.Is(err, io.EOF) {
					t.err = io.EOF
					return table.Row{}, t.fatal(fmt.Errorf("row group %d: %w", t.rg, err))
				}
			}
			t.rg++
			if t.rg >= t.pf.NumRowGroups() {
				t.err = io.EOF
				return table.Row{}, io.EOF
			}
			if err := t.checkPages(t.rg); err != nil {
				t.err = io.EOF
				return table.Row{}, err
			}
			rr, err := t.fr.GetRecordReader(context.Background(), nil, []int{t.rg})
			if err != nil {
				t.err = io.EOF
				return table.Row{}, t.fatal(fmt.Errorf("row group %d: %w", t.rg, err))
			}
			t.rr = rr
			continue
		}
		rec := t.rr.Record()
		if int(rec.NumCols()) != len(t.cols) {
			t.err = io.EOF
			return table.Row{}, t.fatal(fmt.Errorf("a batch has %d columns, the schema %d", rec.NumCols(), len(t.cols)))
		}
		t.getters = t.getters[:0]
		for j := range len(t.cols) {
			g, err := getterFor(rec.Column(j))
			if err != nil {
				t.err = io.EOF
				return table.Row{}, &table.Error{Pos: table.Position{File: t.name, Row: t.rows + 2, Column: j, ColumnName: t.cols[j].Name}, Err: fatalError{err}}
			}
			t.getters = append(t.getters, g)
		}
		t.i, t.n = 0, int(rec.NumRows())
	}
	cells := make([]table.Cell, len(t.getters))
	for j, g := range t.getters {
		cells[j] = g(t.i)
	}
	t.i++
	t.rows++
	return table.Row{Pos: table.Position{File: t.name, Row: t.rows + 1, Column: -1}, Cells: cells}, nil
}

// Close releases the file. It may be called more than once.
func (t *parquetTable) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	t.getters = nil
	if t.rr != nil {
		t.rr.Release()
		t.rr = nil
	}
	err := t.pf.Close()
	if t.closer != nil {
		if cerr := t.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// checkPages checks the page headers of every chunk of row group g before
// Arrow reads them (see checkChunkPages).
func (t *parquetTable) checkPages(g int) error {
	md := t.pf.MetaData()
	rg := md.RowGroup(g)
	legacy := isLegacyWriter(md)
	for j := range t.cols {
		cc, err := rg.ColumnChunk(j)
		if err == nil {
			err = checkChunkPages(t.src, t.size, cc, md.Schema.Column(j), legacy, t.lim)
		}
		if err != nil {
			var le *LimitError
			if !errors.As(err, &le) {
				err = fmt.Errorf("the Parquet file is damaged: row group %d: %w", g, err)
			}
			return &table.Error{Pos: table.Position{File: t.name, Row: t.rows + 2, Column: j, ColumnName: t.cols[j].Name}, Err: fatalError{err}}
		}
	}
	return nil
}

// fatal is an error that ends the stream, at the next row.
func (t *parquetTable) fatal(err error) error {
	return &table.Error{
		Pos: table.Position{File: t.name, Row: t.rows + 2, Column: -1},
		Err: fatalError{fmt.Errorf("the Parquet file is damaged: %w", err)},
	}
}

// kindOf is the kind of the cells of a column of type dt.
func kindOf(dt arrow.DataType) (table.Kind, error) {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return table.Integer, nil
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return table.Number, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW,
		arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY,
		arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		return table.Text, nil
	case arrow.BOOL:
		return table.Bool, nil
	case arrow.NULL:
		return table.Empty, nil
	case arrow.DICTIONARY:
		if d, ok := dt.(*arrow.DictionaryType); ok {
			return kindOf(d.ValueType)
		}
	case arrow.EXTENSION:
		if e, ok := dt.(arrow.ExtensionType); ok {
			return kindOf(e.StorageType())
		}
	}
	return table.Empty, fmt.Errorf("the column's type %s is not supported", dt)
}

// getterFor returns the cells of a column of a batch.
func getterFor(arr arrow.Array) (getter, error) {
	g, err := valueGetter(arr)
	if err != nil || arr.NullN() == 0 {
		return g, err
	}
	return func(i int) table.Cell {
		if arr.IsNull(i) {
			return table.Cell{}
		}
		return g(i)
	}, nil
}

// valueGetter returns the cells of the non-null values of a column.
func valueGetter(arr arrow.Array) (getter, error) {
	switch a := arr.(type) {
	case *array.Int8:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Int16:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Int32:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Int64:
		return func(i int) table.Cell { return table.IntegerCell(a.Value(i)) }, nil
	case *array.Uint8:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Uint16:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Uint32:
		return func(i int) table.Cell { return table.IntegerCell(int64(a.Value(i))) }, nil
	case *array.Uint64:
		return func(i int) table.Cell {
			v := a.Value(i)
			if v > math.MaxInt64 {
				return table.NumberCell(float64(v))
			}
			return table.IntegerCell(int64(v))
		}, nil
	case *array.Float16:
		return func(i int) table.Cell { return table.NumberCell(float64(a.Value(i).Float32())) }, nil
	case *array.Float32:
		return func(i int) table.Cell { return table.NumberCell(float64(a.Value(i))) }, nil
	case *array.Float64:
		return func(i int) table.Cell { return table.NumberCell(a.Value(i)) }, nil
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(i int) table.Cell {
			v := a.Value(i)
			hi, lo := v.HighBits(), v.LowBits()
			if (hi == 0 && lo <= math.MaxInt64) || (hi == -1 && lo > math.MaxInt64) {
				return table.NumberCell(decimalFloat(strconv.FormatInt(int64(lo), 10), scale))
			}
			return table.NumberCell(decimalFloat(v.BigInt().String(), scale))
		}, nil
	case *array.Decimal256:
		scale := a.DataType().(*arrow.Decimal256Type).Scale
		return func(i int) table.Cell { return table.NumberCell(decimalFloat(a.Value(i).BigInt().String(), scale)) }, nil
	case *array.String:
		// Clone: the value points into the batch's buffers.
		return func(i int) table.Cell { return table.TextCell(strings.Clone(a.Value(i))) }, nil
	case *array.LargeString:
		return func(i int) table.Cell { return table.TextCell(strings.Clone(a.Value(i))) }, nil
	case *array.StringView:
		return func(i int) table.Cell { return table.TextCell(strings.Clone(a.Value(i))) }, nil
	case *array.Binary:
		return func(i int) table.Cell { return bytesCell(a.Value(i)) }, nil
	case *array.LargeBinary:
		return func(i int) table.Cell { return bytesCell(a.Value(i)) }, nil
	case *array.BinaryView:
		return func(i int) table.Cell { return bytesCell(a.Value(i)) }, nil
	case *array.FixedSizeBinary:
		return func(i int) table.Cell { return bytesCell(a.Value(i)) }, nil
	case *array.Boolean:
		return func(i int) table.Cell { return table.BoolCell(a.Value(i)) }, nil
	case *array.Date32:
		return func(i int) table.Cell { return table.TextCell(a.Value(i).ToTime().Format(time.DateOnly)) }, nil
	case *array.Date64:
		return func(i int) table.Cell { return table.TextCell(a.Value(i).ToTime().Format(time.DateOnly)) }, nil
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		layout := "2006-01-02T15:04:05.999999999"
		if tt.TimeZone != "" {
			layout = time.RFC3339Nano
		}
		return func(i int) table.Cell { return table.TextCell(a.Value(i).ToTime(tt.Unit).UTC().Format(layout)) }, nil
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(i int) table.Cell { return table.TextCell(a.Value(i).ToTime(unit).Format("15:04:05.999999999")) }, nil
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(i int) table.Cell { return table.TextCell(a.Value(i).ToTime(unit).Format("15:04:05.999999999")) }, nil
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit
		return func(i int) table.Cell { return table.TextCell(durationText(int64(a.Value(i)), unit)) }, nil
	case *array.Null:
		return func(int) table.Cell { return table.Cell{} }, nil
	case *array.Dictionary:
		values, err := getterFor(a.Dictionary())
		if err != nil {
			return nil, err
		}
		return func(i int) table.Cell { return values(a.GetValueIndex(i)) }, nil
	case array.ExtensionArray:
		return getterFor(a.Storage())
	}
	return nil, fmt.Errorf("the column's type %s is not supported", arr.DataType())
}

// decimalFloat is the float64 nearest to the decimal digits × 10^-scale
// (Num.ToFloat64 of arrow is not correctly rounded: 1.005 would become
// 1.0050000000000001).
func decimalFloat(digits string, scale int32) float64 {
	x, err := strconv.ParseFloat(digits+"e"+strconv.Itoa(int(-scale)), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN() // not reached: digits come from big.Int.String
	}
	return x // ±Inf or 0 when out of range, like the decimal's magnitude
}

// bytesCell is the Text cell of binary data.
func bytesCell(b []byte) table.Cell {
	if utf8.Valid(b) {
		return table.TextCell(string(b))
	}
	return table.TextCell("0x" + hex.EncodeToString(b))
}

// durationText formats a duration of v units.
func durationText(v int64, unit arrow.TimeUnit) string {
	m := int64(unit.Multiplier())
	if v > math.MaxInt64/m || v < math.MinInt64/m {
		return strconv.FormatInt(v, 10) + unit.String()
	}
	return time.Duration(v * m).String()
}

// dropStoredArrowSchema removes the serialized Arrow schema that Arrow
// writers store in a Parquet footer (key ARROW:schema) before pqarrow reads
// it. Arrow's IPC decoder trusts the lengths in that blob: one damaged byte
// made it allocate 177 GB and kill the process (found by fuzzing; a fatal
// out-of-memory cannot be recovered). The Parquet schema alone gives every
// type riskbatch reads; only Arrow-specific refinements (dictionary
// encoding of the Arrow side, large string types) are lost, and the cells
// are the same.
func dropStoredArrowSchema(pf *file.Reader) {
	md := pf.MetaData()
	if md == nil || md.FileMetaData == nil {
		return
	}
	kvs := md.FileMetaData.KeyValueMetadata
	kept := kvs[:0]
	for _, kv := range kvs {
		if kv != nil && kv.GetKey() != "ARROW:schema" {
			kept = append(kept, kv)
		}
	}
	md.FileMetaData.KeyValueMetadata = kept
}
