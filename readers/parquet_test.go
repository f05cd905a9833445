package readers

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/arrowcell"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// parquetRows is the number of rows of the fixture: more than one batch of
// the default size, and several row groups.
const parquetRows = 5000

var dictWords = []string{"low", "mid", "high"}

// writeParquet writes a record with pqarrow, storing the Arrow schema so
// that dictionary columns read back as dictionaries.
func writeParquet(t testing.TB, rec arrow.RecordBatch) []byte {
	t.Helper()
	return testfiles.WriteParquet(t, rec, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(1500)), pqarrow.WithStoreSchema())
}

// parquetFixture has integer, float, decimal, string, dictionary, boolean,
// unsigned, timestamp and date columns, with nulls.
func parquetFixture(t testing.TB) []byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 12, Scale: 3}},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "dict", Type: dictType},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	base := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range parquetRows {
		if i%7 == 3 {
			rb.Field(0).(*array.Int32Builder).AppendNull()
		} else {
			rb.Field(0).(*array.Int32Builder).Append(int32(i))
		}
		rb.Field(1).(*array.Int64Builder).Append(int64(i) * 1_000_000_000)
		rb.Field(2).(*array.Float64Builder).Append(float64(i) / 4)
		rb.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i)*1000 + 5))
		if i%5 == 4 {
			rb.Field(4).(*array.StringBuilder).AppendNull()
		} else {
			rb.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i))
		}
		if err := rb.Field(5).(*array.BinaryDictionaryBuilder).AppendString(dictWords[i%3]); err != nil {
			t.Fatal(err)
		}
		if i%11 == 10 {
			rb.Field(6).(*array.BooleanBuilder).AppendNull()
		} else {
			rb.Field(6).(*array.BooleanBuilder).Append(i%2 == 0)
		}
		u := uint64(i)
		if i == 0 {
			u = math.MaxUint64
		}
		rb.Field(7).(*array.Uint64Builder).Append(u)
		rb.Field(8).(*array.TimestampBuilder).Append(arrow.Timestamp(base.Add(time.Duration(i) * time.Second).UnixMilli()))
		rb.Field(9).(*array.Date32Builder).Append(arrow.Date32FromTime(base.AddDate(0, 0, i)))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	return writeParquet(t, rec)
}

// wantParquetRow is row i of parquetFixture.
func wantParquetRow(i int) []table.Cell {
	c := make([]table.Cell, 10)
	if i%7 != 3 {
		c[0] = integer(int64(i))
	}
	c[1] = integer(int64(i) * 1_000_000_000)
	c[2] = num(float64(i) / 4)
	c[3] = table.DecimalCell(fmt.Sprintf("%d.005", i)) // i×1000+5 at scale 3
	if i%5 != 4 {
		c[4] = txt(fmt.Sprintf("s%d", i))
	}
	c[5] = txt(dictWords[i%3])
	if i%11 != 10 {
		c[6] = boolean(i%2 == 0)
	}
	if i == 0 {
		c[7] = table.DecimalCell("18446744073709551615") // exact: beyond int64, and float64 would round it to 2⁶⁴
	} else {
		c[7] = integer(int64(i))
	}
	base := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	c[8] = table.TimestampCell(base.Add(time.Duration(i)*time.Second).UnixMilli(), table.Millisecond.InUTC())
	c[9] = table.DateCell(int64(19783 + i)) // 2024-03-01 is day 19,783 after 1970-01-01
	return c
}

