package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// runMeasured runs the command line and returns its exit status, stderr,
// the bytes it allocated and the time it took.
func runMeasured(t *testing.T, args ...string) (code int, stderr string, alloc uint64, took time.Duration) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	code, stderr = riskbatch(t, args...)
	took = time.Since(start)
	runtime.ReadMemStats(&after)
	return code, stderr, after.TotalAlloc - before.TotalAlloc, took
}

// wantRefusal checks a refused run: exit 2, exactly one line on stderr,
// and no output file.
func wantRefusal(t *testing.T, code int, stderr, line, out string) {
	t.Helper()
	if code != exitUsage {
		t.Errorf("exit %d, want %d (stderr %q)", code, exitUsage, stderr)
	}
	if stderr != line+"\n" {
		t.Errorf("stderr\n got %q\nwant %q", stderr, line+"\n")
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
}

// A zip bomb and forged Parquet footers are refused: exit 2, one line on
// stderr naming the file, the limit and the flag that raises it, nothing
// written, and little memory spent. The times are logged, not asserted.
func TestHostileInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.xlsx")

	bomb := filepath.Join(dir, "bomb.xlsx")
	size, packed := testfiles.ZipBomb(t, bomb)
	st, _ := os.Stat(bomb)
	code, stderr, alloc, took := runMeasured(t, "eval", bomb, "-o", out, "-q")
	t.Logf("zip bomb (a file of %d bytes, a sheet unpacking to %d): refused in %v, %d KB allocated", st.Size(), size, took, alloc>>10)
	wantRefusal(t, code, stderr, "riskbatch: "+bomb+", sheet Bomb: the part xl/worksheets/sheet1.xml unpacks from "+
		sizeWords(packed)+" to "+sizeWords(size)+" ("+digits(size/packed)+" times its size), as a zip bomb does: the limit is 200 to 1; if the file is genuine, raise it with --max-xlsx-ratio", out)
	if alloc > 64<<20 {
		t.Errorf("refusing the zip bomb allocated %d bytes", alloc)
	}

	// With the ratio raised, the sheet's endless row is refused at
	// --max-row-bytes, after the header; nothing is written.
	code, stderr, alloc, took = runMeasured(t, "eval", bomb, "-o", out, "-q", "--max-xlsx-ratio", "none", "--max-row-bytes", "1MiB")
	t.Logf("zip bomb, ratio unlimited: endless row refused in %v, %d MB allocated", took, alloc>>20)
	wantRefusal(t, code, stderr, "riskbatch: "+bomb+", sheet Bomb, row 2: this row's XML is too long: the limit is 1 MiB; if the file is genuine, raise it with --max-row-bytes", out)

	// Parquet: a footer length pointing outside the file.
	sample, err := os.ReadFile(filepath.Join("..", "..", "samples", "releases.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(dir, "forged.parquet")
	bad := bytes.Clone(sample)
	binary.LittleEndian.PutUint32(bad[len(bad)-8:], 0x7FFFFFFF)
	os.WriteFile(forged, bad, 0o644)
	code, stderr, alloc, took = runMeasured(t, "eval", forged, "-o", out, "-q")
	t.Logf("forged Parquet footer length: refused in %v, %d KB allocated", took, alloc>>10)
	wantRefusal(t, code, stderr, "riskbatch: "+forged+": not a readable Parquet file: the footer declares 2,147,483,647 bytes of metadata, more than the file holds before it ("+sizeWords(int64(len(bad)-12))+")", out)
	if alloc > 64<<20 {
		t.Errorf("refusing the forged footer allocated %d bytes", alloc)
	}

	// A genuine footer above a lowered --max-parquet-metadata-bytes.
	real := filepath.Join(dir, "releases.parquet")
	os.WriteFile(real, sample, 0o644)
	footer := int64(binary.LittleEndian.Uint32(sample[len(sample)-8:]))
	code, stderr = riskbatch(t, "eval", real, "-o", out, "-q", "--max-parquet-metadata-bytes", "1KiB")
	wantRefusal(t, code, stderr, "riskbatch: "+real+": the footer (the file metadata) holds "+sizeWords(footer)+
		": the limit is 1 KiB; if the file is genuine, raise it with --max-parquet-metadata-bytes", out)
}

// sizeWords and digits format sizes and counts as the messages do: bytes
// with digits grouped by three, or a whole number of KiB, MiB or GiB.
func sizeWords(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return digits(n>>u.shift) + " " + u.name
		}
	}
	return digits(n) + " bytes"
}

