package readers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/riskbatch/riskbatch/table"
)

// DefaultBatchRows is the number of rows a Parquet file is read by when
// Options.BatchRows is 0.
const DefaultBatchRows = 4096

// parquetTable reads a Parquet file one record batch at a time (see
// Options.BatchRows), never the whole file, with arrow-go's pqarrow: every
// encoding (PLAIN, RLE_DICTIONARY, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT), data pages
// of versions 1 and 2, and the codecs UNCOMPRESSED, SNAPPY, GZIP, ZSTD,
// BROTLI and LZ4_RAW. The legacy LZ4 codec (Hadoop's framing), LZO,
// DELTA_BYTE_ARRAY on fixed-length values (which arrow-go does not decode)
// and encrypted columns are refused with an error that says so.
//
// Memory holds one batch, the pages being decoded, and the metadata of the
// row group being read: row groups are read one after the other, each with
// a reader of its own built from its own metadata (see parquetFooter), so
// that memory does not grow with their number.
//
// Columns keep their types (see kindOf for the cells of each type), and
// Columns reports each column's arrow.DataType as its Source, so that the
// Parquet writer writes the column back with the same type.
//
// A column shorter or longer than its batch, a row group that gives fewer
// or more rows than its metadata declares, and a file whose row groups give
// fewer or more rows than its footer declares end the stream with an error
// naming the file, the row group and (for a batch) the column: a file is
// never read in part without an error.
//
// Row numbers are the 1-based index of the data row plus one, so the first
// data row is row 2, as in a spreadsheet whose header is row 1.
type parquetTable struct {
	name   string
	src    io.ReaderAt
	size   int64
	lim    Limits
	batch  int64
	props  *parquet.ReaderProperties
	footer *parquetFooter
	cols   []table.Column
	types  []arrow.DataType // each column's type in the record batches
	closer io.Closer

	rg      int                  // the row group being read; -1 before the first
	pf      *file.Reader         // of row group rg
	rr      pqarrow.RecordReader // of row group rg
	rgRows  int64                // rows of row group rg read so far
	meta    []byte               // buffer for a row group's metadata
	spliced []byte               // buffer for the footer of one row group
	// faulty, when set (by tests), wraps each record reader, to
	// simulate an Arrow reader that returns wrong batches.
	faulty func(pqarrow.RecordReader) pqarrow.RecordReader

	// sel, when not nil, are the columns ReadBatch reads (see
	// SelectColumns): the Parquet leaf columns leaves, of which those in
	// dictLeaves are read as Arrow dictionary arrays.
	sel, leaves, dictLeaves []int
	// recycle, when not nil, allocates the batches of ReadBatch, whose
	// buffers are not used after the next call (see recycler).
	recycle *recycler

	getters []getter // for the current batch; nil for a column of nulls
	cellErr error    // set by a getter whose value cannot be read
	i, n    int      // next row in the batch, rows in the batch
	rows    int64    // data rows returned so far
	err     error    // io.EOF once the stream ended
	closed  bool
}

