package readers

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// The DuckDB fixtures (testdata/gen_duckdb_parquet.mjs writes them): one
// table of 300 rows in three files, written with PARQUET_VERSION V2 (the
// file arrow/go v17 read as 0 rows), with LZ4_RAW (which riskbatch
// reported as damaged) and with ZSTD.
var duckdbFiles = []string{"duckdb_v2.parquet", "duckdb_lz4raw.parquet", "duckdb_zstd_v2.parquet"}

const duckdbRows = 300

// duckdbColumns are the fixtures' columns: name, kind, and the Arrow type
// pqarrow gives the DuckDB type (in the script's order).
var duckdbColumns = []struct {
	name  string
	kind  table.Kind
	arrow string
}{
	{"id", table.Integer, "int32"},
	{"epsilon", table.Number, "float64"},
	{"f", table.Number, "float32"},
	{"n", table.Integer, "int64"},
	{"u", table.Integer, "uint64"},
	{"ui", table.Integer, "uint32"},
	{"small", table.Integer, "int8"},
	{"flag", table.Bool, "bool"},
	{"name", table.Text, "utf8"},
	{"level", table.Text, "utf8"},
	{"ts", table.Timestamp, "timestamp[us]"},
	{"tstz", table.Timestamp, "timestamp[us, tz=UTC]"},
	{"ts_ms", table.Timestamp, "timestamp[ms]"},
	{"ts_ns", table.Timestamp, "timestamp[ns]"},
	{"ts_s", table.Timestamp, "timestamp[us]"}, // Parquet has no seconds: DuckDB writes microseconds
	{"d", table.Date, "date32"},
	{"tod", table.TimeOfDay, "time64[us]"},
	{"dec", table.Decimal, "decimal(18, 4)"},
	{"dec38", table.Decimal, "decimal(38, 10)"},
	{"dec_small", table.Decimal, "decimal(4, 2)"},
	{"uid", table.Text, "extension<arrow.uuid>"},
	{"tags", table.Nested, "list<element: int32, nullable>"},
	{"s", table.Nested, "struct<a: int32 nullable, b: utf8 nullable>"},
	{"m", table.Nested, "map<utf8, int32, items_nullable>"},
	{"ev", table.Nested, "struct<at: date32 nullable, amount: decimal(9, 2) nullable, xs: list<element: float64, nullable> nullable>"},
	{"bin", table.Text, "binary"},
	{"doc", table.Text, "extension<arrow.json[storage_type=utf8]>"}, // Parquet JSON: binary in Arrow, kept as JSON for the writer
}

// duckdbRow is row i of the fixtures, computed from the formulas of
// gen_duckdb_parquet.mjs.
func duckdbRow(i int) []table.Cell {
	i64 := int64(i)
	c := make([]table.Cell, len(duckdbColumns))
	c[0] = integer(i64)
	if i%7 != 3 {
		c[1] = num(float64(i) / 8)
	}
	c[2] = num(float64(i) * 0.25)
	c[3] = integer(i64 * 1000003)
	if i == 0 {
		c[4] = table.DecimalCell("18446744073709551615") // 2⁶⁴ − 1: exact
	} else {
		c[4] = integer(i64)
	}
	c[5] = integer(i64 * 65537)
	c[6] = integer(i64%100 - 50)
	c[7] = boolean(i%2 == 0)
	if i%5 != 4 {
		c[8] = txt(fmt.Sprintf("name %d", i))
	}
	c[9] = txt([]string{"low", "mid", "high"}[i%3])
	const noon = 1709294400 // 2024-03-01T12:00:00Z in seconds
	c[10] = table.TimestampCell(noon*1_000_000+i64*1001001, table.Microsecond)
	c[11] = table.TimestampCell((noon+i64*60)*1_000_000, table.Microsecond.InUTC())
	c[12] = table.TimestampCell(noon*1000+i64*7, table.Millisecond)
	c[13] = table.TimestampCell(noon*1_000_000_000+i64*123456789, table.Nanosecond)
	c[14] = table.TimestampCell((noon+i64*3600)*1_000_000, table.Microsecond)
	c[15] = table.DateCell(19783 + i64) // 2024-03-01 is day 19,783
	c[16] = table.TimeOfDayCell((8*3600+30*60)*1_000_000+i64*1000001, table.Microsecond)
	c[17] = table.DecimalCell(scaled(i64*12345-1000000, 4))
	sign := ""
	if i%2 == 1 {
		sign = "-"
	}
	c[18] = table.DecimalCell(fmt.Sprintf("%s123456789012345678.%010d", sign, i))
	c[19] = table.DecimalCell(scaled(i64%100-50, 2))
	c[20] = txt(fmt.Sprintf("00000000-0000-4000-8000-%012x", i*7919))
	if i%6 != 5 {
		items := make([]string, i%4)
		for x := range items {
			items[x] = strconv.Itoa(x * i)
		}
		c[21] = table.NestedCell("[" + strings.Join(items, ",") + "]")
	}
	if i%9 != 8 {
		c[22] = table.NestedCell(fmt.Sprintf(`{"a":%d,"b":"x%d"}`, i, i))
	}
	c[23] = table.NestedCell(fmt.Sprintf(`[{"key":"k%d","value":%d}]`, i%3, i))
	// Arrow marshals a decimal as a string without trailing zeros, a date
	// as 2006-01-02, struct fields in name order.
	day := time.Date(2024, 3, 1+i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	c[24] = table.NestedCell(fmt.Sprintf(`{"amount":"%s","at":"%s","xs":[%s,%d]}`,
		strconv.FormatFloat(float64(i-150)*0.5, 'f', -1, 64), day, strconv.FormatFloat(float64(i)/4, 'f', -1, 64), -i))
	c[25] = txt(fmt.Sprintf("0x%04x", i)) // two bytes, a NUL first: not text
	if i%4 != 3 {
		c[26] = txt(fmt.Sprintf(`{"i":%d,"tags":[%d,%d]}`, i, i, -i)) // as DuckDB's json_object writes it
	}
	return c
}

// scaled writes v × 10^-scale in plain notation with scale fraction
// digits.
func scaled(v int64, scale int) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	p := int64(1)
	for range scale {
		p *= 10
	}
	return fmt.Sprintf("%s%d.%0*d", sign, v/p, scale, v%p)
}

