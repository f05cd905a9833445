package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// benchRows is the size of the benchmark's input: RISKBATCH_BEAM_BENCH_ROWS
// overrides it (the README's figure uses 1000000).
func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("RISKBATCH_BEAM_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// writeBenchFiles writes n release rows of the closed-form families (pure,
// approx, gaussian, gdp) with baselines over files CSV files, as
// cmd/riskbatch's end-to-end benchmark does for one file.
func writeBenchFiles(dir string, n, files int) error {
	rng := rand.New(rand.NewSource(1))
	for f := 0; f < files; f++ {
		out, err := os.Create(filepath.Join(dir, fmt.Sprintf("part-%d.csv", f)))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(out, 1<<20)
		fmt.Fprintln(w, "id,mechanism,epsilon,delta,sigma,mu,baseline")
		for i := f; i < n; i += files {
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
		if err := out.Close(); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkLocalRunner runs the pipeline on the local runner (prism, in
// process) over four CSV files and reports rows/s, start-up included:
//
//	RISKBATCH_BEAM_BENCH_ROWS=1000000 go test -run '^$' -bench LocalRunner -benchtime 1x
func BenchmarkLocalRunner(b *testing.B) {
	n := benchRows()
	dir := b.TempDir()
	if err := writeBenchFiles(dir, n, 4); err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"csv", "parquet"} {
		b.Run("csv-to-"+format, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p, s := beam.NewPipelineWithRoot()
				cfg := Config{Inputs: []string{filepath.Join(dir, "part-*.csv")}, Output: filepath.Join(dir, "out", "risk"), Format: format}
				if _, err := Build(context.Background(), s, cfg); err != nil {
					b.Fatal(err)
				}
				res, err := ptest.RunWithMetrics(p)
				if err != nil {
					b.Fatal(err)
				}
				if counts, _ := rowCounts(res); counts.total() != int64(n) {
					b.Fatalf("%d rows counted, want %d", counts.total(), n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
