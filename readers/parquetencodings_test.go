package readers

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// encodingRows is the number of rows of encodingFixture: several row groups
// of several pages each.
const encodingRows = 500

// encodingSchema has a column of each physical type (INT32, INT64, FLOAT,
// DOUBLE, BOOLEAN, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), some with a logical
// type, and a nested one.
var encodingSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 20, Scale: 4}, Nullable: true},
	{Name: "uid", Type: extensions.NewUUIDType(), Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32},
	{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
}, nil)

// encodingFixture is a record of encodingSchema, with nulls, empty
// strings, invalid UTF-8 and empty lists.
func encodingFixture(t *testing.T) arrow.RecordBatch {
	t.Helper()
	rb := array.NewRecordBuilder(memory.NewGoAllocator(), encodingSchema)
	defer rb.Release()
	for i := range encodingRows {
		if i%7 == 3 {
			rb.Field(0).AppendNull()
		} else {
			rb.Field(0).(*array.Int32Builder).Append(int32(i*i - 1000))
		}
		rb.Field(1).(*array.Int64Builder).Append(int64(i)*1_000_000_000_000 - 7)
		if i%11 == 5 {
			rb.Field(2).AppendNull()
		} else {
			rb.Field(2).(*array.Float32Builder).Append(float32(i)/4 - 3)
		}
		rb.Field(3).(*array.Float64Builder).Append(float64(i) * 0.1)
		if i%13 == 12 {
			rb.Field(4).AppendNull()
		} else {
			rb.Field(4).(*array.BooleanBuilder).Append(i%3 == 0)
		}
		switch {
		case i%5 == 4:
			rb.Field(5).AppendNull()
		case i%17 == 0:
			rb.Field(5).(*array.StringBuilder).Append("")
		default:
			rb.Field(5).(*array.StringBuilder).Append(fmt.Sprintf("row %d é", i/3)) // repeats: prefixes shared
		}
		rb.Field(6).(*array.BinaryBuilder).Append([]byte{byte(i), 0xff, byte(i >> 8)})
		if i%19 == 18 {
			rb.Field(7).AppendNull()
		} else {
			rb.Field(7).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i)*12345 - 6_000_000))
		}
		if i%23 == 22 {
			rb.Field(8).AppendNull()
		} else if err := rb.Field(8).AppendValueFromString(encodingUUID(i)); err != nil {
			t.Fatal(err)
		}
		rb.Field(9).(*array.TimestampBuilder).Append(arrow.Timestamp(1_709_294_400_000_000 + int64(i)*1_000_001))
		rb.Field(10).(*array.Date32Builder).Append(arrow.Date32(19783 + i - 250))
		lb := rb.Field(11).(*array.ListBuilder)
		if i%9 == 8 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for k := range i % 4 {
				lb.ValueBuilder().(*array.Int64Builder).Append(int64(k * i))
			}
		}
	}
	return rb.NewRecordBatch()
}

// encodingUUID is the UUID of row i.
func encodingUUID(i int) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012x", uint64(i)*2654435761)
}

// wantEncodingRow is row i of encodingFixture, as the cells the reader
// gives: written out from the values above, not through the reader's
// conversions.
func wantEncodingRow(i int) []table.Cell {
	c := make([]table.Cell, 12)
	if i%7 != 3 {
		c[0] = integer(int64(i*i - 1000))
	}
	c[1] = integer(int64(i)*1_000_000_000_000 - 7)
	if i%11 != 5 {
		c[2] = num(float64(i)/4 - 3) // exact in float32 and float64
	}
	c[3] = num(float64(i) * 0.1)
	if i%13 != 12 {
		c[4] = boolean(i%3 == 0)
	}
	switch {
	case i%5 == 4:
	case i%17 == 0:
		c[5] = txt("")
	default:
		c[5] = txt(fmt.Sprintf("row %d é", i/3))
	}
	c[6] = txt(fmt.Sprintf("0x%02xff%02x", byte(i), byte(i>>8))) // not UTF-8: hexadecimal
	if i%19 != 18 {
		v := int64(i)*12345 - 6_000_000
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		c[7] = table.DecimalCell(fmt.Sprintf("%s%d.%04d", sign, v/10000, v%10000))
	}
	if i%23 != 22 {
		c[8] = txt(encodingUUID(i))
	}
	c[9] = table.TimestampCell(1_709_294_400_000_000+int64(i)*1_000_001, table.Microsecond.InUTC())
	c[10] = table.DateCell(int64(19783 + i - 250))
	if i%9 != 8 {
		items := make([]string, i%4)
		for k := range items {
			items[k] = fmt.Sprint(k * i)
		}
		c[11] = table.NestedCell("[" + strings.Join(items, ",") + "]")
	}
	return c
}

