package testfiles

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/table"
)

func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		comma      rune
		want       [][]string
	}{
		{"a.csv", "x,y\n1,\"a,b\"\n", 0, [][]string{{"x", "y"}, {"1", "a,b"}}},
		{"a.tsv", "x\ty\n1\ta,b\n", '\t', [][]string{{"x", "y"}, {"1", "a,b"}}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ReadCSV(t, path, tc.comma); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAllRows(t *testing.T) {
	want := [][]table.Cell{{table.TextCell("a"), table.IntegerCell(1)}, {table.Cell{}}}
	if got := AllRows(t, memtable.New("t.csv", nil, want...)); !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	if got := AllRows(t, memtable.New("t.csv", nil)); got != nil {
		t.Errorf("no rows: %v", got)
	}
}

// WriteParquet's file reads back, with Arrow's own reader, as the record.
func TestWriteParquet(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{3, 1, 4}, nil)
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 4)
	defer rec.Release()
	data := WriteParquet(t, rec, parquet.NewWriterProperties())
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
