package writers

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// rowGroupFile is the Parquet file a parquetWriter writes its row groups
// into: each row group is given whole, a column at a time as the chunks of
// its values.
type rowGroupFile interface {
	writeRowGroup(cols [][]arrow.Array, rows int64) error
	AppendKeyValueMetadata(key, value string) error
	Close() error
}

// newRowGroupFile returns the file for the schema: one that encodes the
// columns of a row group on all cores where every column is flat (a
// primitive, string, binary, decimal or temporal type: its definition
// levels are its validity), pqarrow's FileWriter, which encodes one
// column after the other, for the others (nested, dictionary and
// extension types, whose levels and storage pqarrow's path builder
// knows).
func newRowGroupFile(schema *arrow.Schema, w io.Writer, props *parquet.WriterProperties, arrowProps pqarrow.ArrowWriterProperties) (rowGroupFile, error) {
	for _, f := range schema.Fields() {
		if !flatType(f.Type) {
			fw, err := pqarrow.NewFileWriter(schema, w, props, arrowProps)
			if err != nil {
				return nil, err
			}
			return serialFile{fw: fw, types: fieldTypes(schema)}, nil
		}
	}
	pf, err := newParallelFile(schema, w, props, arrowProps)
	if err != nil {
		return nil, err // not a nil *parallelFile in a non-nil interface
	}
	return pf, nil
}

func fieldTypes(schema *arrow.Schema) []arrow.DataType {
	types := make([]arrow.DataType, schema.NumFields())
	for i, f := range schema.Fields() {
		types[i] = f.Type
	}
	return types
}

// flatType reports whether a column of type dt is one Parquet leaf whose
// definition level is its validity (1 for a value, 0 for a null).
func flatType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.LARGE_STRING,
		arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY,
		arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64,
		arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

// serialFile is pqarrow's FileWriter.
type serialFile struct {
	fw    *pqarrow.FileWriter
	types []arrow.DataType
}

func (f serialFile) writeRowGroup(cols [][]arrow.Array, rows int64) error {
	if err := f.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	for i, chunks := range cols {
		chunked := arrow.NewChunked(f.types[i], chunks)
		err := f.fw.WriteColumnChunked(chunked, 0, rows)
		chunked.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func (f serialFile) AppendKeyValueMetadata(key, value string) error {
	return f.fw.AppendKeyValueMetadata(key, value)
}

func (f serialFile) Close() error { return f.fw.Close() }

// parallelFile writes each row group as a buffered row group of Parquet's
// file writer, whose column writers each keep their pages in memory
// apart, so that the columns are encoded at once, one goroutine each (at
// most GOMAXPROCS), through pqarrow's WriteArrowToColumn, as pqarrow's
// FileWriter encodes them one after the other; each column is closed
// (its pages copied to the file) in order as soon as it and the columns
// before it are written (see closeInOrder). The file is the one
// pqarrow.NewFileWriter makes for the same schema and properties: the
// Parquet schema of pqarrow.ToParquet, and the Arrow schema stored under
// "ARROW:schema" (for flat columns pqarrow stores it as it is).
type parallelFile struct {
	wr         *file.Writer
	arrowProps pqarrow.ArrowWriterProperties
}

func newParallelFile(schema *arrow.Schema, w io.Writer, props *parquet.WriterProperties, arrowProps pqarrow.ArrowWriterProperties) (*parallelFile, error) {
	pqschema, err := pqarrow.ToParquet(schema, props, arrowProps)
	if err != nil {
		return nil, err
	}
	meta := make(metadata.KeyValueMetadata, 0)
	md := schema.Metadata()
	for i := range md.Len() {
		meta.Append(md.Keys()[i], md.Values()[i])
	}
	meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(flight.SerializeSchema(schema, props.Allocator())))
	wr, err := file.NewParquetWriterWithError(w, pqschema.Root(), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &parallelFile{wr: wr, arrowProps: arrowProps}, nil
}

func (f *parallelFile) writeRowGroup(cols [][]arrow.Array, _ int64) error {
	rgw, err := f.wr.AppendBufferedRowGroupChecked()
	if err != nil {
		return err
	}
	errs := make([]error, len(cols))
	done := make([]chan struct{}, len(cols))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cols)) {
		wg.Go(func() {
			ctx := pqarrow.NewArrowWriteContext(context.Background(), &f.arrowProps)
			var levels []int16
			for i := range next {
				errs[i] = writeFlatColumn(ctx, rgw, i, cols[i], &levels)
				close(done[i])
			}
		})
	}
	wg.Go(func() {
		for i := range cols {
			next <- i
		}
		close(next)
	})
	closeErr := closeInOrder(rgw, errs, done)
	wg.Wait()
	if err := errors.Join(append(errs, closeErr)...); err != nil {
		return err
	}
	// Close checks that every column has the row group's rows; the
	// columns are closed already.
	return rgw.Close()
}

