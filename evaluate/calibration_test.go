package evaluate

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// The calibration columns return what the analyst would type into the row,
// per step of a composed row: fdp_mu_for_target typed back as the row's mu,
// and fdp_sigma_for_target as its sigma, keep the row's own advantage
// bound (fdp_advantage at the baseline, fdp_worst_advantage without) at or
// below target_advantage, and 1.000001 times the μ (0.999999 times the σ)
// does not, on random rows of 1 to 500 compositions.
func TestCalibrationPerStep(t *testing.T) {
	rng := newRand(2104)
	for i := 0; i < 40; i++ {
		c := []int{1, 2, 9, 500}[rng.Intn(4)]
		target := math.Pow(10, -4*rng.Float64())
		sens := math.Pow(10, -1+2*rng.Float64())
		row := map[string]string{"sigma": "1", "sensitivity": ftoa(sens), "target_advantage": ftoa(target), "compositions": itoa(c)}
		col := "fdp_worst_advantage"
		if rng.Intn(2) == 0 {
			row["baseline"], col = ftoa(math.Pow(10, -6*rng.Float64())), "fdp_advantage"
		}
		advAt := func(key string, v float64) float64 {
			drop := []string{"sigma"}
			if key == "mu" {
				drop = append(drop, "sensitivity")
			}
			return number(t, retyped(row, map[string]string{key: ftoa(v)}, drop...), col)
		}
		_, msg, out := evalRow(t, row)
		mu, sigma := out["fdp_mu_for_target"], out["fdp_sigma_for_target"]
		if mu.Kind != table.Number || sigma.Kind != table.Number {
			t.Fatalf("%v: fdp_mu_for_target %v, fdp_sigma_for_target %v: %s", row, mu, sigma, msg)
		}
		if a := advAt("mu", mu.Num); a > target {
			t.Errorf("%v: μ = %.17g per step gives %s %.17g > target", row, mu.Num, col, a)
		}
		if a := advAt("mu", mu.Num*1.000001); a <= target {
			t.Errorf("%v: μ = %.17g is not the largest per-step μ (%s %.17g)", row, mu.Num, col, a)
		}
		if a := advAt("sigma", sigma.Num); a > target {
			t.Errorf("%v: σ = %.17g gives %s %.17g > target", row, sigma.Num, col, a)
		}
		if a := advAt("sigma", sigma.Num*0.999999); a <= target {
			t.Errorf("%v: σ = %.17g is not the smallest (%s %.17g)", row, sigma.Num, col, a)
		}
	}
	// A motivating example: a gdp row of μ = 0.5 per step over 4 steps,
	// target 0.2 in the worst case: the total μ is 2Φ⁻¹(0.6) = 0.50669,
	// and the per-step μ half of it, 0.25335.
	if got := number(t, map[string]string{"mu": "0.5", "target_advantage": "0.2", "compositions": "4"}, "fdp_mu_for_target"); math.Abs(got-0.2533471031357997) > 1e-12 {
		t.Errorf("fdp_mu_for_target = %.17g, want 2Φ⁻¹(0.6)/2 = 0.2533471031357997", got)
	}
}
