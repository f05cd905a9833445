package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// updateParquetPins rewrites testdata/parquet.sha256 from the current
// output: the pins were taken with the version that wrote every value as
// a cell, before input columns went to the Parquet writer as arrays.
var updateParquetPins = flag.Bool("update-parquet-pins", false, "rewrite testdata/parquet.sha256 from the current output")

const parquetPinFile = "testdata/parquet.sha256"

// TestParquetOutputUnchanged pins the Parquet output of riskbatch eval,
// evaluated and passed through, value by value and type by type (see
// parquetDump), on the samples, the random table of every mechanism of
// TestOutputUnchanged (as CSV, and as the Parquet file a pass-through run
// makes of it), and a Parquet file of typed columns with nulls, empty
// strings, dates, timestamps, decimals, booleans and nested values.
// Input columns go from the reader to the writer as Arrow arrays, not
// cells: the pins were taken when every value was a cell.
func TestParquetOutputUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n := testenv.Count(150, 10000)
	random := filepath.Join(dir, "random.csv")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(goldenTable(n, 20261125)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(random, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	randomParquet := filepath.Join(dir, "random.parquet")
	mustRun(t, 0, "eval", random, "--pass-through", "-o", randomParquet, "--quiet")
	typed := filepath.Join(dir, "typed.parquet")
	testfiles.WriteParquetFile(t, typed, typedRecord(t))
	if keep := os.Getenv("RISKBATCH_GOLDEN_KEEP"); keep != "" {
		// A copy to run another version on. The runs read the one in
		// dir: the mixed table's source column names its path, which
		// the dumps spell TESTDIR, so the hashes do not depend on keep.
		testfiles.WriteParquetFile(t, filepath.Join(keep, "typed.parquet"), typedRecord(t))
	}
	// A sweep with rows that are not UTF-8 (error rows), and then the
	// same beside the Parquet files: three tables whose columns differ,
	// with a source column.
	sweep := filepath.Join(dir, "sweep.csv")
	writeSweep(t, sweep, 3000, true)
	utf8 := []string{"--encoding", "utf-8"}
	randomKey := func(name string) string { return name + "-" + strconv.Itoa(n) }
	inputs := map[string][]string{
		"releases.csv":              {samplePath("releases.csv")},
		"releases.parquet":          {samplePath("releases.parquet")},
		randomKey("random.csv"):     {random},
		randomKey("random.parquet"): {randomParquet},
		"typed.parquet":             {typed},
		"sweep.csv":                 append([]string{sweep}, utf8...),
		randomKey("mixed"):          append([]string{sweep, typed, randomParquet}, utf8...),
	}
	got := map[string]string{}
	for key, in := range inputs {
		for _, mode := range []string{"eval", "pass-through"} {
			args := append([]string{"eval", "-o", filepath.Join(dir, "out.parquet"), "--quiet"}, in...)
			if mode == "pass-through" {
				args = append(args, "--pass-through")
			}
			if code, stderr := riskbatchShared(t, args...); code != 0 && code != 1 {
				t.Fatalf("%s: exit %d: %s", key, code, stderr)
			}
			dump := parquetDump(t, filepath.Join(dir, "out.parquet"))
			dump = strings.ReplaceAll(dump, dir, "TESTDIR")
			if keep := os.Getenv("RISKBATCH_GOLDEN_KEEP"); keep != "" {
				if err := os.WriteFile(filepath.Join(keep, "parquet-"+mode+"-"+key+".txt"), []byte(dump), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sum := sha256.Sum256([]byte(dump))
			got[mode+"-"+key] = hex.EncodeToString(sum[:])
		}
	}
	want := readPins(t, parquetPinFile)
	if *updateParquetPins {
		for k, v := range want {
			if _, ok := got[k]; !ok {
				got[k] = v // the other size of the random table
			}
		}
		writePins(t, parquetPinFile, got)
		return
	}
	for key, sum := range got {
		switch w, ok := want[key]; {
		case !ok:
			t.Errorf("%s: no pinned hash in %s", key, parquetPinFile)
		case w != sum:
			t.Errorf("%s: the Parquet output changed (sha256 %s, pinned %s); set RISKBATCH_GOLDEN_KEEP=DIR to keep its dump", key, sum, w)
		}
	}
}

// parquetDump is the content of a Parquet file as text, read with
// pqarrow: each column's name, Arrow type and metadata, then each value
// (Arrow's ValueStr, "∅" for a null), a column at a time. Row groups and
// encodings are left out: they may differ where the values do not.
func parquetDump(t *testing.T, path string) string {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows\n", tbl.NumRows())
	for i := range int(tbl.NumCols()) {
		col := tbl.Column(i)
		fmt.Fprintf(&b, "column %q %s %v\n", col.Name(), col.DataType(), col.Field().Metadata)
		for _, chunk := range col.Data().Chunks() {
			for r := range chunk.Len() {
				if chunk.IsNull(r) {
					b.WriteString("∅\n")
				} else {
					b.WriteString(strconv.Quote(chunk.ValueStr(r)) + "\n")
				}
			}
		}
	}
	return b.String()
}

// typedRecord is a record batch of typed columns riskbatch reads beside
// its inputs: numbers that look like numbers, nulls, empty strings,
// dates, timestamps, decimals, booleans and nested values.
func typedRecord(t *testing.T) arrow.RecordBatch {
	t.Helper()
	cols := []struct {
		name string
		dt   arrow.DataType
		json string
	}{
		{"id", arrow.BinaryTypes.String, `["a", "", null, "0x41", "b"]`},
		{"mechanism", arrow.BinaryTypes.String, `["pure", "gaussian", "pure", null, "approx"]`},
		{"epsilon", arrow.PrimitiveTypes.Float64, `[1, null, 0.5, 2, 1e-3]`},
		{"sigma", arrow.PrimitiveTypes.Float32, `[null, 1.5, null, null, null]`},
		{"delta", arrow.BinaryTypes.String, `[null, "1e-5", "", "0.1", "1e-6"]`},
		{"count", arrow.PrimitiveTypes.Int32, `[1, -2, null, 2147483647, 0]`},
		{"big", arrow.PrimitiveTypes.Uint64, `[18446744073709551615, 0, null, 1, 2]`},
		{"day", arrow.FixedWidthTypes.Date32, `[19000, null, 0, -1, 20000]`},
		{"at", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, `["2024-01-02T03:04:05.123456Z", null, "1970-01-01T00:00:00Z", "2000-02-29T12:00:00Z", "1900-01-01T00:00:00Z"]`},
		{"local", &arrow.TimestampType{Unit: arrow.Nanosecond}, `["2024-01-02T03:04:05.123456789", null, "1970-01-01T00:00:00", "2000-02-29T12:00:00", "2262-01-01T00:00:00"]`},
		{"clock", arrow.FixedWidthTypes.Time64us, `[1000000, null, 0, 86399999999, 5]`},
		{"amount", &arrow.Decimal128Type{Precision: 10, Scale: 3}, `["1.500", "-0.001", null, "9999999.999", "0"]`},
		{"flag", arrow.FixedWidthTypes.Boolean, `[true, false, null, true, false]`},
		{"tags", arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, 2], [], null, [null], [3]]`},
		{"blob", arrow.BinaryTypes.Binary, `["AAEC", "", null, "aGk=", "/w=="]`},
		{"long", arrow.BinaryTypes.LargeString, `["x", "", null, "1.0", " 2 "]`},
	}
	fields := make([]arrow.Field, len(cols))
	arrays := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arr, _, err := array.FromJSON(memory.DefaultAllocator, c.dt, strings.NewReader(c.json))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		defer arr.Release()
		fields[i] = arrow.Field{Name: c.name, Type: c.dt, Nullable: true}
		arrays[i] = arr
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, 5)
}
