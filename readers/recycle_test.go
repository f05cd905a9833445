package readers

import "testing"

// TestRecycler checks that a freed buffer comes back, cleared, for an
// allocation of its size only, and that the bytes kept are bounded.
func TestRecycler(t *testing.T) {
	r := newRecycler()
	a := r.Allocate(100)
	a[0], a[99] = 1, 2
	r.Free(a)
	if b := r.Allocate(64); &b[0] == &a[0] {
		t.Fatal("a buffer of 100 bytes came back for 64")
	}
	b := r.Allocate(100)
	if &b[0] != &a[0] || len(b) != 100 || b[0] != 0 || b[99] != 0 {
		t.Fatalf("got a new or uncleared buffer: len %d, bytes %d and %d", len(b), b[0], b[99])
	}
	c := r.Reallocate(50, b)
	if &c[0] != &b[0] || len(c) != 50 {
		t.Fatal("shrinking moved the buffer")
	}
	if d := r.Reallocate(80, c); len(d) != 80 || d[79] != 0 {
		t.Fatalf("growing within the capacity: len %d", len(d))
	}
	for range maxKeptBytes / (1 << 20) * 2 {
		r.Free(make([]byte, 1<<20+len(r.free)))
	}
	if r.kept > maxKeptBytes {
		t.Fatalf("%d bytes kept, more than %d", r.kept, maxKeptBytes)
	}
}
