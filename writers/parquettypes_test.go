package writers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// readTable reads every row of a file with the readers package.
func readTable(t *testing.T, path string) ([]table.Column, [][]table.Cell) {
	t.Helper()
	tables, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := tables[0]
	defer tb.Close()
	return tb.Columns(), readback.AllRows(t, tb)
}

// passThrough reads in and writes its columns and rows to out, as eval
// --pass-through does (without the status and bound columns).
func passThrough(t *testing.T, in, out string) ([]table.Column, [][]table.Cell) {
	t.Helper()
	cols, rows := readTable(t, in)
	w := writeTable(t, out, Options{}, cols, rows)
	if n := w.(NullReporter).NulledCells(); n != 0 {
		t.Errorf("%d cells written as nulls", n)
	}
	return cols, rows
}

// sameTables compares two tables read back: names, kinds, Arrow types
// and every cell.
func sameTables(t *testing.T, cols1, cols2 []table.Column, rows1, rows2 [][]table.Cell) {
	t.Helper()
	if len(cols1) != len(cols2) {
		t.Fatalf("%d columns, then %d", len(cols1), len(cols2))
	}
	for j := range cols1 {
		a, _ := cols1[j].Source.(arrow.DataType)
		b, _ := cols2[j].Source.(arrow.DataType)
		if cols1[j].Name != cols2[j].Name || cols1[j].Kind != cols2[j].Kind || a == nil || b == nil || !arrow.TypeEqual(a, b) {
			t.Errorf("column %d: %s %v %v, then %s %v %v", j, cols1[j].Name, cols1[j].Kind, a, cols2[j].Name, cols2[j].Kind, b)
		}
	}
	sameRows(t, cols1, rows2, rows1, 2)
}

// A Parquet file written by DuckDB with every logical type (timestamps of
// each unit, with and without time zone, date, time, decimals, UUID, list,
// struct, map, binary, unsigned integers) written back in pass-through
// mode has the same Arrow schema and the same values, cell by cell.
func TestParquetRoundTripDuckDB(t *testing.T) {
	in := filepath.Join("..", "readers", "testdata", "duckdb_v2.parquet")
	out := filepath.Join(t.TempDir(), "out.parquet")
	cols1, rows1 := passThrough(t, in, out)
	cols2, rows2 := readTable(t, out)
	sameTables(t, cols1, cols2, rows1, rows2)
	if len(rows1) != 300 {
		t.Errorf("%d rows", len(rows1))
	}
}

// Types DuckDB does not write, written by arrow-go, round-trip too: small
// and unsigned integers, float16, time32, timestamps in nanoseconds with a
// time zone, decimal256, fixed-size binary, binary values that are text,
// bytes, or text that looks like hexadecimal digits, lists of structs.
func TestParquetRoundTripArrowTypes(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "h", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "t32", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true},
		{Name: "tns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "d256", Type: &arrow.Decimal256Type{Precision: 50, Scale: 12}, Nullable: true},
		{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "uid", Type: extensions.NewUUIDType(), Nullable: true},
		{Name: "pts", Type: arrow.ListOf(arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "when", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
			arrow.Field{Name: "raw", Type: arrow.BinaryTypes.Binary, Nullable: true},
		)), Nullable: true},
	}, nil)
	var cols []arrow.Array
	for j, values := range []string{
		`[-32768, 7, null]`,
		`[255, 0, null]`,
		`[65535, 1, null]`,
		`[0.1, -65504, null]`,
		`[0.1, 3.4028235e38, null]`,
		`[86399999, 0, null]`,
		`[1709294400123456789, -1, null]`,
		`["-12345678901234567890123456789012345.678901234567", "0.000000000001", null]`,
		`["YWJj", "AP8A", null]`,           // base64: "abc", 00 ff 00
		`["aGVsbG8=", "MHhhYg==", "AAE="]`, // "hello", "0xab", 00 01
		`["0d6f2f36-3b4b-4a83-9d0e-58d5f5fa9c1e", null, "00000000-0000-0000-0000-000000000000"]`,
		`[[{"x":9007199254740993,"when":"2024-03-01T12:00:00.001","raw":"AAE="}], [], null]`,
	} {
		arr, _, err := array.FromJSON(memory.NewGoAllocator(), schema.Field(j).Type, strings.NewReader(values))
		if err != nil {
			t.Fatalf("%s: %v", schema.Field(j).Name, err)
		}
		defer arr.Release()
		cols = append(cols, arr)
	}
	rec := array.NewRecordBatch(schema, cols, 3)
	defer rec.Release()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.parquet"), filepath.Join(dir, "out.parquet")
	if err := os.WriteFile(in, testfiles.WriteParquet(t, rec, parquet.NewWriterProperties()), 0o644); err != nil {
		t.Fatal(err)
	}
	cols1, rows1 := passThrough(t, in, out)
	cols2, rows2 := readTable(t, out)
	sameTables(t, cols1, cols2, rows1, rows2)
	// What the cells hold, spelled out (the reader's forms).
	want := []string{"-32768", "255", "65535", "0.1", "0.1", "23:59:59.999", "2024-03-01T12:00:00.123456789Z",
		"-12345678901234567890123456789012345.678901234567", "abc", "hello", "0d6f2f36-3b4b-4a83-9d0e-58d5f5fa9c1e",
		`[{"raw":"AAE=","when":"2024-03-01T12:00:00.001","x":9007199254740993}]`}
	for j, w := range want {
		if got := rows1[0][j].String(); got != w {
			t.Errorf("row 2, %s: %q, want %q", cols1[j].Name, got, w)
		}
	}
	if got := rows1[1][8].String(); got != "0x00ff00" {
		t.Errorf("fsb bytes: %q", got)
	}
	if got := rows1[1][9].String(); got != "0x30786162" { // the text "0xab", as bytes
		t.Errorf("bin text 0xab: %q", got)
	}
	if got := rows1[2][9].String(); got != "0x0001" {
		t.Errorf("bin bytes: %q", got)
	}
}

