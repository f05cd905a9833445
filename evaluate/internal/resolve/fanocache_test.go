package resolve

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/number"
	"github.com/riskbatch/riskbatch/table"
)

// The Fano bounds of rows with candidates are the same, bit for bit, with
// the run's cache as without it, and rows that repeat (ρ, μ, M) share one
// computation.
func TestFanoCacheSameBounds(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cached, plain := NewResolver(Config{}), NewResolver(Config{})
	plain.fanos = nil
	names := []string{"candidates", "sigma", "mu", "rho", "mechanism", "epsilon"}
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n}
	}
	fano := func(res *Resolver, cells []table.Cell) (a1, best float64, why string) {
		h, err := res.BindHeader(cols, number.DecimalPoint, "")
		if err != nil {
			t.Fatal(err)
		}
		var in Inputs
		if p := h.ReadCells(cells, &in); len(p) > 0 {
			t.Fatalf("%v: %v", cells, p)
		}
		var problems RowError
		r := h.Resolve(&in, &problems)
		if r == nil {
			t.Fatalf("%v: %v", cells, problems)
		}
		x, y, why := r.Fano()
		return x.Advantage, y.Success, why
	}
	for i := 0; i < 40; i++ {
		cells := make([]table.Cell, len(names))
		cells[0] = table.TextCell(strconv.Itoa(2 + rng.Intn(1000)))
		switch i % 4 {
		case 0:
			cells[1] = table.TextCell(strconv.FormatFloat(0.3+rng.Float64()*20, 'g', 3, 64))
		case 1:
			cells[2] = table.TextCell(strconv.FormatFloat(rng.Float64()*3, 'g', 3, 64))
		case 2:
			cells[3] = table.TextCell(strconv.FormatFloat(rng.Float64()*2, 'g', 3, 64))
		default:
			cells[4], cells[5] = table.TextCell("pure"), table.TextCell("1") // not cached
		}
		for range 2 { // the second time from the cache
			g1, g2, gw := fano(cached, cells)
			w1, w2, ww := fano(plain, cells)
			if math.Float64bits(g1) != math.Float64bits(w1) || math.Float64bits(g2) != math.Float64bits(w2) || gw != ww {
				t.Fatalf("%v: Fano bounds %v, %v (%q) cached, %v, %v (%q) without the cache", cells, g1, g2, gw, w1, w2, ww)
			}
		}
	}
	if n := cached.fanos.Len(); n != 30 {
		t.Errorf("the cache holds %d bounds, want 30 (one per distinct gaussian, gdp and zcdp row)", n)
	}
}
