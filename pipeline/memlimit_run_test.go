package pipeline_test

import (
	"context"
	"math"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/pipeline"
	"github.com/riskbatch/riskbatch/readers"
)

// runParquet evaluates a few releases into a Parquet file (the output for
// which a run may set a soft memory limit) with opts, calling during after
// each batch is written.
func runParquet(t *testing.T, opts pipeline.Options, during func()) {
	t.Helper()
	const releases = "id,mechanism,epsilon,sigma,sensitivity,delta,baseline\n" +
		"a,pure,1,,,,0.5\nb,gaussian,,10,1,1e-06,0.01\nc,gaussian,,-10,1,1e-06,0.01\n"
	ev := evaluate.New()
	tables, err := readers.OpenReader("releases.csv", strings.NewReader(releases), int64(len(releases)),
		readers.Options{Accept: ev.Vocabulary().Recognizes})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, tb := range tables {
			tb.Close()
		}
	}()
	opts.Progress = func(pipeline.Progress) { during() }
	out := pipeline.Output{Path: filepath.Join(t.TempDir(), "releases-risk.parquet")}
	res, err := pipeline.Run(context.Background(), ev, tables, out, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Rows() != 3 {
		t.Fatalf("%d rows written, want 3", res.Counts.Rows())
	}
}

// A run not asked to (Options.SetMemoryLimit nil) leaves the process's
// soft memory limit as it was, during the run and after it: under
// `riskbatch serve` concurrent runs would otherwise set and restore it
// out of order.
func TestRunLeavesMemoryLimitAlone(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	const mark = 7 << 30 // a limit no run sets
	previous := debug.SetMemoryLimit(mark)
	defer debug.SetMemoryLimit(previous)
	checks := 0
	runParquet(t, pipeline.Options{Workers: 2}, func() {
		checks++
		if got := debug.SetMemoryLimit(-1); got != mark {
			t.Errorf("during the run the memory limit is %d, want %d as set before it", got, mark)
		}
	})
	if checks == 0 {
		t.Fatal("progress was never reported: the limit was not checked during the run")
	}
	if got := debug.SetMemoryLimit(-1); got != mark {
		t.Errorf("after the run the memory limit is %d, want %d", got, mark)
	}
}

// A run asked to (Options.SetMemoryLimit) sets its limit through that
// function, above what the process holds, and restores the previous one.
func TestRunSetsMemoryLimitWhenAsked(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	const before = math.MaxInt64 // the runtime's "no limit"
	limit := int64(before)
	var calls []int64
	set := func(v int64) int64 {
		calls = append(calls, v)
		old := limit
		limit = v
		return old
	}
	runParquet(t, pipeline.Options{Workers: 2, SetMemoryLimit: set}, func() {
		if limit == before || limit < 80<<20 {
			t.Errorf("during the run the limit is %d, want one set above 80 MiB", limit)
		}
	})
	if len(calls) < 2 {
		t.Fatalf("SetMemoryLimit called %d times (%v), want a limit set and the previous one restored", len(calls), calls)
	}
	if limit != before {
		t.Errorf("after the run the limit is %d, want %d restored", limit, int64(before))
	}
	if got := debug.SetMemoryLimit(-1); got == calls[0] {
		t.Errorf("the process's limit was set to the run's %d, though the run was given its own function", got)
	}
}
