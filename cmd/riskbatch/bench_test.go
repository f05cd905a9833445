package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// benchRows is the size of the end-to-end benchmark's input:
// RISKBATCH_BENCH_ROWS overrides it (the README's figures use 1000000).
func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("RISKBATCH_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// writeBenchCSV writes n release rows of the closed-form families (pure,
// approx, gaussian, gdp) with baselines, as a sweep would.
func writeBenchCSV(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewSource(1))
	fmt.Fprintln(w, "id,mechanism,epsilon,delta,sigma,mu,baseline")
	for i := 0; i < n; i++ {
		b := strconv.FormatFloat(rng.Float64()*0.5, 'g', 6, 64)
		switch i % 4 {
		case 0:
			fmt.Fprintf(w, "r%d,pure,%.4g,,,,%s\n", i, rng.Float64()*10, b)
		case 1:
			fmt.Fprintf(w, "r%d,approx,%.4g,1e-5,,,%s\n", i, rng.Float64()*10, b)
		case 2:
			fmt.Fprintf(w, "r%d,gaussian,,1e-5,%.4g,,%s\n", i, 0.5+rng.Float64()*10, b)
		default:
			fmt.Fprintf(w, "r%d,gdp,,1e-5,,%.4g,%s\n", i, rng.Float64()*3, b)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// BenchmarkEndToEnd runs riskbatch on a generated CSV of closed-form rows
// and reports rows/s for each output format, next to the pass-through
// baseline that reads and writes the same files without evaluating:
//
//	RISKBATCH_BENCH_ROWS=1000000 go test -run '^$' -bench EndToEnd -benchtime 1x ./cmd/riskbatch
func BenchmarkEndToEnd(b *testing.B) {
	n := benchRows()
	dir := b.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := writeBenchCSV(in, n); err != nil {
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
