package evaluate

import (
	"fmt"
	"sync"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// TestEvaluateConcurrently evaluates the rows of one binding on several
// goroutines at once, as the command's workers do, and checks that every
// row gets the cells it gets evaluated alone: the Release a binding reuses
// from row to row (Binding.releases) carries nothing from one row into
// another. The rows are the benchmark's sweep with error, partial and
// undefined rows among them (run it with -race).
func TestEvaluateConcurrently(t *testing.T) {
	cols := make([]table.Column, len(sweepColumns))
	for i, name := range sweepColumns {
		cols[i] = table.Column{Name: name}
	}
	rows := sweepRows(400)
	odd := [][]string{
		{"bad", "pure", "x", "", "", "", "0.1"},      // error: epsilon is not a number
		{"partial", "gaussian", "", "", "2", "", ""}, // partial: no delta, no baseline
		{"one", "approx", "1", "1e-5", "", "", "1"},  // the advantage is undefined at baseline 1
	}
	for i := range rows {
		if i%7 == 3 {
			o := odd[(i/7)%len(odd)]
			for j, v := range o {
				rows[i][j] = table.TextCell(v)
			}
		}
	}
	e := New()
	bind := func() *Binding {
		b, err := e.Bind(cols)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Each row alone: a binding of its own, whose first row it is.
	want := make([][]table.Cell, len(rows))
	statuses := map[Status]int{}
	for i, row := range rows {
		want[i] = make([]table.Cell, e.Width())
		statuses[bind().Evaluate(row, want[i])]++
	}
	if statuses[StatusOK] == 0 || statuses[StatusPartial] == 0 || statuses[StatusError] == 0 {
		t.Fatalf("statuses %v: the rows should have each", statuses)
	}
	b := bind()
	const workers = 4
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dst := make([]table.Cell, b.Width())
			for n := range 3 * len(rows) {
				i := (n*(2*w+1) + w) % len(rows) // each worker in its own order
				b.Evaluate(rows[i], dst)
				for k := range dst {
					if dst[k] != want[i][k] {
						errs <- fmt.Errorf("worker %d, row %d, cell %d: %#v, alone %#v", w, i, k, dst[k], want[i][k])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