// openParquet reads a Parquet file's footer and schema and prepares to
// read its row groups.
func openParquet(name string, r io.ReaderAt, size int64, closer io.Closer, opts Options) (t *parquetTable, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fileError(name, fmt.Errorf("not a readable Parquet file: the decoder failed: %v", p))
		}
	}()
	notParquet := func(err error) error {
		var le *LimitError
		if !errors.As(err, &le) {
			err = fmt.Errorf("not a readable Parquet file: %w", err)
		}
		return fileError(name, err)
	}
	footer, err := readParquetFooter(r, size, opts.Limits)
	if err != nil {
		return nil, notParquet(err)
	}
	if err := footer.checkRows(); err != nil {
		return nil, notParquet(err)
	}
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true // read pages as needed, not whole column chunks
	// checkChunkPages applies the page limit, which --max-parquet-page-bytes
	// may raise above Arrow's own (256 MiB unpacked, 64 MiB packed; packed
	// data can be a little larger than unpacked).
	pageLimit := opts.Limits.ParquetPageBytes
	props.MaxUncompressedPageSize = max(pageLimit, parquet.DefaultMaxUncompressedPageSize)
	props.MaxCompressedPageSize = max(min(pageLimit, math.MaxInt64/2)*2, parquet.DefaultMaxCompressedPageSize)
	t = &parquetTable{name: name, src: r, size: size, lim: opts.Limits, props: props, footer: footer, rg: -1, closer: closer}
	t.batch = int64(opts.BatchRows)
	if t.batch <= 0 {
		t.batch = DefaultBatchRows
	}
	md, _, err := footer.metadata(nil, size, nil)
	if err != nil {
		return nil, notParquet(err)
	}
	if ncol := md.Schema.NumColumns(); int64(ncol) > opts.Limits.Columns {
		return nil, notParquet(limitError(limitColumns, opts.Limits.Columns, "the file has %s columns", groupDigits(int64(ncol))))
	}
	pf, err := file.NewParquetReader(io.NewSectionReader(r, 0, size), file.WithMetadata(md), file.WithReadProps(props))
	if err != nil {
		return nil, notParquet(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: t.batch}, memory.DefaultAllocator)
	if err != nil {
		return nil, notParquet(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, notParquet(err)
	}
	fields := schema.Fields()
	if len(fields) == 0 {
		return nil, fileError(name, errors.New("the Parquet file has no columns"))
	}
	t.cols = make([]table.Column, len(fields))
	t.types = make([]arrow.DataType, len(fields))
	for i, f := range fields {
		t.types[i] = f.Type
		k, err := kindOf(f.Type)
		if err != nil {
			return nil, &table.Error{Pos: table.Position{File: name, Column: i, ColumnName: f.Name}, Err: err}
		}
		t.cols[i] = table.Column{Name: f.Name, Kind: k, Source: sourceType(f.Type, md.Schema.Root().Field(i))}
	}
	return t, nil
}

// sourceType is the Source of a column of Arrow type dt whose Parquet
// schema node is n: dt, but for a JSON column, which pqarrow reads as
// binary, Arrow's JSON extension type over strings, so that the Parquet
// writer writes it back as JSON (its cells are the JSON text).
func sourceType(dt arrow.DataType, n schema.Node) arrow.DataType {
	if _, ok := n.LogicalType().(schema.JSONLogicalType); ok && dt.ID() == arrow.BINARY {
		if j, err := extensions.NewJSONType(arrow.BinaryTypes.String); err == nil {
			return j
		}
	}
	return dt
}

// File returns the file's name as given to Open.
func (t *parquetTable) File() string { return t.name }

// Sheet returns "": Parquet files have no sheets.
func (t *parquetTable) Sheet() string { return "" }

// NumRows returns the number of data rows the footer declares (the reader
// checks it against the rows its row groups hold): readers.RowCounter.
func (t *parquetTable) NumRows() int64 { return t.footer.numRows }

// Columns returns the file's columns with their kinds and Arrow types.
func (t *parquetTable) Columns() []table.Column { return t.cols }

// Next returns the next row. Errors end the stream (they come from a
// damaged file): the next call returns io.EOF. It is NextRows of one row.
func (t *parquetTable) Next() (table.Row, error) {
	var one [1]table.Row
	rows, err := t.NextRows(one[:0], 1)
	if len(rows) == 0 {
		return table.Row{}, err
	}
	return rows[0], nil
}

// readable returns the error that ends the stream, if it ended or the
// table is closed.
func (t *parquetTable) readable() error {
	if t.err != nil {
		return t.err
	}
	if t.closed {
		return fileError(t.name, errors.New("read after close"))
	}
	return nil
}

