package readers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// thriftWriter writes Thrift compact-protocol structs (the encoding of
// Parquet's footer and page headers), so that a test can write a Parquet
// file by hand and forge any field of it.
type thriftWriter struct {
	b    []byte
	last []int16 // the last field id of each open struct
}

func (w *thriftWriter) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *thriftWriter) zigzag(v int64)   { w.uvarint(uint64(v<<1) ^ uint64(v>>63)) }

// field writes a field header in the innermost open struct.
func (w *thriftWriter) field(id int16, typ byte) {
	last := &w.last[len(w.last)-1]
	if d := id - *last; d > 0 && d <= 15 {
		w.b = append(w.b, byte(d)<<4|typ)
	} else {
		w.b = append(w.b, typ)
		w.zigzag(int64(id))
	}
	*last = id
}

func (w *thriftWriter) begin()                { w.last = append(w.last, 0) }
func (w *thriftWriter) end()                  { w.b = append(w.b, ctStop); w.last = w.last[:len(w.last)-1] }
func (w *thriftWriter) i32(id int16, v int64) { w.field(id, ctI32); w.zigzag(v) }
func (w *thriftWriter) i64(id int16, v int64) { w.field(id, ctI64); w.zigzag(v) }
func (w *thriftWriter) str(id int16, s string) {
	w.field(id, ctBinary)
	w.uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}
func (w *thriftWriter) structField(id int16) { w.field(id, ctStruct); w.begin() }

// list writes a list header declaring n elements of type elem.
func (w *thriftWriter) list(id int16, elem byte, n uint64) {
	w.field(id, ctList)
	if n < 15 {
		w.b = append(w.b, byte(n)<<4|elem)
		return
	}
	w.b = append(w.b, 0xf0|elem)
	w.uvarint(n)
}

// forge describes a Parquet file of one required INT64 column "x" in one
// row group, written by hand: its pages as a dictionary page (optional)
// and one PLAIN data page, and the counts and sizes its headers and footer
// declare, each of which a test may change.
type forge struct {
	values           []int64
	codec            int64  // parquet.thrift CompressionCodec: 0 none, 1 Snappy, 6 Zstd
	payload          []byte // the data page's bytes as stored (nil: values, PLAIN, unpacked)
	pageValues       int64  // the data page's num_values
	pageUncompressed int64
	dictValues       int64   // a dictionary page of so many values, when > 0
	dict             []int64 // the dictionary page's values, when dictValues > 0 (nil: 8 zero bytes)
	encoding         int64   // the data page's encoding (0: PLAIN, 8: RLE_DICTIONARY)
	chunkValues      int64
	chunkSize        int64 // total_compressed_size added to the real one
	groupRows        int64
	fileRows         int64
	rowGroups        uint64  // the row_groups list declares so many (1 written)
	schemaElements   uint64  // the schema list declares so many (2 written)
	footerLength     int64   // the footer length field (0: the real one)
	chunkEncodings   []int64 // the chunk's list of encodings (nil: PLAIN)
}

// newForge is an honest file of the given values.
func newForge(values ...int64) *forge {
	n := int64(len(values))
	return &forge{values: values, pageValues: n, pageUncompressed: 8 * n, chunkValues: n, groupRows: n, fileRows: n, rowGroups: 1, schemaElements: 2}
}

