package main

import (
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// BenchmarkEndToEnd runs riskbatch on a generated CSV of closed-form rows
// and reports rows/s for each output format, next to the pass-through
// baseline that reads and writes the same files without evaluating:
//
//	RISKBATCH_BENCH_ROWS=1000000 go test -run '^$' -bench EndToEnd -benchtime 1x ./cmd/riskbatch
func BenchmarkEndToEnd(b *testing.B) {
	n := benchinput.Rows("RISKBATCH_BENCH_ROWS", 100000) // docs/performance.md's figures: 1000000
	dir := b.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := benchinput.WriteCSV(in, benchinput.ClosedForm(), n); err != nil {
		b.Fatal(err)
	}
	pq := filepath.Join(dir, "in.parquet")
	if code, stderr := riskbatch(b, "eval", in, "-o", pq, "-q", "--pass-through"); code != exitOK {
		b.Fatalf("making the Parquet input: %d %s", code, stderr)
	}
	for _, c := range []struct{ name, in, out string }{
		{"csv-to-parquet", in, "out.parquet"},
		{"parquet-to-parquet", pq, "out2.parquet"},
		{"csv-to-csv", in, "out.csv"},
		{"csv-to-xlsx", in, "out.xlsx"},
	} {
		for _, mode := range []string{"pass-through", "evaluate"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				args := []string{"eval", c.in, "-o", filepath.Join(dir, c.out), "-q"}
				if mode == "pass-through" {
					args = append(args, "--pass-through")
				}
				for i := 0; i < b.N; i++ {
					if code, stderr := riskbatch(b, args...); code != exitOK {
						b.Fatalf("exit %d: %s", code, stderr)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

// BenchmarkWorkers runs riskbatch with --workers 1 and 2 on closed-form
// rows (bound by reading and writing) and on evaluation-bound rows (zCDP,
// one-run tails of 100 targets, DP-SGD), reporting rows/s; profile it with
// -cpuprofile, -mutexprofile or -blockprofile:
//
//	go test -run '^$' -bench Workers -benchtime 1x ./cmd/riskbatch
func BenchmarkWorkers(b *testing.B) {
	n := benchinput.Rows("RISKBATCH_BENCH_ROWS", 100000)
	dir := b.TempDir()
	for _, c := range []struct {
		name string
		kind benchinput.Kind
		rows int
	}{
		{"closed-form", benchinput.ClosedForm(), n},
		{"zcdp", benchinput.Heavy(), max(n/50, 1000)},
		{"tail", benchinput.Tail(), max(n/20, 1000)},
		{"dpsgd", benchinput.DPSGD(), max(n/50, 1000)},
	} {
		in := filepath.Join(dir, c.name+".csv")
		if err := benchinput.WriteCSV(in, c.kind, c.rows); err != nil {
			b.Fatal(err)
		}
		for _, w := range []string{"1", "2"} {
			b.Run(c.name+"/workers="+w, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if code, stderr := riskbatch(b, "eval", in, "-o", filepath.Join(dir, "out.parquet"), "-q", "--force", "--workers", w); code != exitOK {
						b.Fatalf("exit %d: %s", code, stderr)
					}
				}
				b.ReportMetric(float64(c.rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
