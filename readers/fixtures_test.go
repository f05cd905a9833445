package readers

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// TestWriteParquetFixture: the Parquet files of the tests
// (testfiles.WriteParquet) read back, with Arrow's own reader rather than
// the one they test, as the record they were written from.
func TestWriteParquetFixture(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{3, 1, 4}, nil)
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 4)
	defer rec.Release()
	data := testfiles.WriteParquet(t, rec, parquet.NewWriterProperties())
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), parquet.NewReaderProperties(memory.DefaultAllocator), pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	col := tbl.Column(0).Data().Chunk(0).(*array.Int64)
	if tbl.NumRows() != 4 || col.Value(0) != 3 || col.Value(2) != 4 || !col.IsNull(3) {
		t.Errorf("read back %v rows: %v", tbl.NumRows(), col)
	}
}