// bytes writes the file.
func (f *forge) bytes() []byte {
	plain := make([]byte, 0, 8*len(f.values))
	for _, v := range f.values {
		plain = binary.LittleEndian.AppendUint64(plain, uint64(v))
	}
	payload := f.payload
	if payload == nil {
		payload = plain
	}
	out := []byte("PAR1")
	start := int64(len(out))
	if f.dictValues > 0 {
		dict := make([]byte, 8)
		if f.dict != nil {
			dict = dict[:0]
			for _, v := range f.dict {
				dict = binary.LittleEndian.AppendUint64(dict, uint64(v))
			}
		}
		var w thriftWriter
		w.begin()
		w.i32(1, pageDictionary)
		w.i32(2, int64(len(dict)))
		w.i32(3, int64(len(dict)))
		w.structField(7)
		w.i32(1, f.dictValues)
		w.i32(2, 0) // PLAIN
		w.end()
		w.end()
		out = append(append(out, w.b...), dict...)
	}
	dataStart := int64(len(out))
	var w thriftWriter
	w.begin()
	w.i32(1, pageData)
	w.i32(2, f.pageUncompressed)
	w.i32(3, int64(len(payload)))
	w.structField(5)
	w.i32(1, f.pageValues)
	w.i32(2, f.encoding)
	w.i32(3, 3) // RLE
	w.i32(4, 3)
	w.end()
	w.end()
	out = append(append(out, w.b...), payload...)
	chunk := int64(len(out)) - start

	var m thriftWriter
	m.begin()
	m.i32(1, 1)
	m.list(2, ctStruct, f.schemaElements)
	m.begin()
	m.str(4, "schema")
	m.i32(5, 1)
	m.end()
	m.begin()
	m.i32(1, 2) // INT64
	m.i32(3, 0) // REQUIRED
	m.str(4, "x")
	m.end()
	m.i64(3, f.fileRows)
	m.list(4, ctStruct, f.rowGroups)
	m.begin()
	m.list(1, ctStruct, 1)
	m.begin()
	m.i64(2, start)
	m.structField(3)
	m.i32(1, 2)
	encodings := f.chunkEncodings
	if encodings == nil {
		encodings = []int64{0} // PLAIN
	}
	m.list(2, ctI32, uint64(len(encodings)))
	for _, e := range encodings {
		m.zigzag(e)
	}
	m.list(3, ctBinary, 1)
	m.uvarint(1)
	m.b = append(m.b, 'x')
	m.i32(4, f.codec)
	m.i64(5, f.chunkValues)
	m.i64(6, chunk)
	m.i64(7, chunk+f.chunkSize)
	m.i64(9, dataStart)
	if f.dictValues > 0 {
		m.i64(11, start)
	}
	m.end()
	m.end()
	m.i64(2, chunk)
	m.i64(3, f.groupRows)
	m.end()
	m.str(6, "riskbatch forge")
	m.end()
	out = append(out, m.b...)
	n := f.footerLength
	if n == 0 {
		n = int64(len(m.b))
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	return append(out, "PAR1"...)
}

// readForged opens and reads a Parquet file, returning its rows or the
// first error, with the memory allocated meanwhile.
func readForged(t *testing.T, data []byte, opts Options) (rows [][]table.Cell, alloc uint64, err error) {
	t.Helper()
	alloc, _, _ = measure(func() {
		var tables []Table
		tables, err = OpenReader("forged.parquet", bytes.NewReader(data), int64(len(data)), opts)
		if err != nil {
			return
		}
		defer tables[0].Close()
		for {
			var row table.Row
			row, err = tables[0].Next()
			if err == io.EOF {
				err = nil
				return
			}
			if err != nil {
				return
			}
			rows = append(rows, row.Cells)
		}
	})
	return rows, alloc, err
}

// The hand-made file reads back: the forgeries below differ from it only
// in what they forge.
func TestParquetForgeHonest(t *testing.T) {
	rows, _, err := readForged(t, newForge(7, -1, 1<<40).bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != integer(7) || rows[1][0] != integer(-1) || rows[2][0] != integer(1<<40) {
		t.Fatalf("rows %v", rows)
	}
}

// Forged footers and page headers are refused with one error each, before
// Arrow allocates what they declare.
func TestParquetForgedFooter(t *testing.T) {
	const damaged = "forged.parquet: not a readable Parquet file: "
	for _, c := range []struct {
		name  string
		forge func(f *forge)
		msg   string
	}{
		{"footer length outside the file", func(f *forge) { f.footerLength = 0x7FFFFFF0 },
			damaged + "the footer declares 2,147,483,632 bytes of metadata, more than the file holds before it ({before})"},
		{"a hundred million row groups", func(f *forge) { f.rowGroups = 100_000_000 },
			damaged + "the footer is damaged: a Thrift value declares 100,000,000 items in the {rest} that remain"},
		{"a billion schema elements", func(f *forge) { f.schemaElements = 1_000_000_000 },
			damaged + "the footer is damaged: a Thrift value declares 1,000,000,000 items in the {rest} that remain"},
		{"chunk num_values lies", func(f *forge) { f.chunkValues = 1 << 50 },
			"forged.parquet, row 2: the Parquet file is damaged: row group 0: column 0: its chunk declares 1125899906842624 values for 3 rows"},
		{"row group rows lie", func(f *forge) { f.groupRows, f.fileRows = 1<<50, 1<<50 },
			"forged.parquet, row 2: the Parquet file is damaged: row group 0: column 0: its chunk declares 3 values for 1125899906842624 rows"},
		{"row group has more rows than the file", func(f *forge) { f.groupRows = 4 },
			damaged + "row group 0 gives 4 rows, the file 3"},
		{"chunk beyond the file", func(f *forge) { f.chunkSize = 1 << 40 },
			"forged.parquet, row 2: the Parquet file is damaged: row group 0: column 0: its pages (offset 4, {chunk} bytes) lie outside the file of {size} bytes"},
		{"page num_values lies", func(f *forge) { f.pageValues = 1 << 30 },
			"forged.parquet, row 2, column x: the Parquet file is damaged: row group 0: its pages hold 1073741824 values, its metadata declares 3"},
		{"page unpacks to 2 GiB", func(f *forge) { f.pageUncompressed = 1<<31 - 1 },
			"forged.parquet, row 2, column x: the page at byte 4 unpacks to 2,147,483,647 bytes: the limit is 256 MiB; if the file is genuine, raise it with --max-parquet-page-bytes"},
		{"dictionary of 2^31 values", func(f *forge) { f.dictValues = 1<<31 - 1 },
			"forged.parquet, row 2, column x: the Parquet file is damaged: row group 0: the dictionary page at byte 4 declares 2147483647 values in 8 bytes"},
		{"page runs past its chunk", func(f *forge) { f.chunkSize = -8 },
			"forged.parquet, row 2, column x: the Parquet file is damaged: row group 0: the page at byte 4 runs 8 bytes past the end of its column chunk"},
		{"Snappy length lies", func(f *forge) {
			f.codec = 1
			f.payload = compressWith(t, compress.Codecs.Snappy, f.values)
			f.payload = append(binary.AppendUvarint(nil, 1<<32-1), f.payload[1:]...) // was 24, one byte
		}, "forged.parquet, row 2: the Parquet file is damaged: row group 0: parquet: could not decompress page: the page's Snappy data unpacks to 4294967295 bytes, its header declares 24"},
		{"Zstandard frame declares 8 GiB", func(f *forge) {
			f.codec = 6
			// A frame (RFC 8878): magic, a descriptor with an 8-byte
			// Frame_Content_Size and a single segment, then one raw block.
			fr := binary.LittleEndian.AppendUint32(nil, 0xFD2FB528)
			fr = append(fr, 0xE0)
			fr = binary.LittleEndian.AppendUint64(fr, 8<<30)
			fr = append(fr, byte(24<<3|1), 0, 0) // last, raw, 24 bytes
			for _, v := range f.values {
				fr = binary.LittleEndian.AppendUint64(fr, uint64(v))
			}
			f.payload = fr
		}, "forged.parquet, row 2: the Parquet file is damaged: row group 0: parquet: could not decompress page: the page's Zstandard data may unpack to more than the 24 bytes its header declares"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newForge(1, 2, 3)
			c.forge(f)
			data := f.bytes()
			_, alloc, err := readForged(t, data, Options{})
			if err == nil {
				t.Fatal("read without error")
			}
			var te *table.Error
			if !errors.As(err, &te) {
				t.Fatalf("%v (%T) is not a *table.Error", err, err)
			}
			// The sizes the messages give, from the file's layout: the
			// footer, its bytes after the forged list header, the pages.
			footer := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
			size := int64(len(data))
			want := strings.NewReplacer(
				"{before}", byteSize(size-12),
				"{rest}", byteSize(footer-declaredListBytes(data, footer)),
				"{chunk}", fmt.Sprint(1<<40+size-8-footer-4),
				"{size}", fmt.Sprint(size),
			).Replace(c.msg)
			if err.Error() != want {
				t.Errorf("message\n got %q\nwant %q", err, want)
			}
			t.Logf("refused with %d KB allocated", alloc>>10)
			if alloc > memoryBound {
				t.Errorf("refusing it allocated %d bytes", alloc)
			}
		})
	}
}

// declaredListBytes is, for the forged footer of data (footer bytes long),
// the offset just after the header of the first list whose declared count
// is forged (the point from which the reader counts the bytes that
// remain), or 0 when no count is forged.
func declaredListBytes(data []byte, footer int64) int64 {
	if footer > int64(len(data))-12 {
		return 0
	}
	m := data[int64(len(data))-8-footer : len(data)-8]
	// The forged counts are written as 0xF9 (a list of structs with its
	// count in a varint) followed by the varint.
	i := bytes.IndexByte(m, 0xF0|ctStruct)
	if i < 0 {
		return 0
	}
	_, k := binary.Uvarint(m[i+1:])
	return int64(i + 1 + k)
}

// compressWith packs the values, PLAIN-encoded, with an Arrow codec.
func compressWith(t *testing.T, c compress.Compression, values []int64) []byte {
	t.Helper()
	codec, err := compress.GetCodec(c)
	if err != nil {
		t.Fatal(err)
	}
	var plain []byte
	for _, v := range values {
		plain = binary.LittleEndian.AppendUint64(plain, uint64(v))
	}
	return codec.Encode(nil, plain)
}

// A footer above max-parquet-metadata-bytes is refused before it is read:
// the file is 1 GiB (made up on the fly), its footer declares 512 MiB.
func TestParquetMetadataLimit(t *testing.T) {
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:], 512<<20)
	copy(tail[4:], "PAR1")
	src := tailFile(1<<30, tail[:])
	var err error
	alloc, _, took := measure(func() {
		_, err = OpenReader("huge.parquet", src, src.size, Options{})
	})
	t.Logf("512 MiB footer refused in %v with %d KB allocated", took, alloc>>10)
	wantLimit(t, err, pos("huge.parquet", "", 0), "max-parquet-metadata-bytes",
		"huge.parquet: the footer (the file metadata) holds 512 MiB: the limit is 16 MiB; if the file is genuine, raise it with --max-parquet-metadata-bytes")
	if alloc > memoryBound {
		t.Errorf("%d bytes allocated", alloc)
	}

	// Columns.
	data := parquetFixture(t)
	_, err = OpenReader("wide.parquet", bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{Columns: 4}})
	wantLimit(t, err, pos("wide.parquet", "", 0), "max-columns",
		"wide.parquet: the file has 10 columns: the limit is 4 columns; if the file is genuine, raise it with --max-columns")
	// Pages: the fixture's largest page is a few KB.
	_, _, err = readForged(t, data, Options{Limits: Limits{ParquetPageBytes: 1000}})
	var le *LimitError
	if !errors.As(err, &le) || le.Name != "max-parquet-page-bytes" || !IsFatal(err) {
		t.Errorf("a page above the limit: %v", err)
	}
}

