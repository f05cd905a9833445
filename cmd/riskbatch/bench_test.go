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
	n := benchinput.Rows("RISKBATCH_BENCH_ROWS", 100000) // the README's figures: 1000000
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
