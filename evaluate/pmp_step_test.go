package evaluate

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// On a composed row pmp_eps_for_target is the largest per-step ε whose
// composition meets the target, not ε_total/c (basic composition): 50
// steps of (ε, 1e-7) at target 0.9 reported at δ_total = 5e-6 have
// ε_total = ln((1 + 0.9 − 2δ)/0.1) ≈ 2.944, so basic composition gives
// 0.0589 per step, while the optimal composition theorem (Kairouz et al.
// Thm 3.3) allows 0.0701: its profile, written out in the test
// (kovDeltaAt), is at most δ_total at ε_total. The row retyped with the
// result meets the target, and retyped with a hair more misses it. The same for 30 pure
// steps reported at δ = 1e-6 (rows of laplace and rr steps read the pure
// theorem, which their exact compositions never exceed).
func TestPMPEpsForTargetLargestStep(t *testing.T) {
	for _, c := range []struct {
		row         map[string]string
		step, total float64 // δ of each step, and at which the release reports
		k           int
		basic       float64 // ε_total/c, the value before
	}{
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-7", "compositions": "50"}, 1e-7, 50 * 1e-7, 50, 0.058886},
		{map[string]string{"mechanism": "pure", "epsilon": "1", "delta": "0", "compositions": "30", "report_delta": "1e-6"}, 0, 1e-6, 30, 0.098149},
		{map[string]string{"mechanism": "laplace", "laplace_scale": "1", "delta": "1e-6", "compositions": "30"}, 0, 1e-6, 30, 0.098149},
	} {
		row := merged(c.row, map[string]string{"target_advantage": "0.9", "baseline": "0.1"})
		got := number(t, row, "pmp_eps_for_target")
		if got < 1.15*c.basic {
			t.Errorf("%v: pmp_eps_for_target = %.17g, not much above ε_total/c ≈ %g", c.row, got, c.basic)
		}
		epsTotal := math.Log((1 + 0.9 - 2*c.total) / (1 - 0.9))
		if d := kovDeltaAt(got, c.step, c.k, epsTotal); d > c.total*(1+1e-9) {
			t.Errorf("%v: %d steps of ε = %.17g have δ(%.17g) = %.17g > %g by Kairouz et al. Thm 3.3", c.row, c.k, got, epsTotal, d, c.total)
		}
		p := (1 + 0.9) / 2
		retype := func(eps float64) map[string]string {
			if c.row["mechanism"] == "laplace" {
				return retyped(row, map[string]string{"epsilon": ftoa(eps)}, "laplace_scale")
			}
			return retyped(row, map[string]string{"epsilon": ftoa(eps)})
		}
		if s := number(t, retype(got), "pmp_mia_success"); s > p {
			t.Errorf("%v: ε = %.17g per step gives pmp_mia_success %.17g, above %.17g", c.row, got, s, p)
		}
		if c.row["mechanism"] == "laplace" {
			continue // its exact composition is tighter than the theorem the value is the largest for
		}
		if s := number(t, retype(got*(1+1e-9)), "pmp_mia_success"); s <= p {
			t.Errorf("%v: ε = %.17g is not the largest: %.17g per step gives %.17g ≤ %.17g", c.row, got, got*(1+1e-9), s, p)
		}
	}
}

// A row of an ε mechanism with extra_stages has no ε of its own that meets
// the target: it returned the ε of the whole composition (ln((1.9 − 2δ)/0.1) ≈
// 2.944 for target 0.9), which typed into the row would be composed with
// the extra stages again (ε 11, pmp_mia_success 0.99998).
func TestPMPEpsForTargetMixedRow(t *testing.T) {
	row := map[string]string{"mechanism": "pure", "epsilon": "1", "delta": "1e-6", "extra_stages": "laplace(1)x10", "target_advantage": "0.9", "baseline": "0.1"}
	_, msg, out := evalRow(t, row)
	want := "pmp_eps_for_target empty: the row's ε is composed with its extra_stages, so no ε of its own meets the target alone"
	if out["pmp_eps_for_target"].Kind != table.Empty || msg != want {
		t.Errorf("pmp_eps_for_target = %v, message %q; want empty and %q", out["pmp_eps_for_target"], msg, want)
	}
}

// A target of 0 needs ε = 0 at δ = 0, per step too (it looped for ever,
// doubling an upper end of 0).
func TestPMPEpsForTargetZero(t *testing.T) {
	row := map[string]string{"mechanism": "pure", "epsilon": "1", "compositions": "40", "target_advantage": "0", "baseline": "0.1"}
	if got := number(t, row, "pmp_eps_for_target"); got != 0 {
		t.Errorf("target 0, 40 pure steps: pmp_eps_for_target = %v, want 0", got)
	}
}