func TestParquet(t *testing.T) {
	data := parquetFixture(t)
	path := writeFile(t, "releases.parquet", data)
	for _, batch := range []int{0, 333} {
		t.Run(fmt.Sprint("batch", batch), func(t *testing.T) {
			tb := openOne(t, path, Options{BatchRows: batch})
			if tb.File() != path || tb.Sheet() != "" {
				t.Errorf("File, Sheet = %q, %q", tb.File(), tb.Sheet())
			}
			names, kinds := columnNames(tb.Columns())
			if !reflect.DeepEqual(names, []string{"i32", "i64", "f64", "dec", "s", "dict", "b", "u64", "ts", "day"}) {
				t.Errorf("names %q", names)
			}
			wantKinds := []table.Kind{table.Integer, table.Integer, table.Number, table.Decimal, table.Text, table.Text, table.Bool, table.Integer, table.Timestamp, table.Date}
			if !reflect.DeepEqual(kinds, wantKinds) {
				t.Errorf("kinds %v, want %v", kinds, wantKinds)
			}
			got := drain(t, tb)
			if len(got) != parquetRows {
				t.Fatalf("%d rows, want %d", len(got), parquetRows)
			}
			for i, e := range got {
				wantRow(t, e, pos(path, "", i+2), wantParquetRow(i))
				if t.Failed() {
					t.FailNow()
				}
			}
			if err := tb.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
	// From memory.
	tables, err := OpenReader("mem.parquet", bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	row, err := tables[0].Next()
	if err != nil {
		t.Fatal(err)
	}
	wantRow(t, entry{Row: row}, pos("mem.parquet", "", 2), wantParquetRow(0))
}

func TestParquetMoreTypes(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "bin", Type: arrow.BinaryTypes.Binary},
		{Name: "naive", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "empty", Type: arrow.BinaryTypes.String},
		{Name: "d256", Type: &arrow.Decimal256Type{Precision: 40, Scale: 2}},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	rb.Field(0).(*array.Int8Builder).AppendValues([]int8{-128, 5}, nil)
	rb.Field(1).(*array.Uint16Builder).AppendValues([]uint16{65535, 0}, nil)
	rb.Field(2).(*array.Float32Builder).AppendValues([]float32{0.5, -1}, nil)
	rb.Field(3).(*array.BinaryBuilder).AppendValues([][]byte{[]byte("utf8 é"), {0xff, 0x00}}, nil)
	ts := time.Date(2023, 12, 31, 23, 59, 58, 123456000, time.UTC)
	rb.Field(4).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(ts.UnixMicro()), 0}, nil)
	rb.Field(5).(*array.StringBuilder).AppendValues([]string{"", "x"}, nil)
	rb.Field(6).(*array.Decimal256Builder).AppendValues([]decimal256.Num{decimal256.FromI64(-12345), decimal256.FromI64(1)}, nil)
	rec := rb.NewRecordBatch()
	defer rec.Release()
	path := writeFile(t, "more.parquet", writeParquet(t, rec))
	tb := openOne(t, path, Options{})
	_, kinds := columnNames(tb.Columns())
	if !reflect.DeepEqual(kinds, []table.Kind{table.Integer, table.Integer, table.Number, table.Text, table.Timestamp, table.Text, table.Decimal}) {
		t.Errorf("kinds %v", kinds)
	}
	got := drain(t, tb)
	if len(got) != 2 {
		t.Fatalf("%d entries", len(got))
	}
	wantRow(t, got[0], pos(path, "", 2), cells(integer(-128), integer(65535), num(0.5), txt("utf8 é"), table.TimestampCell(ts.UnixMicro(), table.Microsecond), txt(""), table.DecimalCell("-123.45")))
	wantRow(t, got[1], pos(path, "", 3), cells(integer(5), integer(0), num(-1), txt("0xff00"), table.TimestampCell(0, table.Microsecond), txt("x"), table.DecimalCell("0.01")))
}

// Nested columns (list, struct, map) read as JSON text, as Arrow marshals
// them; they used to make Open fail.
func TestParquetNested(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}, arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Float64}), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	// array.FromJSON reads numbers exactly (2⁵³+1 stays odd).
	var cols []arrow.Array
	for j, values := range []string{
		`[1, 2, 3]`,
		`[[1,2], [], null]`,
		`[{"b":"x<y","a":0.5}, null, {"b":null,"a":-1e300}]`,
		`[[{"key":"k","value":9007199254740993}], [], null]`,
	} {
		arr, _, err := array.FromJSON(mem, schema.Field(j).Type, strings.NewReader(values))
		if err != nil {
			t.Fatal(err)
		}
		defer arr.Release()
		cols = append(cols, arr)
	}
	rec := array.NewRecordBatch(schema, cols, 3)
	defer rec.Release()
	path := writeFile(t, "nested.parquet", writeParquet(t, rec))
	tb := openOne(t, path, Options{})
	_, kinds := columnNames(tb.Columns())
	if !reflect.DeepEqual(kinds, []table.Kind{table.Integer, table.Nested, table.Nested, table.Nested}) {
		t.Errorf("kinds %v", kinds)
	}
	for j, c := range tb.Columns() {
		if !arrow.TypeEqual(c.Source.(arrow.DataType), schema.Field(j).Type) {
			t.Errorf("%s: Source %v, want %v", c.Name, c.Source, schema.Field(j).Type)
		}
	}
	got := drain(t, tb)
	if len(got) != 3 {
		t.Fatalf("%d entries", len(got))
	}
	nested := table.NestedCell
	// Struct fields come in name order (Arrow marshals a struct as a Go
	// map); HTML characters are not escaped.
	wantRow(t, got[0], pos(path, "", 2), cells(integer(1), nested(`[1,2]`), nested(`{"a":0.5,"b":"x<y"}`), nested(`[{"key":"k","value":9007199254740993}]`)))
	wantRow(t, got[1], pos(path, "", 3), cells(integer(2), nested(`[]`), empty(), nested(`[]`)))
	wantRow(t, got[2], pos(path, "", 4), cells(integer(3), empty(), nested(`{"a":-1e+300,"b":null}`), empty()))
}

