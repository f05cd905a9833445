package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/serve"
)

// The evaluation of riskbatch serve tells the request's Progress how far
// it is, as eval's progress bar is told: at the end every row written and
// the whole table read, of a size known. It leaves the process's soft
// memory limit alone, also for Parquet (the runs of a server overlap).
func TestServeEvalProgress(t *testing.T) {
	sample := readSample(t, "releases.csv")
	input, err := csv.NewReader(bytes.NewReader(sample)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	const mark = 5 << 30 // a limit no run sets
	previous := debug.SetMemoryLimit(mark)
	defer debug.SetMemoryLimit(previous)
	t.Setenv("GOMEMLIMIT", "")
	for _, format := range []string{"csv", "parquet"} {
		dir := t.TempDir()
		in := filepath.Join(dir, "releases.csv")
		if err := os.WriteFile(in, sample, 0o600); err != nil {
			t.Fatal(err)
		}
		type call struct{ rows, read, size int64 }
		var calls []call
		req := serve.EvalRequest{Dir: dir, Input: in, Output: filepath.Join(dir, "out."+format), Format: format,
			Progress: func(rows, read, size int64) {
				calls = append(calls, call{rows, read, size})
				if got := debug.SetMemoryLimit(-1); got != mark {
					t.Errorf("%s: during the run the memory limit is %d, want %d", format, got, mark)
				}
			}}
		if err := serveEval(evaluate.WithCachesOf(sharedCaches))(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		if len(calls) == 0 {
			t.Fatalf("%s: Progress never called", format)
		}
		last := calls[len(calls)-1]
		if last.size != int64(len(sample)) || last.read != last.size {
			t.Errorf("%s: at the end %d of %d bytes read, want all %d", format, last.read, last.size, len(sample))
		}
		// Every row of the table; the sample's one dataset total is
		// written after the last batch.
		if last.rows != int64(len(input)-1) {
			t.Errorf("%s: at the end %d rows written, want the table's %d", format, last.rows, len(input)-1)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != mark {
		t.Errorf("after the runs the memory limit is %d, want %d", got, mark)
	}
}
