package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/writers"
)

// A cell longer than an XLSX cell holds (32,767 characters) is cut, ends
// with the truncation marker, and the run says how many cells were cut.
func TestTruncationWarned(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "long.csv")
	long := strings.Repeat("x", 40000)
	if err := os.WriteFile(in, []byte("id,epsilon,baseline,note\nlong,1,0.1,"+long+"\nshort,1,0.1,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "long.xlsx")
	code, stderr := riskbatch(t, "eval", in, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "1 cells longer than 32767 characters were cut") || !strings.Contains(stderr, writers.TruncatedMarker) {
		t.Errorf("stderr does not report the cut cell: %q", stderr)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(writers.DefaultSheetName)
	if err != nil {
		t.Fatal(err)
	}
	note := rows[1][column(rows[0], "note")]
	if !strings.HasSuffix(note, writers.TruncatedMarker) || !strings.HasPrefix(long, strings.TrimSuffix(note, writers.TruncatedMarker)) {
		t.Errorf("the cut cell is not a marked prefix (%d characters)", len(note))
	}
	// A run without long cells says nothing about cutting.
	in2 := filepath.Join(dir, "short.csv")
	os.WriteFile(in2, []byte("id,epsilon,baseline\na,1,0.1\n"), 0o644)
	if _, stderr := riskbatch(t, "eval", in2, "-o", filepath.Join(dir, "short.xlsx")); strings.Contains(stderr, "were cut") {
		t.Errorf("stderr reports cut cells for a short input: %q", stderr)
	}
}