func digits(n int64) string {
	s := itoa(int(n))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A cell above --max-cell-bytes is an error for its row, which is kept:
// exit 1, every row written. The default limit reads it.
func TestCellLimitKeepsRow(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "long.csv")
	note := strings.Repeat("n", 200)
	os.WriteFile(in, []byte("name,epsilon,baseline,note\nr1,1,0.1,"+note+"\nr2,1,0.1,ok\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	header, rows := evalRows(t, exitRowErrors, out, 2, "eval", in, "-o", out, "-q", "--max-cell-bytes", "100")
	st, msg := column(header, "status"), column(header, "message")
	if rows[0][0] != "r1" || rows[0][st] != "error" || !strings.Contains(rows[0][msg], "row 2, column note: this cell holds 200 bytes: the limit is 100 bytes; if the file is genuine, raise it with --max-cell-bytes") {
		t.Errorf("row 1: %q", rows[0])
	}
	if rows[1][0] != "r2" || rows[1][st] != "ok" {
		t.Errorf("row 2: %q", rows[1])
	}
	if code, stderr := riskbatch(t, "eval", in, "-o", filepath.Join(dir, "out2.csv"), "-q"); code != exitOK {
		t.Errorf("default limits: exit %d: %s", code, stderr)
	}
}

// The limit flags of priors, and their parsing errors.
func TestLimitFlags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "data.csv")
	os.WriteFile(in, []byte("species,island\nAdelie,Biscoe\n"), 0o644)
	out := filepath.Join(dir, "priors.xlsx")
	code, stderr := riskbatch(t, "priors", in, "-o", out, "-q", "--max-columns", "1")
	wantRefusal(t, code, stderr, "riskbatch: "+in+", row 1: the header row has 2 columns: the limit is 1 columns; if the file is genuine, raise it with --max-columns", out)

	for _, c := range []struct{ flag, value, msg string }{
		{"--max-cell-bytes", "abc", `riskbatch: --max-cell-bytes: "abc" is not a size such as 1048576, 512KiB, 16MiB or 2GB, or none`},
		{"--max-row-bytes", "0", `riskbatch: --max-row-bytes: "0" is not a size such as 1048576, 512KiB, 16MiB or 2GB, or none`},
		{"--max-xlsx-ratio", "2.5", `riskbatch: --max-xlsx-ratio: "2.5" is not a whole number ≥ 1, or none`},
		{"--max-columns", "10MiB", `riskbatch: --max-columns: "10MiB" is not a whole number ≥ 1, or none`},
	} {
		code, stderr := riskbatch(t, "eval", in, "-o", filepath.Join(dir, "out.csv"), c.flag, c.value)
		wantRefusal(t, code, stderr, c.msg, filepath.Join(dir, "out.csv"))
	}
}

// Every limit of readers.Limits has a flag of the name its errors give,
// with the default as its default.
func TestLimitFlagsCoverLimits(t *testing.T) {
	def := readers.DefaultLimits()
	var set readers.Limits
	names := map[string]bool{}
	for _, l := range readers.LimitSettings() {
		names[l.Name] = true
		*l.Field(&set) = 1
		v, err := readers.ParseLimit(flagDefault(t, l.Name), l.Size)
		if err != nil || v != *l.Field(&def) {
			t.Errorf("--%s: default %d, %v; readers' %d", l.Name, v, err, *l.Field(&def))
		}
	}
	if set != (readers.Limits{CellBytes: 1, RowBytes: 1, Columns: 1, XLSXSheetBytes: 1, XLSXPartBytes: 1, XLSXTotalBytes: 1,
		XLSXRatio: 1, XLSXParts: 1, ParquetMetadataBytes: 1, ParquetPageBytes: 1, SpoolBytes: 1}) {
		t.Errorf("the flags do not set every limit: %+v", set)
	}
	// The names the readers' errors give are flags.
	_, err := readers.OpenReader("x.csv", strings.NewReader("a,b\n"), 4, readers.Options{Limits: readers.Limits{Columns: 1}})
	var le *readers.LimitError
	if !errors.As(err, &le) || !names[le.Name] {
		t.Errorf("%v: not a limit of a flag", err)
	}
}

// flagDefault is the default value of an eval flag.
func flagDefault(t *testing.T, name string) string {
	t.Helper()
	for _, f := range limitFlags() {
		if f.Names()[0] == name {
			return f.(*cli.StringFlag).Value
		}
	}
	t.Fatalf("no flag --%s", name)
	return ""
}
