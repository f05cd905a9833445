package writers

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestDefinitionLevels checks the levels read from the validity bitmap
// against IsValid, on slices that start within a byte of the bitmap, with
// no null, some and only nulls.
func TestDefinitionLevels(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		if i%3 == 0 || i%7 == 0 {
			b.WriteString("null")
		} else {
			fmt.Fprint(&b, i)
		}
	}
	b.WriteString("]")
	whole, _, err := array.FromJSON(memory.DefaultAllocator, arrow.PrimitiveTypes.Float64, strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Release()
	for _, r := range [][2]int64{{0, 40}, {3, 40}, {5, 18}, {1, 3}, {3, 4}, {1, 2}, {9, 9}} {
		arr := array.NewSlice(whole, r[0], r[1])
		lv := make([]int16, arr.Len())
		for j := range lv {
			lv[j] = 7 // overwritten
		}
		definitionLevels(arr, lv)
		for j, got := range lv {
			want := int16(0)
			if arr.IsValid(j) {
				want = 1
			}
			if got != want {
				t.Errorf("slice [%d, %d): level %d is %d, want %d", r[0], r[1], j, got, want)
			}
		}
		arr.Release()
	}
}

// TestParallelFilePages writes a row group whose pages are ended by the
// page size limit at the last batch of values (each batch of
// WriteBatchSize values passes the 1-byte limit), so that finishPage finds
// nothing left to flush, and checks that every data page holds values, that
// a dictionary-encoded column's dictionary page comes first, and that the
// values read back are those written.
func TestParallelFilePages(t *testing.T) {
	const rows, batch = 4096, 1024
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "kind", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	kinds := array.NewStringBuilder(memory.DefaultAllocator)
	xs := array.NewFloat64Builder(memory.DefaultAllocator)
	for i := range rows {
		kinds.Append([]string{"pure", "approx", "gdp"}[i%3])
		if i%5 == 0 {
			xs.AppendNull()
		} else {
			xs.Append(float64(i))
		}
	}
	kindArr, xArr := kinds.NewArray(), xs.NewArray()
	defer kindArr.Release()
	defer xArr.Release()
	for _, pageBytes := range []int64{1, 1 << 20} {
		var buf bytes.Buffer
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
			parquet.WithDataPageSize(pageBytes), parquet.WithBatchSize(batch),
			parquet.WithDictionaryPath(parquet.ColumnPath{"x"}, false))
		f, err := newRowGroupFile(schema, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.(*parallelFile); !ok {
			t.Fatalf("newRowGroupFile gave %T for flat columns, want *parallelFile", f)
		}
		// Two chunks of the first column, as WriteColumns gives them.
		head, tail := array.NewSlice(kindArr, 0, 1000), array.NewSlice(kindArr, 1000, rows)
		err = f.writeRowGroup([][]arrow.Array{{head, tail}, {xArr}}, rows)
		head.Release()
		tail.Release()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		checkPages(t, buf.Bytes(), pageBytes, rows)
		checkValues(t, buf.Bytes(), kindArr, xArr)
	}
}

// checkPages checks each column chunk's pages: a dictionary page first if
// any, then data pages of values (or nulls) adding up to rows.
func checkPages(t *testing.T, data []byte, pageBytes int64, rows int) {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	rg := rdr.RowGroup(0)
	for c := range rg.NumColumns() {
		pr, err := rg.GetColumnPageReader(c)
		if err != nil {
			t.Fatal(err)
		}
		var values, dataPages int
		var kinds []file.PageType
		for pr.Next() {
			p := pr.Page()
			kinds = append(kinds, p.Type())
			if p.Type() == file.PageTypeDictionaryPage {
				if len(kinds) != 1 {
					t.Errorf("page size %d, column %d: dictionary page at %d", pageBytes, c, len(kinds)-1)
				}
				continue
			}
			dataPages++
			if p.NumValues() == 0 {
				t.Errorf("page size %d, column %d: data page %d has no value", pageBytes, c, dataPages)
			}
			values += int(p.NumValues())
		}
		if err := pr.Err(); err != nil {
			t.Fatal(err)
		}
		if values != rows {
			t.Errorf("page size %d, column %d: %d values in the pages, want %d", pageBytes, c, values, rows)
		}
		// One page per batch when every batch passes the limit: the
		// first column's chunks of 1000 and 3096 rows make batches of
		// 1000, 1024, 1024, 1024 and 24.
		if want := []int{5, 4}[c]; pageBytes == 1 && dataPages != want {
			t.Errorf("page size 1, column %d: %d data pages, want %d (%v)", c, dataPages, want, kinds)
		}
		wantDict := c == 0
		if got := kinds[0] == file.PageTypeDictionaryPage; got != wantDict {
			t.Errorf("page size %d, column %d: dictionary page %v, want %v", pageBytes, c, got, wantDict)
		}
	}
}

// checkValues reads the file back with pqarrow and compares each column
// with the array written.
func checkValues(t *testing.T, data []byte, want ...arrow.Array) {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	for c, w := range want {
		got, err := array.Concatenate(tbl.Column(c).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got, w) {
			t.Errorf("column %d read back differs from the array written", c)
		}
		got.Release()
	}
}
