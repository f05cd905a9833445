package readers

import (
	"bytes"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/table"
)

// A dictionary-encoded page whose indices are 31 bits wide, under a
// dictionary of two values, is refused before Arrow decodes it: Arrow
// allocates room up to the largest index of a batch before checking it (16
// GiB for this page of a few dozen bytes, found by fuzzing:
// testdata/fuzz/FuzzParquet/fbe899c41d1fbb9e). The same page with 1-bit
// indices reads back.
func TestParquetDictIndexWidth(t *testing.T) {
	page := func(width byte, index byte) []byte {
		// The bit width, then one bit-packed run of one group of 8
		// indices (RLE/bit-packing hybrid: header (1<<1)|1).
		p := []byte{width, 0x03}
		return append(p, bytes.Repeat([]byte{index}, int(width))...)
	}
	dictFile := func(payload []byte) []byte {
		f := newForge(1, 2, 3)
		f.dict, f.dictValues = []int64{7, 9}, 2
		f.encoding = 8 // RLE_DICTIONARY
		f.payload, f.pageUncompressed = payload, int64(len(payload))
		return f.bytes()
	}

	// 1-bit indices 1, 0, 1 (0b101): the dictionary's values.
	rows, err, _ := readForged(t, dictFile(page(1, 0b101)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != integer(9) || rows[1][0] != integer(7) || rows[2][0] != integer(9) {
		t.Fatalf("rows %v", rows)
	}

	_, err, alloc := readForged(t, dictFile(page(31, 0xff)), Options{})
	var le *LimitError
	if !errors.As(err, &le) || le.Name != "max-parquet-page-bytes" {
		t.Fatalf("%v: not a limit error of --max-parquet-page-bytes", err)
	}
	var te *table.Error
	if !errors.As(err, &te) {
		t.Fatalf("%v (%T) is not a *table.Error", err, err)
	}
	const prefix = "forged.parquet, row 2, column x: the data page at byte "
	const suffix = " stores dictionary indices of 31 bits for a dictionary of 2 values; an index past the dictionary would unpack it to 16 GiB: the limit is 256 MiB; if the file is genuine, raise it with --max-parquet-page-bytes"
	if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, suffix) {
		t.Errorf("message\n got %q\nwant %q<offset>%q", msg, prefix, suffix)
	}
	if alloc > memoryBound {
		t.Errorf("refusing it allocated %d bytes", alloc)
	}
}

// The check reads the bit width where Arrow does, after the levels: in
// files that Arrow writes (optional and required columns, with nulls and
// pages of nulls only, data pages of versions 1 and 2, each codec), every
// dictionary-encoded page's bit width is the one Arrow's writer gives a
// dictionary of its size, and the files read back.
func TestParquetDictIndexWidthHonest(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "epsilon", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	const rows = 400
	for i := range rows {
		eps := rb.Field(0).(*array.Float64Builder)
		name := rb.Field(1).(*array.StringBuilder)
		if i%7 == 0 || (i >= 100 && i < 160) { // rows 100 to 159: pages of nulls only
			eps.AppendNull()
			name.AppendNull()
		} else {
			eps.Append(float64(i%37) / 8)
			name.Append(strings.Repeat("w", i%5+1))
		}
		rb.Field(2).(*array.Int32Builder).Append(int32(i % 300))
	}
	rec := rb.NewRecord()
	defer rec.Release()
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Zstd, compress.Codecs.Brotli} {
			var buf bytes.Buffer
			props := parquet.NewWriterProperties(parquet.WithCompression(codec), parquet.WithDataPageVersion(version),
				parquet.WithDataPageSize(64), parquet.WithBatchSize(10), parquet.WithMaxRowGroupLength(250), parquet.WithDictionaryDefault(true))
			w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			got, err, _ := readForged(t, data, Options{})
			if err != nil || len(got) != rows {
				t.Fatalf("version %v, %v: %d rows, %v", version, codec, len(got), err)
			}
			if pages := dictPageWidths(t, data); pages < 10 {
				t.Errorf("version %v, %v: %d dictionary-encoded pages", version, codec, pages)
			}
		}
	}
}

// dictPageWidths walks the pages of every column chunk of a Parquet file
// as checkChunkPages does, checks that the bit width of each
// dictionary-encoded data page is the one Arrow's writer gives its
// dictionary (at most that of the whole dictionary: the dictionary grows
// as pages are written), and returns the number of such pages.
func dictPageWidths(t *testing.T, data []byte) (pages int) {
	t.Helper()
	r := bytes.NewReader(data)
	pf, err := file.NewParquetReader(r)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	for g := range pf.NumRowGroups() {
		for c := range md.Schema.NumColumns() {
			cc, err := md.RowGroup(g).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			start, n := chunkRange(cc)
			d := pageDict{codec: cc.Compression(), col: md.Schema.Column(c)}
			var buf []byte
			for pos := start; pos < start+n; {
				var h pageHeader
				h, buf, err = readPageHeader(r, pos, start+n, buf)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case h.typ == pageDictionary:
					d.values = h.values
				case h.encoding == encodingRLEDictionary:
					values, err := d.pageValues(r, pos, h)
					if err != nil {
						t.Fatalf("row group %d, column %d, page at byte %d: %v", g, c, pos, err)
					}
					most := max(1, bits.Len64(uint64(d.values-1)))
					if len(values) > 0 && (values[0] < 1 || int(values[0]) > most) {
						t.Errorf("row group %d, column %d, page at byte %d: bit width %d for a dictionary of %d values", g, c, pos, values[0], d.values)
					}
					pages++
				}
				pos += int64(h.length) + int64(h.compressed)
			}
		}
	}
	return pages
}
