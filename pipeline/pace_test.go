package pipeline

import (
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/table"
)

// Batches hold about batchTime of evaluation: firstBatchRows before any is
// measured, then as many rows as that time allows, within minBatchRows and
// the most a batch may hold.
func TestPaceSizesBatches(t *testing.T) {
	var p pace
	if got := p.limit(512); got != firstBatchRows {
		t.Errorf("before any batch: %d rows, want %d", got, firstBatchRows)
	}
	p.record(100, 100*time.Microsecond) // 1 µs a row: closed-form rows
	if got := p.limit(512); got != 512 {
		t.Errorf("1 µs a row: %d rows, want 512", got)
	}
	p = pace{}
	p.record(10, 10*time.Millisecond) // 1 ms a row: 5 in 5 ms
	if got := p.limit(512); got != 5 {
		t.Errorf("1 ms a row: %d rows, want 5", got)
	}
	p.record(1, time.Second) // the average: (3·1 ms + 1 s)/4 = 250.75 ms
	if got := p.nsPerRow.Load(); got != 250_750_000 {
		t.Errorf("average %d ns, want 250750000", got)
	}
	if got := p.limit(512); got != minBatchRows {
		t.Errorf("250 ms a row: %d rows, want %d", got, minBatchRows)
	}
	if got := p.limit(2); got != 2 {
		t.Errorf("a batch of at most 2 rows: %d", got)
	}
}

// A written batch's cells are reused by a later batch that fits in them,
// with whether their rows' tails are empty; a larger one gets a new
// buffer, whose tails are empty.
func TestFlowReusesCells(t *testing.T) {
	f := &flow{spare: make(chan slab, 2)}
	s := f.cells(10)
	if !s.tailsEmpty {
		t.Errorf("a new buffer's tails are not empty")
	}
	b := &batch{cells: s.cells}
	b.cells[3] = table.TextCell("x")
	first := &b.cells[0]
	f.recycle(b)
	if b.cells != nil || b.out != nil {
		t.Errorf("the recycled batch still holds its cells")
	}
	c := f.cells(8)
	if len(c.cells) != 8 || &c.cells[0] != first {
		t.Errorf("a batch of 8 cells did not reuse the spare buffer of 10")
	}
	if c.tailsEmpty {
		t.Errorf("a buffer recycled with tailsEmpty false came back with it true")
	}
	f.recycle(&batch{cells: c.cells, tailsEmpty: true})
	if d := f.cells(8); !d.tailsEmpty || &d.cells[0] != first {
		t.Errorf("a buffer recycled with tailsEmpty true came back with it false, or was not reused")
	} else {
		f.recycle(&batch{cells: d.cells})
	}
	if d := f.cells(20); len(d.cells) != 20 || &d.cells[0] == first || !d.tailsEmpty {
		t.Errorf("a batch of 20 cells got the spare buffer of 10, or a new one with its tails not empty")
	}
}

// Every worker evaluates every row of a batch once; worker 0 in input
// order. On a batch of 32 rows cycling through 16 costly values (the
// DP-SGD sweep of benchinput), two workers start at the two ends of the
// cycle and ask for no value at the same time in their first 16 rows
// (8 each before they meet).
func TestRowOrderSpreadsCycles(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 4} {
		for _, n := range []int{1, 2, 5, 32, 512} {
			for k := range workers {
				seen := make([]bool, n)
				for j := range n {
					i := rowAt(j, n, k, workers)
					if i < 0 || i >= n || seen[i] {
						t.Fatalf("worker %d of %d, %d rows: row %d twice or outside", k, workers, n, i)
					}
					seen[i] = true
					if k == 0 && i != j {
						t.Fatalf("worker 0 evaluates row %d %d-th", i, j)
					}
				}
			}
		}
	}
	var first [2][]int
	for k := range first {
		for j := range 8 {
			first[k] = append(first[k], rowAt(j, 32, k, 2)%16)
		}
	}
	want := [2][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {15, 14, 13, 12, 11, 10, 9, 8}}
	for k := range first {
		for j := range want[k] {
			if first[k][j] != want[k][j] {
				t.Fatalf("worker %d's first values %v, want %v", k, first[k], want[k])
			}
		}
	}
}
