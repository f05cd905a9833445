package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// writeInputs writes three CSV release files of 200 rows each, as a
// sharded export would, but with different headers (the same inputs named
// differently, columns in another order, stale output columns of an
// earlier run, an extra column), a byte order mark, quoted fields with
// commas and line breaks, malformed records, bad cells, and prior keys
// found and not found. It returns their paths, relative to dir.
func writeInputs(t *testing.T, dir string) []string {
	t.Helper()
	rng := rand.New(rand.NewSource(7))
	num := func(lo, hi float64) string { return strconv.FormatFloat(lo+(hi-lo)*rng.Float64(), 'g', 6, 64) }
	files := []struct {
		name, header string
		row          func(i int) string
	}{
		{"part-0.csv", "id,mechanism,epsilon,delta,prior,note", func(i int) string {
			switch i % 8 {
			case 0:
				return fmt.Sprintf("a%d,pure,%s,,k1,plain", i, num(0, 5))
			case 1:
				return fmt.Sprintf("a%d,approx,%s,1e-5,nokey,\"quoted, with a comma\"", i, num(0, 5))
			case 2:
				return fmt.Sprintf("a%d,pure,abc,,,bad epsilon", i)
			case 3:
				return fmt.Sprintf("a%d,approx,%s,1e-6,uniform(20),inline prior", i, num(0, 3))
			case 4:
				return fmt.Sprintf("a%d,pure,-1,,,negative", i)
			case 5:
				return fmt.Sprintf("a%d,,%s,,K1,\"two\nlines\"", i, num(0, 2))
			case 6:
				return fmt.Sprintf("a%d,approx,%s,2,,delta out of range", i, num(0, 1))
			}
			return fmt.Sprintf("a%d,pure,%s,,,", i, num(0, 10))
		}},
		{"part-1.csv", "\ufeffEPS,ID,delta,sigma,mechanism,extra", func(i int) string {
			switch i % 5 {
			case 0:
				return fmt.Sprintf(",b%d,1e-5,%s,gaussian,x", i, num(0.5, 8))
			case 1:
				return fmt.Sprintf("%s,b%d,1e-5,,approx,y", num(0, 4), i)
			case 2:
				return fmt.Sprintf("%s,b%d,,,,,too,many", num(0, 4), i) // a malformed record
			case 3:
				return fmt.Sprintf(",b%d,1e-5,%s,,", i, num(0.5, 8))
			}
			return fmt.Sprintf("%s,b%d", num(0, 4), i) // a short record
		}},
		{"part-2.csv", "id,mu,baseline,status,message,fdp_success", func(i int) string {
			switch i % 4 {
			case 0:
				return fmt.Sprintf("c%d,%s,%s,ok,stale,0.5", i, num(0, 3), num(0, 0.5))
			case 1:
				return fmt.Sprintf("c%d,%s,,error,stale,", i, num(0, 3))
			case 2:
				return fmt.Sprintf("c%d,,%s,,,", i, num(0, 0.5))
			}
			return fmt.Sprintf("c%d,%s,1.5,,,", i, num(0, 3))
		}},
	}
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		var b strings.Builder
		b.WriteString(f.header + "\n")
		for i := 0; i < 200; i++ {
			b.WriteString(f.row(i) + "\n")
		}
		p := filepath.Join("in", f.name)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if err := os.WriteFile(filepath.Join(dir, "priors.csv"), []byte("prior,p,targets\nk1,0.1,5\nk1,0.2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return paths
}

// runPipeline builds and runs the pipeline on the local runner and returns
// its row counters.
func runPipeline(t *testing.T, cfg Config) (*Plan, statusCounts) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	plan, err := Build(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatalf("the pipeline failed: %v", err)
	}
	counts, known := rowCounts(res)
	if !known {
		t.Fatal("the local runner reported no row counters")
	}
	return plan, counts
}

// shards returns the output shards of a prefix, checking their names
// (PREFIX-i-of-n.EXT, i from 0 to n-1).
func shards(t *testing.T, prefix, format string) []string {
	t.Helper()
	got, err := filepath.Glob(prefix + "-*-of-*." + format)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatalf("no shard %s-*-of-*.%s written", prefix, format)
	}
	slices.Sort(got)
	t.Logf("%d shards", len(got))
	for i, g := range got {
		if want := shardName(prefix, i, len(got), format); g != want {
			t.Errorf("shard %d is %s, want %s", i, g, want)
		}
	}
	return got
}

