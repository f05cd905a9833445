package evaluate

import (
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// rr_categories is at most 2^53, so that k is an exact int: int(1e300) is
// negative on amd64, which the curve read as one category, with
// fdp_advantage 0 (no risk at all). A cell beyond the cap is an error
// naming the column; within it the row is evaluated in closed form, with
// no allocation of the order of k.
func TestRRCategoriesCap(t *testing.T) {
	// η = (e^ε − 1)/(e^ε + k − 1) (Kairouz, Oh & Viswanath 2016), at
	// ε = 1, k = 1e15.
	k := 1e15
	want := math.Expm1(1) / (math.E + k - 1)
	st, msg, out := evalRow(t, map[string]string{"mechanism": "rr", "epsilon": "1", "rr_categories": "1e15", "baseline": "0.1"})
	got := out["fdp_worst_advantage"]
	if st != StatusOK || got.Kind != table.Number || got.Num < want || got.Num > want*(1+1e-12) {
		t.Errorf("k = 1e15: %s %q, fdp_worst_advantage %v; want %.17g", st, msg, got, want)
	}
	for _, row := range []map[string]string{
		{"mechanism": "rr", "epsilon": "1", "rr_categories": "1e300", "baseline": "0.1"},
		{"mechanism": "rr", "epsilon": "1", "rr_categories": "9007199254740994", "baseline": "0.1", "compositions": "2"},
	} {
		st, msg, _ := evalRow(t, row)
		if st != StatusError || !strings.HasPrefix(msg, "rr_categories: ") || !strings.Contains(msg, "is more than 2^53, the most categories riskbatch evaluates; expected a whole number from 2 to 2^53") {
			t.Errorf("%v: %s %q; want an error naming rr_categories and its cap", row, st, msg)
		}
	}
	st, msg, _ = evalRow(t, map[string]string{"mechanism": "pure", "epsilon": "1", "baseline": "0.1", "extra_stages": "rr(1, 1e17)"})
	if want := `extra_stages: stage 1 ("rr(1, 1e17)"): categories 1e+17 is more than 2^53, the most categories riskbatch evaluates; expected a whole number from 2 to 2^53`; st != StatusError || msg != want {
		t.Errorf("rr(1, 1e17) stage: %s %q; want %q", st, msg, want)
	}
}
