package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// The inputs named "-" (standard input) and the compressed inputs and
// outputs (.gz, .zst, .bz2): every run is compared, byte for byte, with
// the run of the same table from its uncompressed, named file, whose
// output holds every row.

// riskbatchStdin runs the command line in-process with stdin as standard
// input (sharing the sample's evaluation caches) and returns the exit
// status and stderr.
func riskbatchStdin(t testing.TB, stdin io.Reader, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := runWith(append([]string{"riskbatch"}, args...), stdin, io.Discard, &stderr, evaluate.WithCachesOf(sharedCaches))
	return code, stderr.String()
}

// compressFile writes src compressed as dst with the program of the
// format (gzip, zstd, bzip2: files other tools write) when it is on PATH,
// else with the Go writer of the format; bzip2, which Go does not write,
// skips the test without its program (fails under CI=true).
func compressFile(t *testing.T, src, dst string) string {
	t.Helper()
	ext := filepath.Ext(dst)
	prog := map[string]string{".gz": "gzip", ".zst": "zstd", ".bz2": "bzip2"}[ext]
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if path, err := exec.LookPath(prog); err == nil {
		cmd := exec.Command(path, "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		writeBytes(t, dst, out)
		return dst
	}
	var b bytes.Buffer
	switch ext {
	case ".gz":
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
	case ".zst":
		w, _ := zstd.NewWriter(&b)
		w.Write(data)
		w.Close()
	default:
		testenv.LookPath(t, prog)
	}
	writeBytes(t, dst, b.Bytes())
	return dst
}

// decompressed returns the content of a .gz or .zst file, decompressed by
// the Go readers (the format's program may be absent).
func decompressed(t *testing.T, path string) []byte {
	t.Helper()
	packed := bytes.NewReader(readback.ReadFile(t, path))
	var r io.Reader
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gz":
		g, err := gzip.NewReader(packed)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r = g
	case ".zst":
		z, err := zstd.NewReader(packed)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer z.Close()
		r = z
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// sameOutput fails unless the CSV files at got and want hold the same
// bytes, naming the first row that differs.
func sameOutput(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			t.Fatalf("%s: the output differs from the named file's on line %d (%d lines, want %d)", what, i+1, len(g), len(w))
		}
	}
}

// inputTables writes the release table in every input format to dir:
// releases.csv (the sample, without its DP-SGD rows unless the long tests
// run), t.tsv, and the sample's
// workbook and Parquet file as they are in samples/.
func inputTables(t *testing.T, dir string) []string {
	t.Helper()
	// A copy in dir: the compressed files are written beside it (the long
	// runs' sampleReleases is samples/releases.csv itself).
	csvPath := filepath.Join(dir, "releases.csv")
	writeBytes(t, csvPath, readback.ReadFile(t, sampleReleases(t, dir)))
	tsv := filepath.Join(dir, "t.tsv")
	if code, stderr := riskbatch(t, "eval", csvPath, "-o", tsv, "--pass-through", "-q"); code != exitOK {
		t.Fatalf("writing t.tsv: exit %d: %s", code, stderr)
	}
	var paths []string
	paths = append(paths, csvPath, tsv)
	for _, name := range []string{"releases.xlsx", "releases.parquet"} {
		p := filepath.Join(dir, name)
		writeBytes(t, p, readback.ReadFile(t, samplePath(name)))
		paths = append(paths, p)
	}
	return paths
}

// TestCompressedInputs: a CSV, TSV, XLSX or Parquet table compressed with
// gzip, zstd or bzip2 (by their programs where present) gives the output
// of the uncompressed file, byte for byte; so does the same table on
// standard input, named by --input-format or by its first bytes,
// compressed or not.
func TestCompressedInputs(t *testing.T) {
	dir := t.TempDir()
	// --sorted-groups: the sample's dataset column would otherwise need
	// standard input read twice (its datasets' rows are contiguous).
	flags := []string{"-q", "--sorted-groups", "--force"}
	for _, in := range inputTables(t, dir) {
		base := filepath.Base(in)
		want := filepath.Join(dir, base+"-want.csv")
		if code, stderr := riskbatchStdin(t, nil, append([]string{"eval", in, "-o", want}, flags...)...); code > exitRowErrors {
			t.Fatalf("%s: exit %d: %s", base, code, stderr)
		}
		wantBytes := readback.ReadFile(t, want)
		got := filepath.Join(dir, "got.csv")
		check := func(what string, stdin io.Reader, args ...string) {
			t.Helper()
			os.Remove(got)
			code, stderr := riskbatchStdin(t, stdin, append(append([]string{"eval"}, args...), append([]string{"-o", got}, flags...)...)...)
			if code > exitRowErrors {
				t.Fatalf("%s: exit %d: %s", what, code, stderr)
			}
			sameOutput(t, what, readback.ReadFile(t, got), wantBytes)
		}
		format := strings.TrimPrefix(filepath.Ext(in), ".")
		check(base+" on standard input, --input-format", bytes.NewReader(readback.ReadFile(t, in)), "-", "--input-format", format)
		check(base+" on standard input, sniffed", bytes.NewReader(readback.ReadFile(t, in)), "-")
		for _, ext := range []string{".gz", ".zst", ".bz2"} {
			c := compressFile(t, in, in+ext)
			check(base+ext, nil, c)
			check(base+ext+" on standard input", bytes.NewReader(readback.ReadFile(t, c)), "-")
		}
	}
}