// settle, deferred by a read, turns a panic of the decoder into an error
// and ends the stream after an error (the next read returns io.EOF).
func (t *parquetTable) settle(err *error) {
	if p := recover(); p != nil {
		*err = t.fatal(-1, fmt.Errorf("the decoder failed: %v", p))
	}
	if *err != nil && *err != io.EOF {
		t.endGroup()
		t.err = io.EOF
	}
}

// advance makes sure a batch has rows left to read (t.i < t.n), reading
// the next batch, and the next row groups, as needed; it returns io.EOF
// after the last row.
func (t *parquetTable) advance() error {
	for t.i >= t.n {
		// An empty batch ends the row group: a reader that kept giving
		// them would never end (finishGroup then checks the rows).
		if t.rr != nil && t.rr.Next() && t.rr.RecordBatch().NumRows() > 0 {
			if err := t.startBatch(t.rr.RecordBatch()); err != nil {
				return err
			}
			continue
		}
		if err := t.finishGroup(); err != nil {
			return err
		}
		if t.rg+1 >= len(t.footer.groups) {
			if t.rows != t.footer.numRows {
				return t.fatal(-1, fmt.Errorf("its row groups hold %d rows, its footer declares %d", t.rows, t.footer.numRows))
			}
			t.err = io.EOF
			return io.EOF
		}
		if err := t.startGroup(t.rg + 1); err != nil {
			return err
		}
	}
	return nil
}

// startBatch checks a record batch of row group t.rg and prepares its
// getters. Every column must hold one value per row of the batch: a
// reader that returns a column shorter than the others (arrow/go v17 did
// for BYTE_STREAM_SPLIT pages) must not shift or drop cells unnoticed.
func (t *parquetTable) startBatch(rec arrow.RecordBatch) error {
	want := len(t.cols)
	if t.sel != nil {
		want = len(t.sel)
	}
	if int(rec.NumCols()) != want {
		return t.fatal(-1, fmt.Errorf("row group %d: a batch has %d columns, the schema %d", t.rg, rec.NumCols(), want))
	}
	rows := rec.NumRows()
	for j := range want {
		if n := int64(rec.Column(j).Len()); n != rows {
			return t.fatal(t.fileColumn(j), fmt.Errorf("row group %d: the column gives %d values for the %d rows of a batch", t.rg, n, rows))
		}
	}
	t.rgRows += rows
	if want := t.footer.groups[t.rg].rows; t.rgRows > want {
		return t.fatal(-1, fmt.Errorf("row group %d gives more than the %d rows its metadata declares", t.rg, want))
	}
	t.getters = t.getters[:0]
	for j := range len(t.cols) {
		if t.sel != nil {
			break // read by ReadBatch, without cells
		}
		col := rec.Column(j)
		g, err := getterFor(col, &t.cellErr)
		if err != nil {
			return t.fatal(j, err)
		}
		if col.NullN() == col.Len() {
			g = nil // every cell is empty (see NextRows)
		}
		t.getters = append(t.getters, g)
	}
	t.i, t.n = 0, int(rows)
	return nil
}

// finishGroup ends the row group being read, if any: its reader must have
// ended without error, after as many rows as its metadata declares.
func (t *parquetTable) finishGroup() error {
	if t.rr == nil {
		return nil
	}
	err := t.rr.Err()
	t.endGroup()
	if err != nil && !errors.Is(err, io.EOF) {
		return t.fatal(-1, fmt.Errorf("row group %d: %w", t.rg, err))
	}
	if want := t.footer.groups[t.rg].rows; t.rgRows != want {
		return t.fatal(-1, fmt.Errorf("row group %d gives %d rows, its metadata declares %d", t.rg, t.rgRows, want))
	}
	return nil
}

// endGroup releases the readers of the row group being read.
func (t *parquetTable) endGroup() {
	t.getters = t.getters[:0]
	t.i, t.n = 0, 0
	if t.rr != nil {
		t.rr.Release()
		t.rr = nil
	}
	if t.pf != nil {
		_ = t.pf.Close()
		t.pf = nil
	}
}

