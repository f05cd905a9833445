package evaluate

import (
	"math"
	"strconv"
	"testing"
)

// The Fano columns of rows with candidates are the same, bit for bit, with
// the run's cache as without it, and rows that repeat (ρ, μ, M) share one
// computation.
func TestFanoCacheSameBounds(t *testing.T) {
	rng := newRand(7)
	cached, plain := New(), New()
	plain.rows.fanos = nil
	fano := []string{"fano_adv_alpha1", "fano_adv_opt", "fano_success_opt"}
	for i := 0; i < 40; i++ {
		row := map[string]string{"candidates": strconv.Itoa(2 + rng.Intn(1000))}
		switch i % 4 {
		case 0:
			row["sigma"] = strconv.FormatFloat(0.3+rng.Float64()*20, 'g', 3, 64)
		case 1:
			row["mu"] = strconv.FormatFloat(rng.Float64()*3, 'g', 3, 64)
		case 2:
			row["rho"] = strconv.FormatFloat(rng.Float64()*2, 'g', 3, 64)
		default:
			row["mechanism"], row["epsilon"] = "pure", "1" // not cached
		}
		for range 2 { // the second time from the cache
			_, got := evalWith(t, cached, row)
			_, want := evalWith(t, plain, row)
			for _, c := range fano {
				if g, w := got[c], want[c]; g.Kind != w.Kind || math.Float64bits(g.Num) != math.Float64bits(w.Num) {
					t.Fatalf("%v: %s = %v cached, %v without the cache", row, c, g, w)
				}
			}
		}
	}
	if n := cached.rows.fanos.Len(); n != 30 {
		t.Errorf("the cache holds %d bounds, want 30 (one per distinct gaussian, gdp and zcdp row)", n)
	}
}
