package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeSweep writes a CSV file of rows rows of epsilon, delta and a note,
// and returns its rows (from 0) whose note is not UTF-8 when bad: every
// 701st from row 5.
func writeSweep(t *testing.T, path string, rows int, bad bool) map[int]bool {
	t.Helper()
	var in strings.Builder
	in.WriteString("epsilon,delta,note\n")
	wrong := map[int]bool{}
	for i := range rows {
		note := fmt.Sprintf("row %d", i)
		if bad && i%701 == 5 {
			note = "bad \xff byte"
			wrong[i] = true
		}
		fmt.Fprintf(&in, "%d.5,1e-%d,%s\n", i%7, i%9+2, note)
	}
	if err := os.WriteFile(path, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return wrong
}

// sweepLine is the pass-through output line of row i of a file of
// writeSweep: its cells, the source column's when source is not empty,
// status ok, and the other cells empty up to width columns in all.
func sweepLine(i int, source string, width int) string {
	line := fmt.Sprintf("%d.5,1e-%d,row %d,", i%7, i%9+2, i)
	cols := 4
	if source != "" {
		line += source + ","
		cols++
	}
	return line + "ok," + strings.Repeat(",", width-cols-1)
}

// outputLines reads a CSV output of riskbatch: its header and rows, one
// string each (no cell of the sweeps holds a line break).
func outputLines(t *testing.T, path string) ([]string, []string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	return strings.Split(lines[0], ","), lines[1:]
}

// A pass-through run reuses the cell buffers of written batches and
// leaves the evaluator's cells of a row as the last batch left them when
// they are known empty (slab.tailsEmpty). A row that cannot be read
// (here a note that is not UTF-8, read as UTF-8) fills its message: the
// rows read after it, in the buffers it was written from, still come out
// with status ok, an empty message and every bound column empty.
func TestPassThroughRowsAfterErrorRows(t *testing.T) {
	t.Parallel()
	const rows = 6000
	dir := t.TempDir()
	src := filepath.Join(dir, "in.csv")
	bad := writeSweep(t, src, rows, true)
	out := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatch(t, "eval", "--pass-through", "--encoding", "utf-8", src, "-o", out, "-q"); code != exitRowErrors {
		t.Fatalf("exit %d, want %d (row errors): %s", code, exitRowErrors, stderr)
	}
	header, lines := outputLines(t, out)
	if len(header) < 10 || !slices.Equal(header[:5], []string{"epsilon", "delta", "note", "status", "message"}) {
		t.Fatalf("header %q: want epsilon, delta, note, status, message and the bounds", header)
	}
	if len(lines) != rows {
		t.Fatalf("%d rows, want %d", len(lines), rows)
	}
	errs := 0
	for i, line := range lines {
		if bad[i] {
			// The message names the column; the note is written as read.
			if !strings.Contains(line, ",error,") || !strings.Contains(line, "note") {
				t.Errorf("row %d: %q: want status error and a message naming the column note", i+2, line)
			}
			errs++
			continue
		}
		if want := sweepLine(i, "", len(header)); line != want {
			t.Errorf("row %d: %q, want %q", i+2, line, want)
		}
	}
	if errs != 9 {
		t.Errorf("%d error rows, want 9", errs)
	}
}

// A pass-through run reads the rows of a Parquet file straight into its
// output rows: the file a pass-through run wrote
// of a sweep, whose status, message and bound columns are dropped and
// written again, comes out as the sweep's CSV file does, alone (no source
// column) and after a CSV file with error rows (whose buffers, reused,
// hold messages to clear).
func TestPassThroughParquetRowsPlaced(t *testing.T) {
	t.Parallel()
	const rows = 5000
	dir := t.TempDir()
	good, bad, pq := filepath.Join(dir, "good.csv"), filepath.Join(dir, "bad.csv"), filepath.Join(dir, "mid.parquet")
	writeSweep(t, good, rows, false)
	wrong := writeSweep(t, bad, rows, true)
	if code, stderr := riskbatch(t, "eval", "--pass-through", good, "-o", pq, "-q"); code != exitOK {
		t.Fatalf("writing the Parquet file: exit %d: %s", code, stderr)
	}
	alone := filepath.Join(dir, "alone.csv")
	if code, stderr := riskbatch(t, "eval", "--pass-through", pq, "-o", alone, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, lines := outputLines(t, alone)
	if len(lines) != rows || len(header) < 10 {
		t.Fatalf("%d rows of %d columns, want %d rows and the bounds", len(lines), len(header), rows)
	}
	for i, line := range lines {
		if want := sweepLine(i, "", len(header)); line != want {
			t.Fatalf("alone: row %d: %q, want %q", i+2, line, want)
		}
	}
	after := filepath.Join(dir, "after.csv")
	if code, stderr := riskbatch(t, "eval", "--pass-through", "--encoding", "utf-8", bad, pq, "-o", after, "-q"); code != exitRowErrors {
		t.Fatalf("exit %d, want %d (row errors): %s", code, exitRowErrors, stderr)
	}
	header, lines = outputLines(t, after)
	if len(lines) != 2*rows || header[3] != "source" {
		t.Fatalf("%d rows, header %q: want %d rows and a source column", len(lines), header, 2*rows)
	}
	for i, line := range lines[:rows] {
		if want := sweepLine(i, bad, len(header)); !wrong[i] && line != want {
			t.Fatalf("after: row %d: %q, want %q", i+2, line, want)
		}
	}
	for i, line := range lines[rows:] {
		if want := sweepLine(i, pq, len(header)); line != want {
			t.Fatalf("after: row %d of the Parquet file: %q, want %q", i+2, line, want)
		}
	}
}