// closeInOrder closes the column writers of a buffered row group one after
// the other, each as soon as it is written (done[i] closed) and the columns
// before it are closed, while the later columns are still being encoded:
// closing a column copies its pages to the file, which must come in the
// order of the columns, and lets go of its buffers (the last page, before
// and after compression, and the encoder's), which would otherwise be held
// for every column of the row group at once until the row group's Close
// (which leaves a closed column writer as it is). It stops at the first
// column that failed (errs[i], read once done[i] is closed) or failed to
// close.
func closeInOrder(rgw file.BufferedRowGroupWriter, errs []error, done []chan struct{}) error {
	for i := range done {
		<-done[i]
		if errs[i] != nil {
			return nil // reported by the caller
		}
		cw, err := rgw.Column(i)
		if err == nil {
			err = cw.Close()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFlatColumn writes the chunks of column i of a buffered row group,
// each value's definition level its validity, and then ends the column's
// last data page (see finishPage).
func writeFlatColumn(ctx context.Context, rgw file.BufferedRowGroupWriter, i int, chunks []arrow.Array, levels *[]int16) error {
	cw, err := rgw.Column(i)
	if err != nil {
		return err
	}
	if dict := dictionaryChunks(cw, chunks); dict != nil {
		defer dict.Release()
		chunks = []arrow.Array{dict}
	}
	for _, arr := range chunks {
		n := arr.Len()
		if n == 0 {
			continue
		}
		if cap(*levels) < n {
			*levels = make([]int16, n)
		}
		lv := (*levels)[:n]
		definitionLevels(arr, lv)
		if dict, ok := arr.(*array.Dictionary); ok {
			err = writeDictionary(cw, dict, lv)
		} else {
			err = pqarrow.WriteArrowToColumn(ctx, cw, arr, lv, nil, true)
		}
		if err != nil {
			return err
		}
	}
	return finishPage(cw)
}

// dictionaryPutter is the method of a column writer's dictionary encoder
// that takes a whole dictionary.
type dictionaryPutter interface {
	PutDictionary(arrow.Array) error
}

// writeDictionary writes a dictionary array of dictionaryChunks to a
// column writer still encoding with a dictionary, each value's definition
// level in lv, as pqarrow writes a dictionary array the first time
// (writeDictionaryArrow): the dictionary into the encoder, the page
// statistics from the dictionary's values, then the indices. pqarrow also
// finds the values the indices refer to (a hash of every index), to take
// the statistics from them alone: here they are the whole dictionary.
func writeDictionary(cw file.ColumnChunkWriter, d *array.Dictionary, lv []int16) error {
	enc, ok := cw.CurrentEncoder().(dictionaryPutter)
	if !ok {
		return fmt.Errorf("column %s: encoder %T takes no dictionary", cw.Descr().Name(), cw.CurrentEncoder())
	}
	if err := enc.PutDictionary(d.Dictionary()); err != nil {
		return err
	}
	if stats := cw.PageStatistics(); stats != nil {
		stats.IncNulls(int64(d.NullN()))
		stats.IncNumValues(int64(d.Len() - d.NullN()))
		if err := stats.UpdateFromArrow(d.Dictionary(), false); err != nil {
			return err
		}
	}
	return cw.WriteDictIndices(d.Indices(), lv, nil)
}

// definitionLevels sets lv[j] to 1 where arr holds a value and to 0 where
// it holds a null, from the validity bitmap (or none where arr has no null
// or only nulls) rather than a call per value.
func definitionLevels(arr arrow.Array, lv []int16) {
	var fill int16
	switch nulls := arr.NullN(); nulls {
	case 0:
		fill = 1
	case len(lv):
		fill = 0
	default:
		bits, off := arr.NullBitmapBytes(), arr.Data().Offset()
		for j := range lv {
			k := off + j
			lv[j] = int16(bits[k>>3]>>(k&7)) & 1
		}
		return
	}
	for j := range lv {
		lv[j] = fill
	}
}

// dictionaryChunks returns the chunks of a text column that the column
// writer dictionary-encodes as one dictionary array, its dictionary the
// distinct values in the order they come, or nil where the column is not
// so encoded or its dictionary would pass the writer's dictionary page
// size limit (parquetDictionaryBytes), where Parquet's writer falls back
// to plain encoding: the chunks then go to it as they are. The dictionary
// goes into the column's encoder once and the indices after it (see
// writeDictionary): the file is as if the encoder had hashed each value
// itself, values in the same order, and looking a short text up in a Go
// map costs a fraction of the hash table of Parquet's encoder, which
// allocates for every value it is given.
func dictionaryChunks(cw file.ColumnChunkWriter, chunks []arrow.Array) arrow.Array {
	if cw.CurrentEncoder().Encoding() != parquet.Encodings.PlainDict || len(chunks) == 0 {
		return nil
	}
	n := 0
	for _, c := range chunks {
		if c.DataType().ID() != arrow.STRING {
			return nil
		}
		n += c.Len()
	}
	mem := cw.Properties().Allocator()
	indices := array.NewInt32Builder(mem)
	defer indices.Release()
	values := array.NewStringBuilder(mem)
	defer values.Release()
	indices.Reserve(n)
	seen := make(map[string]int32)
	size, limit := 0, int(cw.Properties().DictionaryPageSizeLimit())
	for _, c := range chunks {
		text := c.(*array.String)
		if text.NullN() == text.Len() {
			indices.AppendNulls(text.Len())
			continue
		}
		for j := range text.Len() {
			if text.IsNull(j) {
				indices.AppendNull()
				continue
			}
			v := text.Value(j)
			k, ok := seen[v]
			if !ok {
				if size += 4 + len(v); size > limit {
					return nil
				}
				k = int32(len(seen))
				seen[v] = k
				values.Append(v)
			}
			indices.UnsafeAppend(k)
		}
	}
	idx, dict := indices.NewArray(), values.NewArray()
	defer idx.Release()
	defer dict.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, idx, dict)
}

// pageFlusher is the method of Parquet's column writers that ends the
// data page being filled: it encodes its levels, takes its statistics and
// compresses it.
type pageFlusher interface {
	FlushCurrentPage() error
}

// finishPage ends the data page a column writer of a buffered row group
// is filling, where it holds any value or null, so that this, the most
// work of closing the column, is done on the column's goroutine rather
// than where the columns are closed one after the other (closeInOrder).
// It is the first step of the writer's own Close
// (FlushBufferedDataPages), which then finds no value left to flush: the
// page goes into the column's own buffer (a buffered row group's page
// writer is in memory), after the pages before it, or, for a column whose
// dictionary is still in use, into the column's list of pages, which
// Close writes after the dictionary page. What Close still does is the
// dictionary page, the statistics of the chunk and the copy of the
// column's pages to the file, which must come in order.
//
// A writer's page statistics count the values and nulls of the page being
// filled (they are reset as a page is ended); without them (statistics
// turned off) the page is left to Close, as it is when the writer has no
// such method: a page without values is never written.
func finishPage(cw file.ColumnChunkWriter) error {
	pf, ok := cw.(pageFlusher)
	stats := cw.PageStatistics()
	if !ok || stats == nil || (stats.NumValues() == 0 && stats.NullCount() == 0) {
		return nil
	}
	return pf.FlushCurrentPage()
}

func (f *parallelFile) AppendKeyValueMetadata(key, value string) error {
	return f.wr.AppendKeyValueMetadata(key, value)
}

func (f *parallelFile) Close() error { return f.wr.Close() }