// readCSV reads a CSV file with encoding/csv (not the repository's reader)
// into its header and records.
func readCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	recs := testfiles.ReadCSV(t, path)
	if len(recs) == 0 {
		t.Fatalf("%s: no header", path)
	}
	return recs[0], recs[1:]
}

// shardRows reads the rows of every shard of prefix in format with read,
// each shard with the header want.
func shardRows(t *testing.T, prefix, format string, want []string, read func(*testing.T, string) ([]string, [][]string)) [][]string {
	t.Helper()
	var got [][]string
	for _, sh := range shards(t, prefix, format) {
		header, rows := read(t, sh)
		if !slices.Equal(header, want) {
			t.Fatalf("%s: header\n%q\nwant eval's\n%q", sh, header, want)
		}
		got = append(got, rows...)
	}
	return got
}

// sortedRows sorts records by all their fields: the output's row order is
// not kept, so rows are compared as multisets.
func sortedRows(rows [][]string) [][]string {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b []string) int { return slices.Compare(a, b) })
	return rows
}

// compareRows reports the rows of want missing from got and the other way
// round, after sorting both; a row's key is its source and id.
func compareRows(t *testing.T, header []string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d rows from the pipeline, %d from eval", len(got), len(want))
	}
	got, want = sortedRows(got), sortedRows(want)
	bad := 0
	for i := 0; i < len(got) && i < len(want) && bad < 5; i++ {
		if !slices.Equal(got[i], want[i]) {
			bad++
			for j := range header {
				if j < len(got[i]) && j < len(want[i]) && got[i][j] != want[i][j] {
					t.Errorf("sorted row %d, column %s: pipeline %q, eval %q", i, header[j], got[i][j], want[i][j])
				}
			}
		}
	}
}

// statusOf counts rows by their status column.
func statusOf(t *testing.T, header []string, rows [][]string) statusCounts {
	t.Helper()
	at := slices.Index(header, "status")
	if at < 0 {
		t.Fatalf("no status column in %q", header)
	}
	c := statusCounts{}
	for _, r := range rows {
		c[evaluate.Status(r[at])]++
	}
	return c
}

// TestCSVEqualsEval is the pipeline's contract: on several CSV files it
// writes the rows `riskbatch eval` writes for the same files, row for row,
// with the same header, and its counters count them by status.
func TestCSVEqualsEval(t *testing.T) {
	bin, inputs := prepare(t)
	eval(t, bin, append(inputs, "-o", "eval.csv", "--priors", "priors.csv", "--confidence", "0.5,0.95")...)
	wantHeader, want := readCSV(t, "eval.csv")

	plan, counts := runPipeline(t, Config{
		Inputs: []string{"in/part-*.csv"}, Priors: []string{"priors.csv"}, Confidence: []float64{0.5, 0.95},
		Output: "out/risk", Format: "csv",
	})
	if !slices.Equal(plan.Files, inputs) {
		t.Errorf("matched %q, want %q", plan.Files, inputs)
	}
	got := shardRows(t, "out/risk", "csv", wantHeader, readCSV)
	compareRows(t, wantHeader, got, want)

	// The comparison means something only if the data reaches every path:
	// rows of each file, each status, reader errors, and prior messages
	// naming the prior table.
	wantCounts := statusOf(t, wantHeader, want)
	for _, st := range []evaluate.Status{evaluate.StatusOK, evaluate.StatusPartial, evaluate.StatusError} {
		if wantCounts[st] == 0 {
			t.Errorf("the test data has no %s row", st)
		}
		if counts[st] != wantCounts[st] {
			t.Errorf("counter of %s rows: %d, eval wrote %d", st, counts[st], wantCounts[st])
		}
	}
	msg := slices.Index(wantHeader, "message")
	var readerError, priorMessage bool
	for _, r := range want {
		readerError = readerError || strings.Contains(r[msg], "part-1.csv, row")
		priorMessage = priorMessage || strings.Contains(r[msg], "priors.csv (1 key)")
	}
	if !readerError || !priorMessage {
		t.Errorf("the test data misses a reader error (%v) or a message naming the prior table (%v)", readerError, priorMessage)
	}
	if n := len(want); n != 600 {
		t.Errorf("eval wrote %d rows of 3 × 200", n)
	}
	if left, _ := filepath.Glob("out/.riskbatch-beam-*"); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// parquetRows reads a Parquet file with the repository's reader; a cell is
// written as its kind and value (numbers by their bits), so that rows
// compare exactly.
func parquetRows(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	ts, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ts[0].Close()
	var header []string
	for _, c := range ts[0].Columns() {
		header = append(header, c.Name+":"+c.Kind.String())
	}
	var rows [][]string
	for {
		r, err := ts[0].Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		row := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			row[i] = c.Kind.String() + ":" + c.String()
			if c.Kind == table.Number {
				row[i] = "number:" + strconv.FormatUint(math.Float64bits(c.Num), 16)
			}
		}
		rows = append(rows, row)
	}
	return header, rows
}

