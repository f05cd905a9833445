package readers

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is an Arrow allocator that keeps the buffers freed to it and
// hands them out again, cleared, for allocations of the same size: reading
// a file batch after batch of the same length then allocates little, and
// the garbage collector runs less. It keeps at most maxKept buffers of
// each size and maxKeptBytes in all, so that buffers of sizes that do not
// come back cannot make memory grow. It is safe for concurrent use, as
// pqarrow may decode the columns of a batch in parallel.
type recycler struct {
	mu   sync.Mutex
	free map[int][][]byte
	kept int // bytes kept
}

// Bounds of what a recycler keeps.
const (
	maxKept      = 16
	maxKeptBytes = 32 << 20
)

func newRecycler() *recycler { return &recycler{free: map[int][][]byte{}} }

// Allocate returns a cleared buffer of size bytes.
func (r *recycler) Allocate(size int) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.allocate(size)
}

// allocate is Allocate with r.mu held.
func (r *recycler) allocate(size int) []byte {
	if list := r.free[size]; len(list) > 0 {
		b := list[len(list)-1]
		r.free[size] = list[:len(list)-1]
		r.kept -= size
		clear(b)
		return b
	}
	return memory.DefaultAllocator.Allocate(size)
}

// Reallocate returns a buffer of size bytes holding b's bytes.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	nb := r.allocate(size)
	copy(nb, b)
	r.keep(b)
	return nb
}

// Free keeps b for a later allocation of its size.
func (r *recycler) Free(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep(b)
}

// keep is Free with r.mu held.
func (r *recycler) keep(b []byte) {
	// Filed and counted by capacity: a buffer shrunk by Reallocate holds
	// more memory than its length says.
	b = b[:cap(b)]
	if len(b) == 0 || len(r.free[len(b)]) >= maxKept || r.kept+len(b) > maxKeptBytes {
		return
	}
	r.free[len(b)] = append(r.free[len(b)], b)
	r.kept += len(b)
}
