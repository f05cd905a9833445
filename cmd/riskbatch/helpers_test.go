package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// The helpers the command's tests share: running the command line in
// process and the sample inputs (output_test.go reads what it wrote,
// spreadsheets_test.go runs the spreadsheet programs).

// TestMain makes fixtures, the folder for what the tests build once and
// only read (the sample's workbook), and removes it when they end.
func TestMain(m *testing.M) {
	testenv.RunWithFixtures(func(dir string) int { fixtures = dir; return m.Run() })
}

var fixtures string

// riskbatch runs the command line in-process and returns the exit status
// and what it printed on stderr.
func riskbatch(t testing.TB, args ...string) (int, string) {
	t.Helper()
	return riskbatchTo(t, new(bytes.Buffer), args...)
}

// riskbatchTo runs the command line in-process with stdout as standard
// output and returns the exit status and stderr.
func riskbatchTo(t testing.TB, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(append([]string{"riskbatch"}, args...), nil, stdout, &stderr)
	return code, stderr.String()
}

// mustRun runs the command line in-process and fails the test unless it
// exits with want.
func mustRun(t testing.TB, want int, args ...string) {
	t.Helper()
	if code, stderr := riskbatch(t, args...); code != want {
		t.Fatalf("riskbatch %q: exit %d, want %d: %s", args, code, want, stderr)
	}
}

// evalRows runs the command line, which must exit with code, and returns
// the header and rows of its output out, which must hold n rows.
func evalRows(t *testing.T, code int, out string, n int, args ...string) ([]string, [][]string) {
	t.Helper()
	mustRun(t, code, args...)
	header, rows := readAll(t, out)
	if len(rows) != n {
		t.Fatalf("%s: %d rows, want %d", out, len(rows), n)
	}
	return header, rows
}

// sharedCaches is the evaluator whose caches the runs of riskbatchShared
// share: the sample's three DP-SGD accountants take about half a second
// each, and the sample's workbook, its golden outputs (golden_test.go) and
// the template's examples (one of them the sample's GPT-2 row) would
// otherwise build them once per run. Its results are those each run
// computes itself, bit for bit (evaluate.WithCachesOf).
var sharedCaches = evaluate.New()

// riskbatchShared is riskbatch for runs over rows that other runs evaluate
// too (the sample's, the template's, the golden table's): they share the
// costly results of their evaluation through sharedCaches.
func riskbatchShared(t testing.TB, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := runWith(append([]string{"riskbatch"}, args...), nil, io.Discard, &stderr, evaluate.WithCachesOf(sharedCaches))
	return code, stderr.String()
}

// sampleBook is the built-in sample's workbook, written once into
// fixtures by the first test that asks for it.
var sampleBook = sync.OnceValues(func() (string, error) {
	out := filepath.Join(fixtures, "riskbatch-sample.xlsx")
	var stderr bytes.Buffer
	if code := runWith([]string{"riskbatch", "-o", out, "-q"}, nil, io.Discard, &stderr, evaluate.WithCachesOf(sharedCaches)); code != exitOK {
		return "", &exitError{code: code, stderr: stderr.String()}
	}
	return out, nil
})

// exitError is a run of the command line that failed.
type exitError struct {
	code   int
	stderr string
}

func (e *exitError) Error() string { return fmt.Sprintf("exit %d: %s", e.code, e.stderr) }

// sampleWorkbook returns the built-in sample's workbook, as `riskbatch -o
// riskbatch-sample.xlsx -q` writes it. It is written once for all the
// tests: they read it and never change it.
func sampleWorkbook(t *testing.T) string {
	t.Helper()
	path, err := sampleBook()
	if err != nil {
		t.Fatalf("the sample: %v", err)
	}
	return path
}

// samplePath is the path of a file of the repository's samples folder.
func samplePath(name string) string { return filepath.Join("..", "..", "samples", name) }

// sampleReleases returns the sample release table to evaluate: with
// RISKBATCH_LONG_TESTS=1 samples/releases.csv itself, by default a copy in
// dir without its DP-SGD rows (sampleCSV), whose accounting takes most of
// a second per run.
func sampleReleases(t *testing.T, dir string) string {
	t.Helper()
	if testenv.Long() {
		return samplePath("releases.csv")
	}
	sampleCSV(t, dir)
	return filepath.Join(dir, "t.csv")
}

// sampleCSV copies the sample release table to dir as t.csv, without its
// DP-SGD rows: their accounting takes most of a second per run, and the
// command line the tests check does not depend on them.
func sampleCSV(t *testing.T, dir string) {
	t.Helper()
	records := readback.ReadCSV(t, samplePath("releases.csv"), 0)
	mech := slices.Index(records[0], "mechanism")
	if mech < 0 {
		t.Fatal("the sample has no mechanism column")
	}
	kept := slices.DeleteFunc(records, func(r []string) bool { return r[mech] == "dpsgd" })
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(kept); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "t.csv"), b.String())
}

// writeFile writes text to path and returns path.
func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	return writeBytes(t, path, []byte(text))
}

// writeBytes writes data to path and returns path.
func writeBytes(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// exists reports whether a file exists in dir.
func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
