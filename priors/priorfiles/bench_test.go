package priorfiles_test

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/internal/surveydata"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/writers"
)

// benchOptions are the options of the 10^6-row benchmarks: every column
// with at most 50 values as an attribute (8 of the 12 qualify; age, hours,
// income and zip are dropped on the way), their conditionals given region
// and sex (6 keys with one p_i per record each), and age as an ordinal
// attribute with tolerance 2 (marginal, and conditional per record).
func benchOptions() build.Options {
	return build.Options{
		Given:     []string{"region", "sex"},
		Ordinal:   []string{"age"},
		Tolerance: 2,
	}
}

// benchFile writes the generated 10^6-row Parquet file into the
// benchmark's temporary directory.
func benchFile(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.parquet")
	if err := surveydata.WriteParquet(path, 1_000_000); err != nil {
		b.Fatal(err)
	}
	return path
}

// memPeak samples the heap every 5 ms until stop is called, and returns
// the largest HeapInuse and HeapSys seen.
func memPeak() (stop func() (inuse, sys uint64)) {
	done, wg := make(chan struct{}), sync.WaitGroup{}
	var inuse, sys uint64
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			inuse, sys = max(inuse, ms.HeapInuse), max(sys, ms.HeapSys)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return inuse, sys
	}
}

// BenchmarkBuild1e6 builds priors from a generated Parquet file of
// 1,000,000 rows and 12 columns (benchOptions). Besides ns/op and B/op it
// reports, as metrics and not assertions, the largest heap in use and heap
// obtained from the OS (HeapInuse, HeapSys, sampled every 5 ms).
func BenchmarkBuild1e6(b *testing.B) {
	path := benchFile(b)
	benchPeak(b, func() error {
		res, err := priorfiles.BuildFile(path, readers.Options{}, benchOptions())
		if err == nil && res.Records != 1_000_000 {
			err = fmt.Errorf("%d records", res.Records)
		}
		return err
	})
}

// BenchmarkBuildWrite1e6 is what `riskbatch priors` does with the same
// file: build, then write the three Parquet outputs (the prior table has
// one row per record for each of the 7 conditional keys, about 7·10^6
// rows).
func BenchmarkBuildWrite1e6(b *testing.B) {
	path := benchFile(b)
	out := filepath.Join(b.TempDir(), "priors.parquet")
	benchPeak(b, func() error {
		res, err := priorfiles.BuildFile(path, readers.Options{}, benchOptions())
		if err == nil {
			err = priorfiles.WriteResult(out, res, "")
		}
		return err
	})
}

// benchPeak runs run b.N times, each after a garbage collection, and
// reports the largest heap in use and obtained from the OS while it ran
// (see memPeak).
func benchPeak(b *testing.B, run func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	var inuse, sys uint64
	for range b.N {
		runtime.GC()
		stop := memPeak()
		err := run()
		i, s := stop()
		inuse, sys = max(inuse, i), max(sys, s)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(inuse)/(1<<20), "peak-HeapInuse-MiB")
	b.ReportMetric(float64(sys)/(1<<20), "peak-HeapSys-MiB")
}

// BenchmarkMarginals1e6 counts the marginals of two columns of the
// generated 10^6-row Parquet file (region, a string column, and age, an
// integer column with nulls), as `riskbatch priors --columns region,age`
// does before writing: the case cmd/riskbatch-bench times against
// DuckDB's GROUP BY counts.
func BenchmarkMarginals1e6(b *testing.B) {
	benchBuild(b, benchFile(b), build.Options{Columns: []string{"region", "age"}})
}

// BenchmarkConditional1e6 counts a conditional prior of the generated
// 10^6-row Parquet file: occupation given sex and region.
func BenchmarkConditional1e6(b *testing.B) {
	benchBuild(b, benchFile(b), build.Options{Columns: []string{"occupation"}, Given: []string{"sex", "region"}})
}

// BenchmarkMarginalsCSV1e6 is BenchmarkMarginals1e6 on the same rows as
// CSV.
func BenchmarkMarginalsCSV1e6(b *testing.B) {
	path := benchFile(b)
	csv := filepath.Join(b.TempDir(), "bench.csv")
	tables, err := readers.Open(path, readers.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer tables[0].Close()
	w, err := writers.Create(csv, writers.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	if err := w.WriteHeader(tables[0].Columns()); err != nil {
		b.Fatal(err)
	}
	for {
		row, err := tables[0].Next()
		if err == io.EOF {
			break
		}
		if err == nil {
			err = w.Write(row.Cells)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	benchBuild(b, csv, build.Options{Columns: []string{"region", "age"}})
}

// benchBuild builds the priors of the file at path b.N times and reports
// rows per second.
func benchBuild(b *testing.B, path string, opts build.Options) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		res, err := priorfiles.BuildFile(path, readers.Options{}, opts)
		if err != nil {
			b.Fatal(err)
		}
		if res.Records != 1_000_000 {
			b.Fatalf("%d records", res.Records)
		}
	}
	b.ReportMetric(float64(b.N)*1e6/b.Elapsed().Seconds(), "rows/s")
}