// startGroup opens row group g: it decodes the group's metadata, checks it
// and its page headers (see checkParquetMetadata and checkChunkPages),
// and opens a record reader on it.
func (t *parquetTable) startGroup(g int) error {
	t.rg, t.rgRows = g, 0
	damaged := func(err error) error {
		return t.fatal(-1, fmt.Errorf("row group %d: %w", g, err))
	}
	var err error
	if t.meta, err = t.footer.readGroup(t.src, g, t.meta); err != nil {
		return damaged(err)
	}
	// The bytes were checked when the file was opened; they are read
	// again, and checked again in case the file changed meanwhile.
	if n, err := checkThriftStruct(t.meta); err != nil || n != len(t.meta) {
		return damaged(errors.New("its metadata changed since the file was opened"))
	}
	md, spliced, err := t.footer.metadata([][]byte{t.meta}, t.size, t.spliced)
	t.spliced = spliced
	if err != nil {
		return damaged(err)
	}
	pf, err := file.NewParquetReader(io.NewSectionReader(t.src, 0, t.size), file.WithMetadata(md), file.WithReadProps(t.props))
	if err != nil {
		return damaged(err)
	}
	t.pf = pf
	if err := checkParquetMetadata(pf, t.size); err != nil {
		return damaged(err)
	}
	if err := t.checkPages(); err != nil {
		return err
	}
	props := pqarrow.ArrowReadProperties{BatchSize: t.batch}
	for _, leaf := range t.dictLeaves {
		props.SetReadDict(leaf, true)
	}
	var mem memory.Allocator = memory.DefaultAllocator
	if t.recycle != nil {
		mem = t.recycle
	}
	fr, err := pqarrow.NewFileReader(pf, props, mem)
	if err != nil {
		return damaged(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), t.leaves, nil)
	if err != nil {
		return damaged(err)
	}
	if t.faulty != nil {
		rr = t.faulty(rr)
	}
	t.rr = rr
	return nil
}

// Close releases the file. It may be called more than once.
func (t *parquetTable) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	t.endGroup()
	t.getters = nil
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

// checkPages checks the page headers of every chunk of the row group being
// read before Arrow reads them (see checkChunkPages).
func (t *parquetTable) checkPages() error {
	md := t.pf.MetaData()
	rg := md.RowGroup(0)
	legacy := isLegacyWriter(md)
	for j := range md.Schema.NumColumns() {
		if t.sel != nil && !slices.Contains(t.leaves, j) {
			continue // not read
		}
		cc, err := rg.ColumnChunk(j)
		if err == nil {
			err = checkChunkPages(t.src, t.size, cc, legacy, t.lim)
		}
		if err != nil {
			var le *LimitError
			var ue *unsupportedError
			if !errors.As(err, &le) && !errors.As(err, &ue) {
				err = fmt.Errorf("the Parquet file is damaged: row group %d: %w", t.rg, err)
			}
			// A leaf of a nested column is named by its top-level column.
			root := md.Schema.ColumnRoot(j)
			if path := md.Schema.Column(j).Path(); path != root.Name() {
				err = fmt.Errorf("%s: %w", path, err)
			}
			return t.fail(md.Schema.Root().FieldIndexByField(root), err)
		}
	}
	return nil
}

// fatal is the error of a damaged file, which ends the stream at the next
// row, in column j (-1 for the whole row).
func (t *parquetTable) fatal(j int, err error) error {
	return t.fail(j, fmt.Errorf("the Parquet file is damaged: %w", err))
}

// fail is an error that ends the stream at the next row, in column j (-1
// for the whole row).
func (t *parquetTable) fail(j int, err error) error {
	pos := table.Position{File: t.name, Row: int(t.rows) + 2, Column: -1}
	if j >= 0 {
		pos.Column, pos.ColumnName = j, t.cols[j].Name
	}
	return &table.Error{Pos: pos, Err: fatalError{err}}
}