// Cells of the new kinds in columns without an Arrow type (from CSV or
// XLSX input) get Parquet types of their own: Date → date32, Timestamp →
// timestamp in the unit of the first row's cell (UTC when it is an
// instant; seconds as milliseconds), TimeOfDay → time32 or time64
// likewise, Decimal and Nested →
// string (their exact text). A cell that a type cannot hold exactly is a
// counted null.
func TestParquetKindsWithoutSource(t *testing.T) {
	cols := []table.Column{
		{Name: "day", Kind: table.Date},
		{Name: "at", Kind: table.Timestamp},
		{Name: "clock", Kind: table.TimeOfDay},
		{Name: "amount", Kind: table.Decimal},
		{Name: "tags", Kind: table.Nested},
		{Name: "wall", Kind: table.Timestamp},
	}
	rows := [][]table.Cell{
		{table.DateCell(19783), table.TimestampCell(1709294400123, table.Millisecond.InUTC()), table.TimeOfDayCell(30600, table.Second),
			table.DecimalCell("-0.10"), table.NestedCell(`[1,2]`), empty()},
		{empty(), table.TimestampCell(1709294400, table.Second.InUTC()), table.TimeOfDayCell(30600500, table.Millisecond),
			table.DecimalCell("123456789012345678901234567890.5"), empty(), table.TimestampCell(1, table.Nanosecond)},
	}
	path := filepath.Join(t.TempDir(), "kinds.parquet")
	w := writeTable(t, path, Options{}, cols, rows)
	// 1 ns is not a whole microsecond.
	if n := w.(NullReporter).NulledCells(); n != 1 {
		t.Errorf("NulledCells = %d, want 1", n)
	}
	got, back := readTable(t, path)
	// Seconds are written as milliseconds: Parquet's TIME has no seconds.
	wantTypes := []string{"date32", "timestamp[ms, tz=UTC]", "time32[ms]", "utf8", "utf8", "timestamp[us]"}
	for j, wt := range wantTypes {
		if dt := got[j].Source.(arrow.DataType); dt.String() != wt {
			t.Errorf("%s: type %s, want %s", cols[j].Name, dt, wt)
		}
	}
	wantRows := [][]table.Cell{
		{table.DateCell(19783), table.TimestampCell(1709294400123, table.Millisecond.InUTC()), table.TimeOfDayCell(30600000, table.Millisecond),
			text("-0.10"), text(`[1,2]`), empty()},
		{empty(), table.TimestampCell(1709294400000, table.Millisecond.InUTC()), table.TimeOfDayCell(30600500, table.Millisecond),
			text("123456789012345678901234567890.5"), empty(), empty()},
	}
	for i := range wantRows {
		for j := range wantRows[i] {
			if back[i][j] != wantRows[i][j] {
				t.Errorf("row %d, %s: %#v, want %#v", i+2, cols[j].Name, back[i][j], wantRows[i][j])
			}
		}
	}
}

