package evaluate

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// TestEvaluateConcurrently evaluates the rows of one binding on several
// goroutines at once, as the command's workers do, and checks that every
// row gets the cells it gets evaluated alone: the Release a binding reuses
// from row to row (Binding.releases) carries nothing from one row into
// another. The rows are the benchmark's sweep with error, partial,
// undefined and composed rows among them (two kinds of composed rows, whose
// stages are made on the pooled Release, and which take the mixture's
// columns; run it with -race).
func TestEvaluateConcurrently(t *testing.T) {
	names := append(slices.Clone(sweepColumns), "extra_stages")
	cols := make([]table.Column, len(names))
	for i, name := range names {
		cols[i] = table.Column{Name: name}
	}
	rows := sweepRows(400)
	for i := range rows {
		rows[i] = append(rows[i], table.Cell{}) // extra_stages: empty
	}
	odd := [][]string{
		{"bad", "pure", "x", "", "", "", "0.1"},                           // error: epsilon is not a number
		{"partial", "gaussian", "", "", "2", "", ""},                      // partial: no delta, no baseline
		{"one", "approx", "1", "1e-5", "", "", "1"},                       // the advantage is undefined at baseline 1
		{"mixed", "gaussian", "", "1e-5", "2", "", "0.1", "laplace(1)x2"}, // composed with other mechanisms
		{"mixed2", "pure", "0.5", "1e-5", "", "", "0.2", "laplace(2)x3"},  // and with others again
	}
	composed := 0
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
		st := bind().Evaluate(row, want[i])
		statuses[st]++
		if st != StatusError && !row[len(row)-1].IsEmpty() {
			composed++
		}
	}
	if statuses[StatusOK] == 0 || statuses[StatusPartial] == 0 || statuses[StatusError] == 0 || composed == 0 {
		t.Fatalf("statuses %v, %d composed rows: the rows should have each", statuses, composed)
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
			nums := make([]float64, b.Width()-HeadWidth)
			for n := range 3 * len(rows) {
				i := (n*(2*w+1) + w) % len(rows) // each worker in its own order
				if (n+w)%2 == 1 {
					// The same row as numbers, over the values of the
					// row before: each is the cell's number, NaN where
					// the cell is empty.
					b.EvaluateNumbers(rows[i], dst[:HeadWidth], nums)
					for k, v := range nums {
						if c := want[i][HeadWidth+k]; c.Kind == table.Number && math.Float64bits(v) != math.Float64bits(c.Num) || c.IsEmpty() != math.IsNaN(v) || !c.IsEmpty() && c.Kind != table.Number {
							errs <- fmt.Errorf("worker %d, row %d, number %d: %v, alone %#v", w, i, k, v, c)
							return
						}
					}
					if dst[0] != want[i][0] || dst[1] != want[i][1] || dst[2] != want[i][2] || dst[3] != want[i][3] {
						errs <- fmt.Errorf("worker %d, row %d, as numbers: status and message %q %q, alone %q %q", w, i, dst[0].String(), dst[1].String(), want[i][0].String(), want[i][1].String())
						return
					}
					continue
				}
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