// checkDuckDBFile reads a DuckDB fixture and checks its columns and every
// value.
func checkDuckDBFile(t *testing.T, path string) {
	t.Helper()
	tb := openOne(t, path, Options{BatchRows: 128})
	cols := tb.Columns()
	if len(cols) != len(duckdbColumns) {
		t.Fatalf("%d columns, want %d", len(cols), len(duckdbColumns))
	}
	for j, want := range duckdbColumns {
		dt, _ := cols[j].Source.(arrow.DataType)
		if cols[j].Name != want.name || cols[j].Kind != want.kind || dt == nil || dt.String() != want.arrow {
			t.Errorf("column %d: %s %v %v, want %s %v %s", j, cols[j].Name, cols[j].Kind, cols[j].Source, want.name, want.kind, want.arrow)
		}
	}
	got := drain(t, tb)
	if len(got) != duckdbRows {
		t.Fatalf("%d rows, want %d", len(got), duckdbRows)
	}
	for i, e := range got {
		if e.Err != nil {
			t.Fatalf("row %d: %v", i+2, e.Err)
		}
		want := duckdbRow(i)
		for j := range want {
			if e.Row.Cells[j] != want[j] {
				t.Errorf("row %d, %s: %#v, want %#v", i+2, duckdbColumns[j].name, e.Row.Cells[j], want[j])
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}

// The DuckDB fixtures read with the values DuckDB wrote, whatever the page
// version, encodings and codec.
func TestParquetDuckDB(t *testing.T) {
	for _, name := range duckdbFiles {
		t.Run(name, func(t *testing.T) { checkDuckDBFile(t, filepath.Join("testdata", name)) })
	}
}

// The fixtures written again by the DuckDB at hand read the same: riskbatch
// reads what the current DuckDB writes. Needs node and DuckDB's Node
// package (see cmd/riskbatch's interoperability tests); skips where they
// are absent, fails then when CI=true.
func TestParquetDuckDBRegenerated(t *testing.T) {
	modules := duckdbModules(t)
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("testdata", "gen_duckdb_parquet.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script, dir)
	cmd.Env = append(os.Environ(), "RISKBATCH_NODE_MODULES="+modules)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generator failed: %v\n%s", err, out)
	}
	for _, name := range duckdbFiles {
		t.Run(name, func(t *testing.T) { checkDuckDBFile(t, filepath.Join(dir, name)) })
	}
}

// duckdbModules returns the node_modules folder that holds DuckDB's Node
// package (named by RISKBATCH_NODE_MODULES), or skips the test (fails it
// when CI=true) where node or the package is absent.
func duckdbModules(t *testing.T) string {
	t.Helper()
	testenv.LookPath(t, "node")
	const absent = "DuckDB for Node.js is absent: run `npm install @duckdb/node-api` in a folder and set RISKBATCH_NODE_MODULES to its node_modules"
	modules := os.Getenv("RISKBATCH_NODE_MODULES")
	if modules == "" {
		testenv.Absent(t, absent)
	}
	if _, err := os.Stat(filepath.Join(modules, "@duckdb", "node-api")); err != nil {
		testenv.Absent(t, absent)
	}
	return modules
}
