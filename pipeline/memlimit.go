package pipeline

import (
	"runtime"
	"sync"
)

// The soft memory limit of a stream that writes runs of rows (Parquet).

// parquetMemoryLimit is the soft memory limit of a run that writes
// Parquet (unless GOMEMLIMIT sets one). Such a run holds about 60 MB: the
// batches in flight and the row group being written. Go collects garbage
// once the heap has grown by as much as it held after the last
// collection, so the heap, made mostly of row-group buffers and batches
// let go of, peaked at over 200 MB; with the limit the collector runs
// before it passes the limit, for some more CPU (10⁶ rows Parquet →
// Parquet: 196 MB peak RSS without it, 133 MB with 100 MiB). A row
// group's bounds are held as arrays of float64s until it is written: a
// 10⁷-row Parquet → Parquet run peaks at 153 MB at 90 MiB (82 s, 157 s of
// CPU) and at 145 MB at 80 MiB (89 s, 171 s of CPU). The limit is set
// above what the process holds when the stream starts (prior tables, files
// named in cells, caches), so that a run holding much already does not
// collect garbage without end; a run that needs more still gets it: the
// limit is soft.
const parquetMemoryLimit = 80 << 20

// streamMemoryLimit returns parquetMemoryLimit above the memory the Go
// runtime holds now (mapped and not returned to the system).
func streamMemoryLimit() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys-ms.HeapReleased) + parquetMemoryLimit
}

// memoryLimit is a stream's soft memory limit: streamMemoryLimit when the
// stream starts, raised by what the evaluator's caches of DP-SGD
// accountants come to hold (evaluate.Evaluator.CacheBytes, at most about
// 230 MB), never lowered. The caches are live memory the collector cannot
// free: with a fixed limit, a sweep of DP-SGD configurations whose
// accountants fill it collects garbage without end (60 configurations,
// --workers 1: 7.0 s of CPU, 5.3 s without the limit).
type memoryLimit struct {
	base   int64
	caches func() int64      // the caches' bytes; nil for none
	set    func(int64) int64 // debug.SetMemoryLimit
	mu     sync.Mutex
	now    int64 // the limit set, above base
}

// follow raises the limit to base + the caches' bytes once they have grown
// by more than limitStep since it was last set. A nil limit does nothing.
func (m *memoryLimit) follow() {
	if m == nil || m.caches == nil {
		return
	}
	held := m.caches()
	m.mu.Lock()
	defer m.mu.Unlock()
	if held > m.now+limitStep {
		m.now = held
		m.set(m.base + held)
	}
}

// limitStep is how much the caches grow before the limit follows them.
const limitStep = 4 << 20

// ProcessMemoryLimit is a soft memory limit for a process that runs up to
// runs evaluations at once (riskbatch serve, which sets it once when it
// starts, since limits set and restored by overlapping runs would undo
// one another): parquetMemoryLimit for each above the memory the Go
// runtime holds now.
func ProcessMemoryLimit(runs int) int64 {
	return streamMemoryLimit() + int64(max(runs, 1)-1)*parquetMemoryLimit
}
