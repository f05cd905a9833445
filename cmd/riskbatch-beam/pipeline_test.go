package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/klauspost/compress/zstd"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
)

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

// TestParquetEqualsEval reads Parquet inputs and writes Parquet shards:
// the same typed cells as eval's Parquet output.
func TestParquetEqualsEval(t *testing.T) {
	bin, inputs := prepare(t)
	pq := parquetInputs(t, bin, inputs, 0)
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
// the inputs named by their URLs.
func TestBeamFileSystem(t *testing.T) {
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
	slices.Sort(names)
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
	os.WriteFile("groups.csv", []byte("id,sigma,composes_with\na,2,census\n"), 0o644)
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
		// Dataset totals need every row of a group: eval computes them.
		{Config{Inputs: []string{"groups.csv"}, Output: "x"}, "groups.csv: column composes_with groups rows into datasets"},
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

// TestCompressedInputsEqualEval reads CSV inputs compressed with gzip and
// Parquet inputs compressed with zstd, with shard sizes that would cut the
// uncompressed files into many shards: a compressed file is read whole,
// decompressed as eval reads it, and the rows are eval's of the same
// compressed files.
func TestCompressedInputsEqualEval(t *testing.T) {
	bin, inputs := prepare(t)
	pq := parquetInputs(t, bin, inputs, 20)
	var gz, zst []string
	for _, in := range inputs {
		gz = append(gz, compressTo(t, in, in+".gz"))
	}
	for _, in := range pq {
		zst = append(zst, compressTo(t, in, in+".zst"))
	}
	for _, c := range []struct {
		pattern string
		files   []string
		format  string
		read    func(*testing.T, string) ([]string, [][]string)
	}{
		{"in/part-*.csv.gz", gz, "csv", readCSV},
		{"in/*.parquet.zst", zst, "parquet", parquetRows},
	} {
		eval(t, bin, append(slices.Clone(c.files), "-o", "eval."+c.format, "--priors", "priors.csv")...)
		wantHeader, want := c.read(t, "eval."+c.format)
		out := "out/" + c.format
		plan, counts := runPipeline(t, Config{Inputs: []string{c.pattern}, Priors: []string{"priors.csv"}, Output: out, Format: c.format, ShardBytes: 1000, ShardRows: 10})
		if !slices.Equal(plan.Files, c.files) {
			t.Errorf("matched %q, want %q", plan.Files, c.files)
		}
		got := shardRows(t, out, c.format, wantHeader, c.read)
		compareRows(t, wantHeader, got, want)
		if counts.total() != int64(len(want)) || len(want) != 600 {
			t.Errorf("%s: counters total %d rows, eval wrote %d, of 3 × 200", c.pattern, counts.total(), len(want))
		}
	}
}

// compressTo writes src compressed as dst, by dst's extension (.gz: gzip,
// .zst: zstd), and returns dst.
func compressTo(t *testing.T, src, dst string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var w io.WriteCloser = gzip.NewWriter(&b)
	if strings.HasSuffix(dst, ".zst") {
		if w, err = zstd.NewWriter(&b); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
