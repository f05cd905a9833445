package testfiles

import (
	"bytes"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// WriteParquet writes rec as a Parquet file with the given writer
// properties and Arrow writer options (none: pqarrow's defaults).
func WriteParquet(t testing.TB, rec arrow.RecordBatch, props *parquet.WriterProperties, arrowOpts ...pqarrow.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, pqarrow.NewArrowWriterProperties(arrowOpts...))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// WriteParquetFile writes one record batch as a Parquet file to path, with
// arrow-go's default properties.
func WriteParquetFile(t testing.TB, path string, rec arrow.RecordBatch) {
	t.Helper()
	data := WriteParquet(t, rec, parquet.NewWriterProperties())
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteFloatsParquet writes a Parquet file of one float64 column named
// column, holding values, to path.
func WriteFloatsParquet(t testing.TB, path, column string, values ...float64) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: column, Type: arrow.PrimitiveTypes.Float64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues(values, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	WriteParquetFile(t, path, rec)
}
