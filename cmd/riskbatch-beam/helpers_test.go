package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// The pipeline runs on Beam's local runner, prism, in this process; the
// riskbatch binary it is compared with is built once into fixtures.
func TestMain(m *testing.M) {
	testenv.RunWithFixtures(func(dir string) int { fixtures = dir; return ptest.MainRetWithDefault(m, "prism") })
}

var fixtures string

// buildRiskbatch builds the riskbatch command of the enclosing module into
// fixtures, once for all the tests.
var buildRiskbatch = sync.OnceValues(func() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", errNoGo
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(fixtures, "riskbatch")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/riskbatch")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building riskbatch: %w\n%s", err, out)
	}
	return bin, nil
})

// errNoGo is buildRiskbatch's error where the go command is absent.
var errNoGo = errors.New("the go command is not on PATH: cannot build riskbatch to compare with")

// riskbatchBinary returns the riskbatch command of the enclosing module,
// the reference the pipeline's output is compared with (built once).
func riskbatchBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildRiskbatch()
	if errors.Is(err, errNoGo) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// eval runs `riskbatch eval` in the current directory; exit status 1 (rows
// with errors) is expected of the test data.
func eval(t *testing.T, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"eval", "-q"}, args...)...)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		t.Fatalf("riskbatch eval %q: %v\n%s", args, err, out)
	}
}

// prepare returns the riskbatch binary and the inputs writeInputs writes
// into a new folder, which becomes the working folder of the test.
func prepare(t *testing.T) (bin string, inputs []string) {
	t.Helper()
	bin = riskbatchBinary(t)
	dir := t.TempDir()
	inputs = writeInputs(t, dir)
	t.Chdir(dir)
	return bin, inputs
}

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
	recs := readback.ReadCSV(t, path, 0)
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

// compareRows compares the rows of the pipeline's shards, in order, with
// eval's: the output keeps eval's row order.
func compareRows(t *testing.T, header []string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d rows from the pipeline, %d from eval", len(got), len(want))
	}
	bad := 0
	for i := 0; i < len(got) && i < len(want) && bad < 5; i++ {
		if !slices.Equal(got[i], want[i]) {
			bad++
			for j := range header {
				if j < len(got[i]) && j < len(want[i]) && got[i][j] != want[i][j] {
					t.Errorf("row %d, column %s: pipeline %q, eval %q", i, header[j], got[i][j], want[i][j])
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

// writeTemp writes data to a new temporary file and returns its path.
func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "copy")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// parquetInputs writes each CSV input back as Parquet with eval
// --pass-through (typed input columns, bounds left empty, recomputed on
// reading), in row groups of groupRows rows unless it is 0, and returns
// their paths.
func parquetInputs(t *testing.T, bin string, inputs []string, groupRows int64) []string {
	t.Helper()
	var pq []string
	for _, in := range inputs {
		out := strings.TrimSuffix(in, ".csv") + ".parquet"
		eval(t, bin, in, "-o", out, "--pass-through")
		if groupRows > 0 {
			rewriteRowGroups(t, out, groupRows)
		}
		pq = append(pq, out)
	}
	return pq
}

// rewriteRowGroups writes the Parquet file at path again in row groups of
// rows rows.
func rewriteRowGroups(t *testing.T, path string, rows int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, rows, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Clean(path), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