// TestParquetEqualsEval reads Parquet inputs and writes Parquet shards:
// the same typed cells as eval's Parquet output. With
// RISKBATCH_LONG_TESTS=1 (TestCSVEqualsEval checks the contract by default).
func TestParquetEqualsEval(t *testing.T) {
	testenv.SkipUnlessLong(t, "a second pipeline and four runs of eval, on Parquet")
	bin, inputs := prepare(t)
	var pq []string
	for _, in := range inputs {
		// Each CSV file read and written back as Parquet: typed input
		// columns, bounds left empty (recomputed on reading).
		out := strings.TrimSuffix(in, ".csv") + ".parquet"
		eval(t, bin, in, "-o", out, "--pass-through")
		pq = append(pq, out)
	}
	eval(t, bin, append(pq, "-o", "eval.parquet", "--priors", "priors.csv")...)
	wantHeader, want := parquetRows(t, "eval.parquet")

	_, counts := runPipeline(t, Config{Inputs: []string{"in/*.parquet"}, Priors: []string{"priors.csv"}, Output: "out/risk", Format: "parquet"})
	got := shardRows(t, "out/risk", "parquet", wantHeader, parquetRows)
	compareRows(t, wantHeader, got, want)
	if counts.total() != int64(len(want)) {
		t.Errorf("counters total %d rows, eval wrote %d", counts.total(), len(want))
	}
}

// TestBeamFileSystem reads and writes through a Beam file system other
// than the local one (memfs, as gs:// would be): the rows are eval's, with
// the inputs named by their URLs. With RISKBATCH_LONG_TESTS=1.
func TestBeamFileSystem(t *testing.T) {
	testenv.SkipUnlessLong(t, "a third pipeline, through memfs")
	bin, inputs := prepare(t)
	eval(t, bin, append(inputs, "-o", "eval.csv")...)
	wantHeader, want := readCSV(t, "eval.csv")
	ctx := context.Background()
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := copyTo(ctx, writeTemp(t, data), "memfs://"+t.Name()+"/"+in); err != nil {
			t.Fatal(err)
		}
	}
	prefix := "memfs://" + t.Name() + "/out/risk"
	runPipeline(t, Config{Inputs: []string{"memfs://" + t.Name() + "/in/*.csv"}, Output: prefix, Format: "csv"})
	names, err := list(ctx, prefix+"-*")
	if err != nil || len(names) == 0 {
		t.Fatalf("no shard in memfs (%v)", err)
	}
	var got [][]string
	for i, name := range names {
		if want := shardName(prefix, i, len(names), "csv"); name != want {
			t.Errorf("shard %s, want %s", name, want)
		}
		data, err := readAll(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(recs[0], wantHeader) {
			t.Fatalf("%s: header %q, want %q", name, recs[0], wantHeader)
		}
		for _, r := range recs[1:] {
			for j := range r {
				// The source column and the readers' positions name the
				// files by their URLs.
				r[j] = strings.ReplaceAll(r[j], "memfs://"+t.Name()+"/", "")
			}
			got = append(got, r)
		}
	}
	compareRows(t, wantHeader, got, want)
}

