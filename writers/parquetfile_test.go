package writers

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/table"
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
// values read back are those written. The text column of few values comes
// in chunks (one of nulls only) that go to the encoder as one dictionary
// array (see dictionaryChunks), its indices in one page; that of
// identifiers, whose dictionary would pass the limit, goes as it is.
func TestParallelFilePages(t *testing.T) {
	const rows, batch = 4096, 1024
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "kind", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "id", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	kinds := array.NewStringBuilder(memory.DefaultAllocator)
	xs := array.NewFloat64Builder(memory.DefaultAllocator)
	ids := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range rows {
		switch {
		case i >= 1000 && i < 1096:
			kinds.AppendNull() // the chunk of nulls
		case i%7 == 0:
			kinds.AppendNull()
		default:
			kinds.Append([]string{"pure", "approx", "gdp"}[i%3])
		}
		if i%5 == 0 {
			xs.AppendNull()
		} else {
			xs.Append(float64(i))
		}
		ids.Append(fmt.Sprintf("identifier-%09d", i)) // 24 bytes: 98,304 of dictionary
	}
	kindArr, xArr, idArr := kinds.NewArray(), xs.NewArray(), ids.NewArray()
	defer kindArr.Release()
	defer xArr.Release()
	defer idArr.Release()
	for _, pageBytes := range []int64{1, 1 << 20} {
		var buf bytes.Buffer
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
			parquet.WithDataPageSize(pageBytes), parquet.WithBatchSize(batch),
			parquet.WithDictionaryPath(parquet.ColumnPath{"x"}, false),
			parquet.WithDictionaryPageSizeLimit(parquetDictionaryBytes))
		f, err := newRowGroupFile(schema, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.(*parallelFile); !ok {
			t.Fatalf("newRowGroupFile gave %T for flat columns, want *parallelFile", f)
		}
		// Chunks of the first column, as WriteColumns gives them.
		var kindChunks []arrow.Array
		for _, r := range [][2]int64{{0, 1000}, {1000, 1096}, {1096, rows}} {
			kindChunks = append(kindChunks, array.NewSlice(kindArr, r[0], r[1]))
		}
		err = f.writeRowGroup([][]arrow.Array{kindChunks, {xArr}, {idArr}}, rows)
		for _, c := range kindChunks {
			c.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		// The identifiers' first page, cut while their dictionary was in
		// use, has the dictionary written before the fallback.
		checkPages(t, buf.Bytes(), pageBytes, rows, []bool{true, false, pageBytes == 1})
		checkValues(t, buf.Bytes(), kindArr, xArr, idArr)
	}
}

// checkPages checks each column chunk's pages: a dictionary page first if
// any, then data pages of values (or nulls) adding up to rows.
func checkPages(t *testing.T, data []byte, pageBytes int64, rows int, dictionary []bool) {
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
		// One page per batch when every batch passes the limit, but
		// for the indices of a dictionary array.
		if want := []int{1, 4, 4}[c]; pageBytes == 1 && dataPages != want {
			t.Errorf("page size 1, column %d: %d data pages, want %d (%v)", c, dataPages, want, kinds)
		}
		wantDict := dictionary[c]
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

// TestTextDictionary checks which text columns keep a dictionary: those
// whose first row group's dictionary stays within parquetDictionaryBytes
// (each distinct value's bytes and 4 of length), judged early where the
// first 4096 values are fewer than half distinct.
func TestTextDictionary(t *testing.T) {
	for _, c := range []struct {
		name      string
		n         int
		value     func(i int) string // "" for a null
		large     bool
		want      bool
		chunkRows int
	}{
		// 10,000 identifiers of 2 to 5 bytes: 10×(4+2) + 90×(4+3) +
		// 900×(4+4) + 9,000×(4+5) bytes = 88,890 > 65,536.
		{"identifiers", 10000, func(i int) string { return strconv.Itoa(i) }, false, false, 1000},
		{"identifiers, large strings", 10000, func(i int) string { return strconv.Itoa(i) }, true, false, 512},
		// 5,000 of them: 43,890 bytes, within the limit.
		{"few identifiers", 5000, func(i int) string { return strconv.Itoa(i) }, false, true, 5000},
		{"four mechanisms", 65536, func(i int) string { return []string{"pure", "approx", "gaussian", "gdp"}[i%4] }, false, true, 512},
		// 3,000 values of 4 bytes in turn: 24,000 bytes.
		{"repeating numbers", 65536, func(i int) string { return strconv.Itoa(1000 + i%3000) }, false, true, 700},
		// Every other value null: 20,000 distinct values of 5 bytes.
		{"identifiers among nulls", 40000, func(i int) string {
			if i%2 == 1 {
				return ""
			}
			return strconv.Itoa(10000 + i/2)
		}, false, false, 333},
		{"nulls", 65536, func(int) string { return "" }, false, true, 4096},
		{"no row", 0, nil, false, true, 1},
	} {
		var chunks []arrow.Array
		dt := arrow.BinaryTypes.String
		if c.large {
			dt = arrow.BinaryTypes.LargeString
		}
		for start := 0; start < c.n; start += c.chunkRows {
			b := array.NewBuilder(memory.DefaultAllocator, dt)
			for i := start; i < min(start+c.chunkRows, c.n); i++ {
				if v := c.value(i); v == "" {
					b.AppendNull()
				} else {
					b.(interface{ Append(string) }).Append(v)
				}
			}
			chunks = append(chunks, b.NewArray())
			b.Release()
		}
		if got := useDictionary(dt, chunks); got != c.want {
			t.Errorf("%s: dictionary %v, want %v", c.name, got, c.want)
		}
		for _, a := range chunks {
			a.Release()
		}
	}
	if useDictionary(arrow.PrimitiveTypes.Float64, nil) || !useDictionary(arrow.FixedWidthTypes.Boolean, nil) {
		t.Error("numbers take a dictionary, or booleans none")
	}
}

// TestParquetDictionaryChosen writes a file by WriteColumns and checks
// that its column of identifiers has no dictionary page in any row group
// and its column of four mechanisms has one in each.
func TestParquetDictionaryChosen(t *testing.T) {
	const rows = 20000
	ids := array.NewStringBuilder(memory.DefaultAllocator)
	kinds := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range rows {
		ids.Append(fmt.Sprintf("r%d", i))
		kinds.Append([]string{"pure", "approx", "gaussian", "gdp"}[i%4])
	}
	idArr, kindArr := ids.NewArray(), kinds.NewArray()
	defer idArr.Release()
	defer kindArr.Release()
	path := filepath.Join(t.TempDir(), "dict.parquet")
	w := mustCreate(t, path, Options{}).(*parquetWriter)
	w.rowGroupRows = 8192
	cols := []table.Column{{Name: "id", Kind: table.Text, Role: table.Input}, {Name: "mechanism", Kind: table.Text, Role: table.Input}}
	if err := w.WriteHeader(cols); err != nil {
		t.Fatal(err)
	}
	cells := make([][]table.Cell, rows)
	for r := range cells {
		cells[r] = make([]table.Cell, 2)
	}
	if err := w.WriteColumns(cells, []arrow.Array{idArr, kindArr}); err != nil {
		t.Fatal(err)
	}
	rdr := closeAndOpen(t, w, path)
	defer rdr.Close()
	if rdr.NumRowGroups() != 3 {
		t.Fatalf("%d row groups, want 3", rdr.NumRowGroups())
	}
	for g := range rdr.NumRowGroups() {
		for c, want := range []bool{false, true} {
			meta, err := rdr.MetaData().RowGroup(g).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := meta.HasDictionaryPage(); got != want {
				t.Errorf("row group %d, column %s: dictionary page %v, want %v", g, cols[c].Name, got, want)
			}
		}
	}
	checkValues(t, readback.ReadFile(t, path), idArr, kindArr)
}

// closeAndOpen closes w, which writes the Parquet file at path, and opens
// the file.
func closeAndOpen(t *testing.T, w Writer, path string) *file.Reader {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

// TestParallelFileColumnError checks that a column that cannot be written
// (an array of another type than the column's) fails the row group, with
// the columns before and after it written or not, and does not leave the
// row group waiting on it.
func TestParallelFileColumnError(t *testing.T) {
	fields := make([]arrow.Field, 6)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("x%d", i), Type: arrow.PrimitiveTypes.Float64, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	floats, _, err := array.FromJSON(memory.DefaultAllocator, arrow.PrimitiveTypes.Float64, strings.NewReader("[1, null, 3]"))
	if err != nil {
		t.Fatal(err)
	}
	defer floats.Release()
	texts, _, err := array.FromJSON(memory.DefaultAllocator, arrow.BinaryTypes.String, strings.NewReader(`["a", "b", null]`))
	if err != nil {
		t.Fatal(err)
	}
	defer texts.Release()
	for bad := range fields {
		cols := make([][]arrow.Array, len(fields))
		for i := range cols {
			cols[i] = []arrow.Array{floats}
		}
		cols[bad] = []arrow.Array{texts}
		var buf bytes.Buffer
		f, err := newRowGroupFile(schema, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.writeRowGroup(cols, 3); err == nil {
			t.Errorf("column %d of text: no error", bad)
		}
	}
}