// TestStdinWithFiles: standard input among named files is read in its
// place, and the source column names it "standard input".
func TestStdinWithFiles(t *testing.T) {
	dir := t.TempDir()
	// Without its dataset column, which would need the rows of each
	// dataset together, and they are in both inputs.
	in := filepath.Join(dir, "nodataset.csv")
	if code, stderr := riskbatch(t, "eval", sampleReleases(t, dir), "-o", in, "--pass-through", "-q", "--columns", "status"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	records := readback.ReadCSV(t, in, 0)
	ds := slices.Index(records[0], "dataset")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, r := range records {
		w.Write(slices.Delete(r, ds, ds+1))
	}
	w.Flush()
	writeBytes(t, in, b.Bytes())
	out := filepath.Join(dir, "out.csv")
	code, stderr := riskbatchStdin(t, bytes.NewReader(b.Bytes()), "eval", in, "-", "-o", out, "-q")
	if code > exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	src := -1
	for i, h := range header {
		if h == "source" {
			src = i
		}
	}
	if src < 0 || len(rows)%2 != 0 {
		t.Fatalf("no source column, or %d rows", len(rows))
	}
	half := len(rows) / 2
	for i, r := range rows {
		want := in
		if i >= half {
			want = "standard input"
		}
		if r[src] != want {
			t.Fatalf("row %d: source %q, want %q", i+2, r[src], want)
		}
	}
}

// TestStdinUsage: "-" twice, --priors -, and "-" without -o are usage
// errors that write nothing.
func TestStdinUsage(t *testing.T) {
	dir := t.TempDir()
	in := sampleReleases(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "-", "-", "-o", "x.csv"}, "- (standard input) is named 2 times"},
		{[]string{"eval", "-", "--priors", "-", "-o", "x.csv"}, "--priors -: a prior table is not read from standard input"},
		{[]string{"eval", "-"}, "name it with -o"},
		{[]string{"priors", "-"}, "name it with -o"},
	} {
		code, stderr := riskbatchStdin(t, bytes.NewReader(readback.ReadFile(t, in)), c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if exists(".", "x.csv") {
		t.Error("x.csv was written")
	}
}

// TestDamagedCompressedInput: a truncated gzip file and a zstd file with a
// damaged byte are errors naming the file and the byte where the stream
// failed, exit 2, and nothing is written, whether the CSV is read as it
// streams or a workbook is copied out first.
func TestDamagedCompressedInput(t *testing.T) {
	dir := t.TempDir()
	in := sampleReleases(t, dir)
	book := filepath.Join(dir, "t.xlsx")
	writeBytes(t, book, readback.ReadFile(t, samplePath("releases.xlsx")))
	for _, c := range []struct {
		src, ext string
		damage   func([]byte) []byte
		want     string
	}{
		{in, ".gz", func(b []byte) []byte { return b[:len(b)*2/3] }, "the gzip stream ends early, after byte "},
		{in, ".gz", func(b []byte) []byte { return b[:len(b)-4] }, "the gzip stream ends early"},
		{book, ".gz", func(b []byte) []byte { return b[:len(b)/2] }, "the gzip stream ends early"},
		{in, ".zst", func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }, "the zstd stream is damaged at or before byte "},
		{in, ".zst", func(b []byte) []byte { return b[:len(b)-3] }, "the zstd stream ends early"},
		{in, ".bz2", func(b []byte) []byte { return b[:len(b)*2/3] }, "the bzip2 stream ends early"},
	} {
		whole := compressFile(t, c.src, filepath.Join(t.TempDir(), filepath.Base(c.src)+c.ext))
		damaged := filepath.Join(dir, "damaged"+filepath.Ext(c.src)+c.ext)
		writeBytes(t, damaged, c.damage(readback.ReadFile(t, whole)))
		out := filepath.Join(dir, "out.csv")
		code, stderr := riskbatch(t, "eval", damaged, "-o", out, "-q")
		if code != exitUsage || !strings.Contains(stderr, damaged+": ") || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %d naming the file and %q", damaged, code, stderr, exitUsage, c.want)
		}
		if exists(dir, "out.csv") {
			t.Fatalf("%s: an output was written", damaged)
		}
		code, stderr = riskbatchStdin(t, bytes.NewReader(readback.ReadFile(t, damaged)), "eval", "-", "-o", out, "-q", "--sorted-groups")
		if code != exitUsage || !strings.Contains(stderr, "standard input") || !strings.Contains(stderr, c.want) {
			t.Errorf("%s on standard input: exit %d, %q; want %d and %q", damaged, code, stderr, exitUsage, c.want)
		}
		if exists(dir, "out.csv") {
			t.Fatalf("%s on standard input: an output was written", damaged)
		}
	}
}

