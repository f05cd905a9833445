package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// The Parquet output is readable by an independent Parquet implementation:
// DuckDB (through its Node.js package), on the sample release table (by
// default without its DP-SGD rows: sampleReleases). The test needs node and a folder
// where `npm install @duckdb/node-api` was run, named by
// RISKBATCH_NODE_MODULES (its node_modules); .ci/run installs both. Where
// they are absent it skips with a message, or fails under CI=true.
func TestParquetReadByDuckDB(t *testing.T) {
	duck := newDuckDB(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	mustRun(t, exitRowErrors, "eval", sampleReleases(t, dir), "-o", out, "-q")
	got := duck.read(t, out)
	header, rows := readAll(t, out)
	if len(got.Rows) != len(rows) || len(got.Types) != len(header) {
		t.Fatalf("DuckDB sees %d rows and %d columns, riskbatch wrote %d and %d", len(got.Rows), len(got.Types), len(rows), len(header))
	}
	for j, name := range header {
		if got.Types[j][0] != name {
			t.Errorf("column %d: DuckDB %q, written %q", j, got.Types[j][0], name)
		}
		if strings.HasPrefix(name, "fdp_") || strings.HasPrefix(name, "onerun_") || name == "adp_advantage" {
			if got.Types[j][1] != "DOUBLE" {
				t.Errorf("%s: DuckDB type %s, want DOUBLE", name, got.Types[j][1])
			}
		}
		for i, r := range rows {
			v := got.Rows[i][name]
			switch x := v.(type) {
			case nil:
				if r[j] != "" {
					t.Errorf("row %d %s: DuckDB null, written %q", i+2, name, r[j])
				}
			case float64:
				w, _ := parseFloat(r[j])
				if x != w {
					t.Errorf("row %d %s: DuckDB %v, written %q", i+2, name, x, r[j])
				}
			case string:
				if x != r[j] {
					t.Errorf("row %d %s: DuckDB %q, written %q", i+2, name, x, r[j])
				}
			}
		}
	}
}

// The XLSX output opens in LibreOffice (headless conversion to CSV) and
// shows the values riskbatch computed. Skips where LibreOffice is absent,
// fails under CI=true; .ci/run installs it. Runs with
// RISKBATCH_LONG_TESTS=1 (TestLiveFormulasRecalculate opens a workbook in
// LibreOffice by default).
func TestXLSXOpensInLibreOffice(t *testing.T) {
	testenv.SkipUnlessLong(t, "a LibreOffice conversion")
	dir := t.TempDir()
	out := sampleWorkbook(t)
	testfiles.Convert(t, nil, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", dir, out)
	// The filter's last field (-1) writes one CSV per sheet: NAME-SHEET.csv.
	// The data sheet keeps the input's sheet name, Releases.
	lo := readback.ReadCSV(t, filepath.Join(dir, strings.TrimSuffix(filepath.Base(out), ".xlsx")+"-Releases.csv"), 0)
	header, rows := readAll(t, out)
	if len(lo) != len(rows)+1 || strings.Join(lo[0], ",") != strings.Join(header, ",") {
		t.Fatalf("LibreOffice sees %d rows, header %v", len(lo)-1, lo[0])
	}
	fdp := column(header, "fdp_success")
	for i, r := range rows {
		if r[fdp] == "" {
			continue
		}
		w, _ := parseFloat(r[fdp])
		x, err := parseFloat(lo[i+1][fdp])
		if err != nil || math.Abs(x-w) > 1e-12*math.Max(1, w) {
			t.Errorf("row %d: LibreOffice shows fdp_success %q, written %v", i+2, lo[i+1][fdp], w)
		}
	}
}

// A Parquet file written by DuckDB with every logical type (the readers'
// fixture duckdb_v2.parquet: PARQUET_VERSION V2, timestamps of each unit
// with and without time zone, date, time, decimals, UUID, list, struct,
// map, blob, JSON), passed through riskbatch into Parquet, reads in DuckDB with
// the same column types and the same values as the original. Needs node
// and DuckDB's Node package (RISKBATCH_NODE_MODULES, as above); skips
// where they are absent, and fails then when CI=true.
func TestParquetPassThroughReadByDuckDB(t *testing.T) {
	duck := newDuckDB(t)
	in, err := filepath.Abs(filepath.Join("..", "..", "readers", "testdata", "duckdb_v2.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.parquet")
	mustRun(t, exitOK, "eval", in, "-o", out, "-q", "--pass-through")
	data := duck.run(t, `await con.run("SET TimeZone = 'UTC'")
console.log(JSON.stringify({ in: await read(process.argv[2]), out: await read(process.argv[3]) }))`, in, out)
	var got struct{ In, Out duckTable }
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if len(got.In.Types) != 27 || len(got.In.Rows) != 300 {
		t.Fatalf("DuckDB sees %d columns and %d rows in the fixture", len(got.In.Types), len(got.In.Rows))
	}
	if len(got.Out.Rows) != len(got.In.Rows) || len(got.Out.Types) < len(got.In.Types) {
		t.Fatalf("DuckDB sees %d rows and %d columns in the output, %d and %d in the input", len(got.Out.Rows), len(got.Out.Types), len(got.In.Rows), len(got.In.Types))
	}
	for j, ty := range got.In.Types {
		if got.Out.Types[j] != ty {
			t.Errorf("column %d: %v in the input, %v in the output", j, ty, got.Out.Types[j])
		}
		name := ty[0]
		for i := range got.In.Rows {
			a, _ := json.Marshal(got.In.Rows[i][name])
			b, _ := json.Marshal(got.Out.Rows[i][name])
			if string(a) != string(b) {
				t.Errorf("row %d, %s: %s in the input, %s in the output", i+2, name, a, b)
			}
		}
	}
}

// duckDBPrelude opens DuckDB (its Node.js package, from
// RISKBATCH_NODE_MODULES) as con, with read(f): the column names and types
// and the rows, as JSON, of the Parquet file f.
const duckDBPrelude = `import { createRequire } from 'module'
const require = createRequire(process.env.RISKBATCH_NODE_MODULES + '/')
const { DuckDBInstance } = require('@duckdb/node-api')
const con = await (await DuckDBInstance.create(':memory:')).connect()
const read = async (f) => {
  f = f.replaceAll("'", "''")
  const types = await con.runAndReadAll("DESCRIBE SELECT * FROM read_parquet('" + f + "')")
  const rows = await con.runAndReadAll("SELECT * FROM read_parquet('" + f + "')")
  return { types: types.getRowObjectsJson().map(x => [x.column_name, x.column_type]), rows: rows.getRowObjectsJson() }
}
`

// duckDB is node with DuckDB's Node.js package in modules.
type duckDB struct{ node, modules string }

// newDuckDB finds DuckDB for Node.js; where it is absent it skips the
// test, or fails it under CI=true (testenv.DuckDB).
func newDuckDB(t *testing.T) duckDB {
	t.Helper()
	node, modules := testenv.DuckDB(t)
	return duckDB{node, modules}
}

// duckTable is a Parquet file as DuckDB reads it (read in
// duckDBPrelude): its columns' names and types, and its rows.
type duckTable struct {
	Types [][2]string
	Rows  []map[string]any
}

// read returns the Parquet file path as DuckDB reads it.
func (d duckDB) read(t *testing.T, path string) duckTable {
	t.Helper()
	data := d.run(t, `console.log(JSON.stringify(await read(process.argv[2])))`, path)
	var got duckTable
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return got
}

// run runs script after duckDBPrelude in node with args and returns what
// it prints.
func (d duckDB) run(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	path := writeFile(t, filepath.Join(t.TempDir(), "read.mjs"), duckDBPrelude+script+"\n")
	cmd := exec.Command(d.node, append([]string{path}, args...)...)
	cmd.Env = append(os.Environ(), testenv.NodeModulesEnv+"="+d.modules)
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("DuckDB could not read %s: %v", strings.Join(args, ", "), err)
	}
	return data
}
