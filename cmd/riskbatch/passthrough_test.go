package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A pass-through run reuses the cell buffers of written batches and
// leaves the evaluator's cells of a row as the last batch left them when
// they are known empty (slab.tailsEmpty). A row that cannot be read
// (here a note that is not UTF-8, read as UTF-8) fills its message: the rows read after
// it, in the buffers it was written from, still come out with status ok,
// an empty message and every bound column empty.
func TestPassThroughRowsAfterErrorRows(t *testing.T) {
	t.Parallel()
	const rows = 6000
	var in strings.Builder
	in.WriteString("epsilon,delta,note\n")
	bad := map[int]bool{}
	for i := range rows {
		note := fmt.Sprintf("row %d", i)
		if i%701 == 5 {
			note = "bad \xff byte"
			bad[i] = true
		}
		fmt.Fprintf(&in, "%d.5,1e-%d,%s\n", i%7, i%9+2, note)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(src, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatch(t, "eval", "--pass-through", "--encoding", "utf-8", src, "-o", out, "-q"); code != exitRowErrors {
		t.Fatalf("exit %d, want %d (row errors): %s", code, exitRowErrors, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	header := strings.Split(lines[0], ",")
	if len(header) < 10 || !slices.Equal(header[:5], []string{"epsilon", "delta", "note", "status", "message"}) {
		t.Fatalf("header %q: want epsilon, delta, note, status, message and the bounds", header)
	}
	if len(lines) != rows+1 {
		t.Fatalf("%d rows, want %d", len(lines)-1, rows)
	}
	errs := 0
	for i, line := range lines[1:] {
		if bad[i] {
			// The message names the column; the note is written as read.
			if !strings.Contains(line, ",error,") || !strings.Contains(line, "note") {
				t.Errorf("row %d: %q: want status error and a message naming the column note", i+2, line)
			}
			errs++
			continue
		}
		want := fmt.Sprintf("%d.5,1e-%d,row %d,ok,", i%7, i%9+2, i) + strings.Repeat(",", len(header)-5)
		if line != want {
			t.Errorf("row %d: %q, want %q", i+2, line, want)
		}
	}
	if errs != 9 {
		t.Errorf("%d error rows, want 9", errs)
	}
}
