package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// BenchmarkPassThrough reads and writes closed-form rows without
// evaluating them (--pass-through), for each pair of CSV and Parquet
// input and output: the plumbing's own cost, to profile:
//
//	go test -run '^$' -bench PassThrough/csv-to-parquet -benchtime 3x -cpuprofile cpu.out ./cmd/riskbatch
//
// RISKBATCH_BENCH_ROWS sets the rows (default 100,000); RISKBATCH_BENCH_DIR
// names a folder that keeps the generated inputs between runs, so that a
// profile of Parquet input does not include writing it.
func BenchmarkPassThrough(b *testing.B) {
	n := benchinput.Rows("RISKBATCH_BENCH_ROWS", 100000)
	dir := os.Getenv("RISKBATCH_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	in := filepath.Join(dir, "passthrough.csv")
	pq := filepath.Join(dir, "passthrough.parquet")
	if _, err := os.Stat(pq); err != nil {
		if err := benchinput.WriteCSV(in, benchinput.ClosedForm(), n); err != nil {
			b.Fatal(err)
		}
		if code, stderr := riskbatch(b, "eval", in, "-o", pq, "-q", "--pass-through"); code != exitOK {
			b.Fatalf("making the Parquet input: %d %s", code, stderr)
		}
	}
	out := b.TempDir()
	for _, c := range []struct{ name, in, out string }{
		{"csv-to-parquet", in, "out.parquet"},
		{"parquet-to-parquet", pq, "out2.parquet"},
		{"csv-to-csv", in, "out.csv"},
		{"parquet-to-csv", pq, "out2.csv"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code, stderr := riskbatch(b, "eval", c.in, "-o", filepath.Join(out, c.out), "-q", "--force", "--pass-through"); code != exitOK {
					b.Fatalf("exit %d: %s", code, stderr)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
