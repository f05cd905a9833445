package main

import (
	"path/filepath"
	"testing"
)

// A column named n is a common header for counts: on rows of other
// mechanisms than dpsgd it passes through untouched, whatever it holds
// (it is not dataset_size, which dpsgd rows state in full).
func TestCountColumnPassesThrough(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "counts.csv"),
		"id,mechanism,sigma,delta,n,baseline\n"+
			"a,gaussian,10,1e-6,1204,0.01\n"+
			"b,gaussian,4,1e-5,0,0.5\n"+
			"c,gaussian,4,1e-5,many,0.5\n"+
			"d,gaussian,4,1e-5,,0.5\n")
	out := filepath.Join(dir, "out.csv")
	header, rows := evalRows(t, exitOK, out, 4, "eval", in, "-o", out, "-q")
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %v", name, header)
		return -1
	}
	n, status, msg := col("n"), col("status"), col("message")
	for i, want := range []string{"1204", "0", "many", ""} {
		if got := rows[i][n]; got != want {
			t.Errorf("row %d: n = %q, want %q (passed through)", i+1, got, want)
		}
		if rows[i][status] != "ok" || rows[i][msg] != "" {
			t.Errorf("row %d: status %s, message %q; want ok and none", i+1, rows[i][status], rows[i][msg])
		}
	}
}
