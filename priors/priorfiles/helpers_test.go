package priorfiles_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// penguinsPath is the sample data set of samples/PENGUINS.md.
const penguinsPath = "../../samples/penguins.csv"

// buildCSV builds priors from CSV text held in memory as the file name.
func buildCSV(t testing.TB, name, text string, opts priors.BuildOptions) *priors.Result {
	t.Helper()
	tables, err := readers.OpenReader(name, bytes.NewReader([]byte(text)), int64(len(text)), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, tb := range tables {
			tb.Close()
		}
	}()
	res, err := priors.Build(priorfiles.Rows(tables), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// entry returns the entry of a key or fails.
func entry(t testing.TB, r *priors.Result, key string) *priors.Entry {
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

// rowPs returns the prior-table rows of an entry as row → p, and the
// rows in order.
func rowPs(e *priors.Entry) (map[int]float64, []int) {
	ps := map[int]float64{}
	var rows []int
	for rp := range e.PriorRows() {
		ps[rp.Row] = rp.P
		rows = append(rows, rp.Row)
	}
	return ps, rows
}

// near reports whether a and b agree to a relative 1e-12 (absolute below
// 1).
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