// encodingCase is one way of encoding the columns: the encoding asked for
// each column named (dictionary off), or dictionary encoding.
type encodingCase struct {
	name string
	dict bool
	cols map[string]parquet.Encoding // by column path
}

var encodingCases = []encodingCase{
	{name: "PLAIN"},
	{name: "RLE_DICTIONARY", dict: true},
	{name: "DELTA_BINARY_PACKED", cols: map[string]parquet.Encoding{
		"i32": parquet.Encodings.DeltaBinaryPacked, "i64": parquet.Encodings.DeltaBinaryPacked,
		"ts": parquet.Encodings.DeltaBinaryPacked, "d": parquet.Encodings.DeltaBinaryPacked,
		"tags.list.element": parquet.Encodings.DeltaBinaryPacked,
		"b":                 parquet.Encodings.RLE,
	}},
	{name: "DELTA_LENGTH_BYTE_ARRAY", cols: map[string]parquet.Encoding{
		"s": parquet.Encodings.DeltaLengthByteArray, "bin": parquet.Encodings.DeltaLengthByteArray,
	}},
	{name: "DELTA_BYTE_ARRAY", cols: map[string]parquet.Encoding{
		"s": parquet.Encodings.DeltaByteArray, "bin": parquet.Encodings.DeltaByteArray,
	}},
	{name: "BYTE_STREAM_SPLIT", cols: map[string]parquet.Encoding{
		"f32": parquet.Encodings.ByteStreamSplit, "f64": parquet.Encodings.ByteStreamSplit,
		"i32": parquet.Encodings.ByteStreamSplit, "i64": parquet.Encodings.ByteStreamSplit,
		"dec": parquet.Encodings.ByteStreamSplit, "uid": parquet.Encodings.ByteStreamSplit,
	}},
}

// Every encoding arrow-go writes, under every codec it writes, with data
// pages of versions 1 and 2 (every combination with the long tests, half
// of them otherwise), reads back with the values written, nulls
// included; the file's metadata confirms that each column was written with
// the encoding asked for.
func TestParquetEncodingsAndCodecs(t *testing.T) {
	t.Parallel()
	rec := encodingFixture(t)
	defer rec.Release()
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip,
		compress.Codecs.Zstd, compress.Codecs.Brotli, compress.Codecs.Lz4Raw}
	for ei, ec := range encodingCases {
		for ci, codec := range codecs {
			for vi, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
				if !testenv.Long() && (ei+ci+vi)%2 == 1 {
					// Half the cases by default: every encoding with
					// every codec, and with both page versions.
					continue
				}
				name := fmt.Sprintf("%s/%s/V%d", ec.name, codec, version+1)
				t.Run(name, func(t *testing.T) {
					opts := []parquet.WriterProperty{
						parquet.WithCompression(codec), parquet.WithDataPageVersion(version),
						parquet.WithMaxRowGroupLength(200), parquet.WithDataPageSize(512), parquet.WithBatchSize(64),
						parquet.WithDictionaryDefault(ec.dict),
					}
					if ec.dict { // keep the dictionary where it does not pay (uncompressed pages)
						for _, path := range []string{"i32", "i64", "f32", "f64", "s", "bin", "dec", "uid", "ts", "d", "tags.list.element"} {
							opts = append(opts, parquet.WithDictionaryCostFallbackFor(path, false))
						}
					}
					for path, enc := range ec.cols {
						opts = append(opts, parquet.WithEncodingFor(path, enc))
					}
					data := testfiles.WriteParquet(t, rec, parquet.NewWriterProperties(opts...))
					checkEncodings(t, data, ec, codec)
					rows, _, err := readForged(t, data, Options{BatchRows: 150})
					if err != nil {
						t.Fatal(err)
					}
					if len(rows) != encodingRows {
						t.Fatalf("%d rows, want %d", len(rows), encodingRows)
					}
					for i, r := range rows {
						if want := wantEncodingRow(i); !slices.Equal(r, want) {
							t.Fatalf("row %d:\n got %v\nwant %v", i, r, want)
						}
					}
				})
			}
		}
	}
}