// TestCompressedOutputs: -o out.csv.gz and out.tsv.zst hold, decompressed,
// the bytes of the uncompressed output (--format overrides the inner
// extension; a second run replaces the file riskbatch wrote without
// --force); .bz2, and XLSX or Parquet compressed, are refused and nothing
// is written. A prior table may be written compressed, with its
// frequency table and summary compressed alike, and read back by --priors.
func TestCompressedOutputs(t *testing.T) {
	dir := t.TempDir()
	in := sampleReleases(t, dir)
	plain := map[string][]byte{}
	for _, ext := range []string{".csv", ".tsv"} {
		p := filepath.Join(dir, "plain"+ext)
		if code, stderr := riskbatch(t, "eval", in, "-o", p, "-q"); code > exitRowErrors {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		plain[ext] = readback.ReadFile(t, p)
	}
	for _, c := range []struct {
		out, inner string
		extra      []string
	}{
		{"out.csv.gz", ".csv", nil},
		{"out.tsv.zst", ".tsv", nil},
		{"OUT.CSV.GZ", ".csv", nil},
		{"out.gz", ".tsv", []string{"--format", "tsv"}},
		{"out.csv.zst", ".tsv", []string{"--format", "tsv"}},
	} {
		out := filepath.Join(dir, c.out)
		for range 2 { // the second run replaces the file the first wrote
			args := append([]string{"eval", in, "-o", out, "-q"}, c.extra...)
			if code, stderr := riskbatch(t, args...); code > exitRowErrors {
				t.Fatalf("%s: exit %d: %s", c.out, code, stderr)
			}
			sameOutput(t, c.out, decompressed(t, out), plain[c.inner])
		}
	}
	for _, c := range []struct{ out, want string }{
		{"no.csv.bz2", "bzip2 (.bz2) cannot be written"},
		{"no.xlsx.gz", "XLSX output is not compressed with gzip"},
		{"no.parquet.zst", "Parquet output is not compressed with zstd"},
	} {
		code, stderr := riskbatch(t, "eval", in, "-o", filepath.Join(dir, c.out), "-q")
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.out, code, stderr, exitUsage, c.want)
		}
		if exists(dir, c.out) {
			t.Errorf("%s was written", c.out)
		}
	}
	// priors: compressed data in, compressed tables out, read by --priors.
	data := filepath.Join(dir, "penguins.csv")
	writeBytes(t, data, readback.ReadFile(t, samplePath("penguins.csv")))
	mustRun(t, exitOK, "priors", data, "-o", filepath.Join(dir, "p.csv"), "-q")
	gz := compressFile(t, data, data+".gz")
	mustRun(t, exitOK, "priors", gz, "-o", filepath.Join(dir, "pz.csv.gz"), "-q", "--name", "penguins")
	for _, name := range []string{"", "-frequencies", "-summary"} {
		sameOutput(t, "priors"+name, decompressed(t, filepath.Join(dir, "pz"+name+".csv.gz")), readback.ReadFile(t, filepath.Join(dir, "p"+name+".csv")))
	}
	code, stderr := riskbatchStdin(t, bytes.NewReader(readback.ReadFile(t, gz)), "priors", "-", "-o", filepath.Join(dir, "ps.csv"), "-q", "--name", "penguins")
	if code != exitOK {
		t.Fatalf("priors - : exit %d: %s", code, stderr)
	}
	sameOutput(t, "priors from standard input", readback.ReadFile(t, filepath.Join(dir, "ps.csv")), readback.ReadFile(t, filepath.Join(dir, "p.csv")))
	withPlain := filepath.Join(dir, "e1.csv")
	withGz := filepath.Join(dir, "e2.csv")
	riskbatch(t, "eval", in, "--priors", filepath.Join(dir, "p.csv"), "-o", withPlain, "-q")
	riskbatch(t, "eval", in, "--priors", filepath.Join(dir, "pz.csv.gz"), "-o", withGz, "-q")
	sameOutput(t, "--priors pz.csv.gz", readback.ReadFile(t, withGz), readback.ReadFile(t, withPlain))
}

// TestDefaultOutputOfCompressed: the output beside a compressed CSV or TSV
// input is compressed alike; beside a compressed workbook or Parquet file,
// or a bzip2 one (not written), it is not.
func TestDefaultOutputOfCompressed(t *testing.T) {
	for in, want := range map[string]string{
		"releases.csv":         "releases-risk.csv",
		"releases.csv.gz":      "releases-risk.csv.gz",
		"dir/releases.TSV.ZST": "dir/releases-risk.TSV.ZST",
		"releases.csv.bz2":     "releases-risk.csv",
		"releases.xlsx.gz":     "releases-risk.xlsx",
		"releases.parquet.zst": "releases-risk.parquet",
	} {
		if got := defaultOutput(in); got != want {
			t.Errorf("defaultOutput(%q) = %q, want %q", in, got, want)
		}
	}
}
