package evaluate

import (
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// CacheBytes is 0 until a DP-SGD row builds an accountant, then counts
// its points and the powers its chains keep.
func TestCacheBytes(t *testing.T) {
	names := []string{"mechanism", "epsilon", "noise_multiplier", "sample_rate", "steps", "delta"}
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n}
	}
	e, err := New().Select("fdp_worst_advantage")
	if err != nil {
		t.Fatal(err)
	}
	bind, err := e.Bind(cols)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]table.Cell, e.Width())
	text := func(s ...string) []table.Cell {
		out := make([]table.Cell, len(s))
		for i, v := range s {
			out[i] = table.TextCell(v)
		}
		return out
	}
	bind.Evaluate(text("pure", "1", "", "", "", ""), dst)
	if b := e.CacheBytes(); b != 0 {
		t.Errorf("a pure row: the caches hold %d bytes", b)
	}
	if st := bind.Evaluate(text("dpsgd", "", "1", "0.01", "1000", "1e-5"), dst); st == StatusError {
		t.Fatalf("the dpsgd row: %v", dst[1])
	}
	if b := e.CacheBytes(); b < 8*10000 {
		t.Errorf("after a dpsgd row of 1000 steps the caches hold %d bytes", b)
	}
}