func TestParquetUnreadable(t *testing.T) {
	data := parquetFixture(t)
	for _, n := range []int{0, 3, len(data) / 2, len(data) - 3} {
		path := writeFile(t, "cut.parquet", data[:n])
		_, err := Open(path, Options{})
		wantError(t, err, pos(path, "", 0), path+": not a readable Parquet file")
	}
	path := writeFile(t, "text.parquet", []byte("name,epsilon\nx,1\n"))
	_, err := Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": not a readable Parquet file")

	// Damage anywhere: Open or Next fails with a *table.Error naming the
	// file, or the damage goes unnoticed (data pages carry no checksum);
	// never a panic. At 40 places spread over the file, 12 by default.
	dir := t.TempDir()
	failed := 0
	places := testenv.Count(12, 40)
	for k := range places {
		bad := bytes.Clone(data)
		at := k * len(bad) / places
		for i := at; i < at+64 && i < len(bad); i++ {
			bad[i] ^= 0x5a
		}
		path := filepath.Join(dir, fmt.Sprintf("damaged%d.parquet", k))
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		tables, err := Open(path, Options{BatchRows: 700})
		if err != nil {
			wantError(t, err, pos(path, "", 0), path+": not a readable Parquet file")
			failed++
			continue
		}
		got := drain(t, tables[0])
		_ = tables[0].Close()
		for _, e := range got {
			if e.Err != nil {
				if te, ok := e.Err.(*table.Error); !ok || te.Pos.File != path || !strings.Contains(te.Error(), "the Parquet file is damaged") || !IsFatal(te) {
					t.Fatalf("damage at %d: error %v (%T)", at, e.Err, e.Err)
				}
				failed++
			}
		}
	}
	t.Logf("%d of %d damaged files gave an error", failed, places)
}

func TestDecimalText(t *testing.T) {
	for _, c := range []struct {
		unscaled string
		scale    int32
		want     string
	}{
		{"1005", 3, "1.005"}, {"-1005", 3, "-1.005"}, {"7", -2, "700"}, {"0", 5, "0.00000"}, {"0", -3, "0"},
		{"-1000000", 4, "-100.0000"}, {"5", 3, "0.005"}, {"-5", 1, "-0.5"},
		{"123456789012345678901234567890", 10, "12345678901234567890.1234567890"},
	} {
		v, _ := new(big.Int).SetString(c.unscaled, 10)
		if got := decimalText(v, c.scale); got != c.want {
			t.Errorf("decimalText(%s, %d) = %q, want %q", c.unscaled, c.scale, got, c.want)
		}
	}
}

// Binary values read as their UTF-8 text unless they are not text (invalid
// UTF-8, control characters) or read as a hexadecimal literal: then as "0x" and their digits, so that
// the text always names the bytes exactly.
func TestTextFromBytes(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{[]byte("id-7 é"), "id-7 é"}, {[]byte{}, ""}, {[]byte{0xff, 0}, "0xff00"},
		{[]byte("0xab"), "0x30786162"}, {[]byte("0x"), "0x3078"}, {[]byte("0xA"), "0xA"}, {[]byte("0xabc"), "0xabc"},
		{[]byte{0, 'A'}, "0x0041"}, {[]byte("a\tb\r\n"), "a\tb\r\n"}, {[]byte{0x7f}, "0x7f"},
	} {
		if got := textFromBytes(c.b); got != c.want {
			t.Errorf("textFromBytes(% x) = %q, want %q", c.b, got, c.want)
		}
	}
}

// float32 and float16 values read as the shortest decimal that reads back
// as the same value.
func TestShortFloats(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want float64
	}{{0.1, 0.1}, {1.0 / 3, 0.33333334}, {-2.5, -2.5}, {1e-45, 1e-45}} {
		if got := arrowcell.Float32Value(c.v); got != c.want {
			t.Errorf("arrowcell.Float32Value(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    float32
		want float64
	}{{0.1, 0.1}, {1.0 / 3, 0.3333}, {-0.5, -0.5}, {65504, 65504}} { // float16.New truncates: 65500 would be 65472
		if got := arrowcell.Float16Value(float16.New(c.v)); got != c.want {
			t.Errorf("arrowcell.Float16Value(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}