// checkEncodings checks that every column chunk of a file lists the
// encoding its case asks for (RLE_DICTIONARY for dictionary encoding, but
// for booleans, which have no dictionary) and the codec.
func checkEncodings(t *testing.T, data []byte, ec encodingCase, codec compress.Compression) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	if pf.NumRowGroups() < 2 {
		t.Errorf("%d row groups", pf.NumRowGroups())
	}
	for g := range pf.NumRowGroups() {
		for c := range md.Schema.NumColumns() {
			cc, err := md.RowGroup(g).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			path := md.Schema.Column(c).Path()
			want, ok := ec.cols[path]
			switch {
			case ok:
			case ec.dict && path != "b":
				want = parquet.Encodings.RLEDict
			default:
				want = parquet.Encodings.Plain
			}
			if !slices.Contains(cc.Encodings(), want) {
				t.Errorf("row group %d, %s: encodings %v, want %v", g, path, cc.Encodings(), want)
			}
			if cc.Compression() != codec {
				t.Errorf("row group %d, %s: codec %v", g, path, cc.Compression())
			}
		}
	}
}

// A column chunk compressed with a codec that arrow-go cannot unpack (the
// legacy LZ4 codec, Hadoop's framing, which LZ4_RAW replaced) is refused
// with an error that names the codec, not reported as damage.
func TestParquetLegacyLZ4(t *testing.T) {
	f := newForge(1, 2, 3)
	f.codec = 5 // parquet.thrift CompressionCodec LZ4
	_, _, err := readForged(t, f.bytes(), Options{})
	te := wantError(t, err, table.Position{File: "forged.parquet", Row: 2, Column: 0, ColumnName: "x"},
		"forged.parquet, row 2, column x: its pages are compressed with LZ4, which riskbatch cannot unpack; write the file again with SNAPPY, ZSTD, GZIP, BROTLI, LZ4_RAW or no compression")
	if !IsFatal(te) || strings.Contains(err.Error(), "damaged") {
		t.Errorf("%v: not a fatal error, or reported as damage", err)
	}
}

// A column chunk whose metadata lists an encoding arrow-go does not decode
// for its type (DELTA_BYTE_ARRAY for INT64 here; for FIXED_LEN_BYTE_ARRAY,
// as parquet-mr's version 2 writer uses it, likewise) is refused by name
// before Arrow, which would panic on its first page, reads it. Level
// encodings and dictionary encodings in the list are fine.
func TestParquetUndecodableEncoding(t *testing.T) {
	f := newForge(1, 2, 3)
	f.chunkEncodings = []int64{3, 4, 8, 2, 0} // RLE, BIT_PACKED, RLE_DICTIONARY, PLAIN_DICTIONARY, PLAIN
	if rows, _, err := readForged(t, f.bytes(), Options{}); err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	f.chunkEncodings = []int64{0, 7} // PLAIN, DELTA_BYTE_ARRAY
	_, _, err := readForged(t, f.bytes(), Options{})
	te := wantError(t, err, table.Position{File: "forged.parquet", Row: 2, Column: 0, ColumnName: "x"},
		"forged.parquet, row 2, column x: its pages use the encoding DELTA_BYTE_ARRAY, which riskbatch cannot decode for INT64 values; write the file again with the default encodings")
	if !IsFatal(te) || strings.Contains(err.Error(), "damaged") {
		t.Errorf("%v: not a fatal error, or reported as damage", err)
	}
}
