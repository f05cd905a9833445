package priors_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// openCSV opens CSV text held in memory as the tables of a file name.
func openCSV(t testing.TB, name, text string) []priors.Rows {
	t.Helper()
	tables, err := readers.OpenReader(name, bytes.NewReader([]byte(text)), int64(len(text)), readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, tb := range tables {
			tb.Close()
		}
	})
	return priorfiles.Rows(tables)
}

// buildCSV builds priors from CSV text.
func buildCSV(t testing.TB, name, text string, opts priors.BuildOptions) *priors.Result {
	t.Helper()
	res, err := priors.Build(openCSV(t, name, text), opts)
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
