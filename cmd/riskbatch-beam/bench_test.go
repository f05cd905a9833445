package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/riskbatch/riskbatch/internal/benchinput"
)

// BenchmarkLocalRunner runs the pipeline on the local runner (prism, in
// process) over four CSV files and reports rows/s, start-up included:
//
//	RISKBATCH_BEAM_BENCH_ROWS=1000000 go test -run '^$' -bench LocalRunner -benchtime 1x
func BenchmarkLocalRunner(b *testing.B) {
	// The closed-form rows of cmd/riskbatch's end-to-end benchmark, over
	// four files; 100,000 unless RISKBATCH_BEAM_BENCH_ROWS says otherwise
	// (the figure of docs/beam.md: 1000000).
	dir, n := b.TempDir(), benchinput.Rows("RISKBATCH_BEAM_BENCH_ROWS", 100000)
	var files []string
	for f := range 4 {
		files = append(files, filepath.Join(dir, fmt.Sprintf("part-%d.csv", f)))
	}
	if err := benchinput.WriteShards(files, benchinput.ClosedForm(), n); err != nil {
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