// CSV and TSV print the new kinds through Cell.String(): dates and times in
// ISO 8601, decimals in plain notation, nested values as JSON.
func TestDelimitedNewKinds(t *testing.T) {
	cols := []table.Column{{Name: "day"}, {Name: "at"}, {Name: "wall"}, {Name: "clock"}, {Name: "amount"}, {Name: "tags"}}
	rows := [][]table.Cell{{
		table.DateCell(19783),
		table.TimestampCell(1709294400123456, table.Microsecond.InUTC()),
		table.TimestampCell(-1, table.Nanosecond),
		table.TimeOfDayCell(30600500, table.Millisecond),
		table.DecimalCell("-123456789012345678901234567890.000"),
		table.NestedCell(`{"a":[1,"x, y"],"b":null}`),
	}}
	path := filepath.Join(t.TempDir(), "kinds.csv")
	writeTable(t, path, Options{}, cols, rows)
	recs := readback.ReadCSV(t, path, 0)
	want := []string{"2024-03-01", "2024-03-01T12:00:00.123456Z", "1969-12-31T23:59:59.999999999", "08:30:00.500",
		"-123456789012345678901234567890.000", `{"a":[1,"x, y"],"b":null}`}
	for j, w := range want {
		if recs[1][j] != w {
			t.Errorf("%s: %q, want %q", cols[j].Name, recs[1][j], w)
		}
	}
}

// A cell that a column's Arrow type cannot hold exactly is written as a
// null and counted, never rounded or cut: digits beyond a decimal's scale
// or precision, an integer out of range, a fraction in an integer column,
// a text that is not a UUID, JSON that does not fit the nested type, a
// timestamp finer than the column's unit.
func TestParquetSourceTypeMismatch(t *testing.T) {
	cols := []table.Column{
		{Name: "dec", Kind: table.Decimal, Source: &arrow.Decimal128Type{Precision: 5, Scale: 2}},
		{Name: "u8", Kind: table.Integer, Source: arrow.PrimitiveTypes.Uint8},
		{Name: "uid", Kind: table.Text, Source: extensions.NewUUIDType()},
		{Name: "tags", Kind: table.Nested, Source: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
		{Name: "ts", Kind: table.Timestamp, Source: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "f32", Kind: table.Number, Source: arrow.PrimitiveTypes.Float32},
	}
	rows := [][]table.Cell{
		{table.DecimalCell("123.45"), integ(255), text("0d6f2f36-3b4b-4a83-9d0e-58d5f5fa9c1e"), table.NestedCell(`[1,null]`),
			table.TimestampCell(1_000_000, table.Microsecond), num(0.1)},
		{table.DecimalCell("1.005"), integ(256), text("(null)"), table.NestedCell(`["a"]`),
			table.TimestampCell(1_000_001, table.Microsecond), num(1e300)},
		{table.DecimalCell("1234.5"), num(2.5), text("0d6f2f36"), table.NestedCell(`[1`),
			table.DateCell(1), integ(16777217)},
	}
	path := filepath.Join(t.TempDir(), "mismatch.parquet")
	w := writeTable(t, path, Options{}, cols, rows)
	if n := w.(NullReporter).NulledCells(); n != 11 {
		t.Errorf("NulledCells = %d, want 11", n)
	}
	_, back := readTable(t, path)
	want := []table.Cell{table.DecimalCell("123.45"), integ(255), text("0d6f2f36-3b4b-4a83-9d0e-58d5f5fa9c1e"),
		table.NestedCell(`[1,null]`), table.TimestampCell(1000, table.Millisecond), num(0.1)}
	for j, c := range want {
		if back[0][j] != c {
			t.Errorf("row 2, %s: %#v, want %#v", cols[j].Name, back[0][j], c)
		}
	}
	for i := 1; i < 3; i++ {
		for j, c := range back[i] {
			if c.Kind != table.Empty && !(i == 2 && j == 4) {
				t.Errorf("row %d, %s: %#v, want a null", i+2, cols[j].Name, c)
			}
		}
	}
	// A date is midnight: a whole number of milliseconds.
	if c := back[2][4]; c != table.TimestampCell(86_400_000, table.Millisecond) {
		t.Errorf("row 4, ts: %#v", c)
	}
}
