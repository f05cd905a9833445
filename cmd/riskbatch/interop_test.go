package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The Parquet output is readable by an independent Parquet implementation:
// DuckDB (through its Node.js package). The test needs node and a folder
// where `npm install @duckdb/node-api` was run, named by
// RISKBATCH_NODE_MODULES (its node_modules); .ci/run installs both. Where
// they are absent it skips with a message, or fails under CI=true.
func TestParquetReadByDuckDB(t *testing.T) {
	modules := os.Getenv("RISKBATCH_NODE_MODULES")
	node, err := exec.LookPath("node")
	if err != nil || modules == "" {
		testenv.Absent(t, "DuckDB for Node.js is absent: run `npm install @duckdb/node-api` in a folder and set RISKBATCH_NODE_MODULES to its node_modules")
	}
	if _, err := os.Stat(filepath.Join(modules, "@duckdb", "node-api")); err != nil {
		testenv.Absent(t, "DuckDB for Node.js is absent from "+modules)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	if code, stderr := riskbatch(t, "eval", filepath.Join("..", "..", "samples", "releases.csv"), "-o", out, "-q"); code != exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	script := filepath.Join(dir, "read.mjs")
	os.WriteFile(script, []byte(`import { createRequire } from 'module'
const require = createRequire(process.env.RISKBATCH_NODE_MODULES + '/')
const { DuckDBInstance } = require('@duckdb/node-api')
const con = await (await DuckDBInstance.create(':memory:')).connect()
const file = process.argv[2].replaceAll("'", "''")
const types = await con.runAndReadAll("DESCRIBE SELECT * FROM read_parquet('" + file + "')")
const rows = await con.runAndReadAll("SELECT * FROM read_parquet('" + file + "')")
console.log(JSON.stringify({ types: types.getRowObjectsJson().map(x => [x.column_name, x.column_type]), rows: rows.getRowObjectsJson() }))
`), 0o644)
	cmd := exec.Command(node, script, out)
	cmd.Env = append(os.Environ(), "RISKBATCH_NODE_MODULES="+modules)
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("DuckDB could not read the Parquet output: %v", err)
	}
	var got struct {
		Types [][2]string
		Rows  []map[string]any
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
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
				w, _ := strconv.ParseFloat(r[j], 64)
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
	soffice := testenv.LookPath(t, "soffice", "libreoffice")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.xlsx")
	if code, stderr := riskbatch(t, "-o", out, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cmd := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", "--outdir", dir, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice: %v: %s", err, msg)
	}
	// The filter's last field (-1) writes one CSV per sheet: out-SHEET.csv.
	// The data sheet keeps the input's sheet name, Releases.
	f, err := os.Open(filepath.Join(dir, "out-Releases.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lo, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readAll(t, out)
	if len(lo) != len(rows)+1 || strings.Join(lo[0], ",") != strings.Join(header, ",") {
		t.Fatalf("LibreOffice sees %d rows, header %v", len(lo)-1, lo[0])
	}
	fdp := column(header, "fdp_success")
	for i, r := range rows {
		if r[fdp] == "" {
			continue
		}
		w, _ := strconv.ParseFloat(r[fdp], 64)
		x, err := strconv.ParseFloat(lo[i+1][fdp], 64)
		if err != nil || math.Abs(x-w) > 1e-12*math.Max(1, w) {
			t.Errorf("row %d: LibreOffice shows fdp_success %q, written %v", i+2, lo[i+1][fdp], w)
		}
	}
}