// writeTemp writes data to a new temporary file and returns its path.
func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "copy")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEmptyInputAndStaleShards: an input without rows gives one shard with
// the header, as eval writes an empty table, and replaces the shards of an
// earlier run with the same prefix.
func TestEmptyInputAndStaleShards(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("empty.csv", []byte("epsilon,delta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("out", 0o755); err != nil {
		t.Fatal(err)
	}
	stale := "out/risk-00001-of-00002.csv"
	keep := "out/risk-notes.csv"
	for _, f := range []string{stale, keep} {
		if err := os.WriteFile(f, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan, counts := runPipeline(t, Config{Inputs: []string{"empty.csv"}, Output: "out/risk"})
	got := shards(t, "out/risk", "csv")
	if len(got) != 1 {
		t.Fatalf("shards %q, want one", got)
	}
	header, rows := readCSV(t, got[0])
	var want []string
	for _, c := range plan.Header {
		want = append(want, c.Name)
	}
	if !slices.Equal(header, want) || len(rows) != 0 || counts.total() != 0 {
		t.Errorf("header %q and %d rows (%d counted), want %q and none", header, len(rows), counts.total(), want)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the stale shard %s is still there", stale)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("%s, not a shard, was removed", keep)
	}
}

// TestBuildRefuses: errors that stop eval before it starts stop the
// pipeline before it runs.
func TestBuildRefuses(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("dup.csv", []byte("epsilon,eps\n1,1\n"), 0o644)
	os.WriteFile("ok.csv", []byte("epsilon\n1\n"), 0o644)
	os.WriteFile("out-00000-of-00001.csv", []byte("epsilon\n1\n"), 0o644)
	os.WriteFile("badpriors.csv", []byte("prior,p\nk,2\n"), 0o644)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Inputs: []string{"nothing-*.csv"}, Output: "x"}, "no file matches"},
		{Config{Inputs: []string{"dup.csv"}, Output: "x"}, "dup.csv"},
		{Config{Inputs: []string{"*.csv"}, Output: "out"}, "is an output shard"},
		{Config{Inputs: []string{"ok.csv"}, Output: "x", Format: "xlsx"}, "csv, tsv or parquet"},
		{Config{Inputs: []string{"ok.csv"}, Output: "x", Priors: []string{"badpriors.csv"}}, "badpriors.csv"},
		{Config{Inputs: []string{"ok.csv"}}, "--output"},
		// eval's --max-* limits: a header wider than --max-columns.
		{Config{Inputs: []string{"dup.csv"}, Output: "x", Limits: readers.Limits{Columns: 1}}, "max-columns"},
	} {
		_, s := beam.NewPipelineWithRoot()
		_, err := Build(context.Background(), s, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", tc.cfg, err, tc.want)
		}
	}
}

// TestFailedPipelineWritesNothing: when a worker fails (here: a file
// changed after the pipeline was built), no shard is written, as eval
// writes nothing when an input cannot be read.
func TestFailedPipelineWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("a.csv", []byte("epsilon\n1\n"), 0o644)
	p, s := beam.NewPipelineWithRoot()
	plan, err := Build(context.Background(), s, Config{Inputs: []string{"a.csv"}, Output: "out/risk"})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("a.csv", []byte("sigma\n1\n"), 0o644)
	_, err = ptest.RunWithMetrics(p)
	if err == nil || !strings.Contains(err.Error(), "changed since the pipeline was built") {
		t.Fatalf("err = %v, want the pipeline to fail on the changed file", err)
	}
	if err := removeTempDir(context.Background(), plan.TempDir); err != nil {
		t.Error(err)
	}
	if left, _ := filepath.Glob("out/*"); len(left) > 0 {
		t.Errorf("a failed pipeline left %q", left)
	}
}
