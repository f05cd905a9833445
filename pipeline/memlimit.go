package pipeline

import (
	"runtime"
	"sync"
)

// The soft memory limit of a stream that writes runs of rows (Parquet).

// parquetMemoryLimit is the soft memory limit of a run that writes
// Parquet (unless GOMEMLIMIT sets one). Such a run holds the batches in
// flight and the row group being written: 64 Ki rows of every bound
// column are about 60 MB of float64s before they are encoded. Go collects
// garbage once the heap has grown by as much as it held after the last
// collection, so the heap, made mostly of row-group buffers and batches
// let go of, peaked at over 200 MB; with the limit the collector runs
// before it passes the limit. Too close to what a row group holds, it
// runs without end and the runtime returns memory to the system only to
// fault it back in: 10⁶ rows CSV → Parquet, every column, took 4.0 s
// (7.4 s of CPU, 1.6 s of it in the kernel, 470,000 page faults) at 80
// MiB and peaked at 153 MB; at 120 MiB 2.9 s (5.5 s of CPU) and 161 MB;
// at 160 MiB 2.5–2.7 s (4.6–4.9 s of CPU) and 200 MB; at 200 MiB no
// faster (2.6–2.8 s) and 225 MB. The limit is set above what the process
// holds when the stream starts (prior tables, files named in cells,
// caches), so that a run holding much already does not collect garbage
// without end; a run that needs more still gets it: the limit is soft.
const parquetMemoryLimit = 160 << 20

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