// Files compressed with every codec Arrow writes read back through the
// bounded codecs and the page checks, dictionary pages and version 2 data
// pages included.
func TestParquetCodecs(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "v", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	const n = 3000
	for i := range n {
		rb.Field(0).(*array.Float64Builder).Append(float64(i) / 8)
		if i%5 == 0 {
			rb.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			rb.Field(1).(*array.StringBuilder).Append(dictWords[i%3])
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	for i, c := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Brotli, compress.Codecs.Zstd, compress.Codecs.Snappy, compress.Codecs.Zstd} {
		version := parquet.DataPageV1
		if i >= 5 {
			version = parquet.DataPageV2
		}
		data := testfiles.WriteParquet(t, rec, parquet.NewWriterProperties(parquet.WithCompression(c), parquet.WithDataPageVersion(version), parquet.WithMaxRowGroupLength(1000), parquet.WithDataPageSize(2000)))
		rows, _, err := readForged(t, data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if len(rows) != n {
			t.Fatalf("%s: %d rows", c, len(rows))
		}
		for i, r := range rows {
			want := empty()
			if i%5 != 0 {
				want = txt(dictWords[i%3])
			}
			if r[0] != num(float64(i)/8) || r[1] != want {
				t.Fatalf("%s: row %d: %v", c, i, r)
			}
		}
	}
}

func TestZstdBound(t *testing.T) {
	codec, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("riskbatch "), 100000)
	packed := codec.Encode(nil, data)
	if n, ok := zstdBound(packed); !ok || n < uint64(len(data)) || n > uint64(len(data))+zstdBlockMax {
		t.Errorf("zstdBound = %d, %v for %d bytes", n, ok, len(data))
	}
	// Two frames, the first one skippable.
	skip := binary.LittleEndian.AppendUint32(nil, 0x184D2A53)
	skip = binary.LittleEndian.AppendUint32(skip, 3)
	skip = append(skip, 1, 2, 3)
	if n, ok := zstdBound(append(skip, packed...)); !ok || n < uint64(len(data)) {
		t.Errorf("after a skippable frame: %d, %v", n, ok)
	}
	for _, bad := range [][]byte{{1, 2, 3}, packed[:len(packed)/2], append(bytes.Clone(packed), 0)} {
		if _, ok := zstdBound(bad); ok {
			t.Errorf("zstdBound accepts % x…", bad[:min(8, len(bad))])
		}
	}
}

// parquetSeeds adds Parquet files with what real ones hold: every flat
// type riskbatch reads (dictionaries, decimals, timestamps, nulls), nested
// and unsupported types (list, struct, map), each compression codec,
// several row groups and pages, a legacy writer's footer, and hand-made
// files with forged counts and sizes.
func parquetSeeds(f *testing.F) {
	f.Add(parquetFixture(f))
	mem := memory.NewGoAllocator()
	for _, field := range []arrow.Field{
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "point", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}, arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true})},
		{Name: "counts", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
	} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "epsilon", Type: arrow.PrimitiveTypes.Float64}, field}, nil)
		rb := array.NewRecordBuilder(mem, schema)
		for i := range 3 {
			rb.Field(0).(*array.Float64Builder).Append(float64(i) / 2)
			switch b := rb.Field(1).(type) {
			case *array.ListBuilder:
				b.Append(true)
				b.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, int32(i)}, nil)
			case *array.StructBuilder:
				b.Append(true)
				b.FieldBuilder(0).(*array.Float64Builder).Append(float64(i))
				b.FieldBuilder(1).(*array.StringBuilder).AppendNull()
			case *array.MapBuilder:
				b.Append(true)
				b.KeyBuilder().(*array.StringBuilder).Append("k")
				b.ItemBuilder().(*array.Int64Builder).Append(int64(i))
			case *array.Date32Builder:
				b.Append(arrow.Date32(19000 + i))
			}
		}
		rec := rb.NewRecordBatch()
		f.Add(writeParquet(f, rec))
		rec.Release()
		rb.Release()
	}
	for _, c := range []compress.Compression{compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip, compress.Codecs.Brotli} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "epsilon", Type: arrow.PrimitiveTypes.Float64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		rb := array.NewRecordBuilder(mem, schema)
		for i := range 40 {
			rb.Field(0).(*array.Float64Builder).Append(float64(i))
			rb.Field(1).(*array.StringBuilder).Append(dictWords[i%3])
		}
		rec := rb.NewRecordBatch()
		f.Add(testfiles.WriteParquet(f, rec, parquet.NewWriterProperties(parquet.WithCompression(c), parquet.WithMaxRowGroupLength(16), parquet.WithDataPageSize(64))))
		rec.Release()
		rb.Release()
	}
	honest := newForge(1, 2, 3)
	f.Add(honest.bytes())
	for _, forged := range []func(*forge){
		func(g *forge) { g.rowGroups = 100_000_000 },
		func(g *forge) { g.chunkValues = 1 << 40 },
		func(g *forge) { g.pageUncompressed = 1<<31 - 1 },
		func(g *forge) { g.dictValues = 1 << 20 },
		func(g *forge) { g.footerLength = 1 << 30 },
		func(g *forge) { g.codec = 1; g.payload = []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0} },
	} {
		g := newForge(1, 2, 3)
		forged(g)
		f.Add(g.bytes())
	}
}
