// Package priorstest holds what the tests of package priors and of the
// packages beside it share: looking up entries, comparing probabilities,
// and a brute-force best window. Building priors from CSV text is in
// package csvtest, whose readers (and Arrow and excelize with them) the
// tests of package priors do not link.
package priorstest

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/internal/memtable"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
)

// OpenCSV holds CSV text in memory as the one table of a file name, of
// text cells as package readers reads a CSV file (memtable.CSV); a build
// reads it row by row.
func OpenCSV(t testing.TB, name, text string) []priors.Rows {
	t.Helper()
	m, err := memtable.CSV(name, text)
	if err != nil {
		t.Fatal(err)
	}
	return []priors.Rows{m}
}

// BuildCSV builds priors from CSV text held in memory as the file name
// (OpenCSV).
func BuildCSV(t testing.TB, name, text string, opts build.Options) *build.Result {
	t.Helper()
	return Build(t, OpenCSV(t, name, text), opts)
}

// Build is build.Priors of tables, failing the test on an error.
func Build(t testing.TB, tables []priors.Rows, opts build.Options) *build.Result {
	t.Helper()
	res, err := build.Priors(tables, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Entry returns the entry of a key or fails.
func Entry(t testing.TB, r *build.Result, key string) *build.Entry {
	t.Helper()
	e := r.Entry(key)
	if e == nil {
		var keys []string
		for _, e := range r.Entries {
			keys = append(keys, e.Key)
		}
		t.Fatalf("no entry %q; the keys are %q", key, keys)
	}
	return e
}

// RowPs returns the prior-table rows of an entry as row → p, and the
// rows in order.
func RowPs(e *build.Entry) (map[int]float64, []int) {
	ps := map[int]float64{}
	var rows []int
	for rp := range e.PriorRows() {
		ps[rp.Row] = rp.P
		rows = append(rows, rp.Row)
	}
	return ps, rows
}

// Near reports whether a and b agree to a relative 1e-12 (absolute below
// 1).
func Near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// BruteWindow tries every guess z among the values ± E and the midpoints
// of pairs of values (an optimal window has a value at an end, so its
// guess is one of these), summing the mass within E of z directly.
func BruteWindow(xs, ws []float64, e float64) float64 {
	var cands []float64
	for _, x := range xs {
		cands = append(cands, x-e, x, x+e)
		for _, y := range xs {
			cands = append(cands, (x+y)/2)
		}
	}
	total, best := 0.0, 0.0
	for _, w := range ws {
		total += w
	}
	for _, z := range cands {
		m := 0.0
		for i, x := range xs {
			if math.Abs(x-z) <= e*(1+1e-12)+1e-12 {
				m += ws[i]
			}
		}
		best = math.Max(best, m)
	}
	return best / total
}
