package evaluate

import (
	"math"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// A dpsgd row fills the PLD columns, the RDP comparison columns and the
// calibration columns, and they agree with the accountants called
// directly. A short run accounts 50 steps, a long one 2000.
func TestDPSGDRowColumns(t *testing.T) {
	t.Parallel()
	steps := testenv.Count(50, 2000)
	row := map[string]string{
		"noise_multiplier": "1.1", "sample_rate": "0.01", "steps": strconv.Itoa(steps),
		"extra_stages": "8, 1, 2", "delta": "1e-5", "baseline": "0.1", "target_advantage": "0.2",
	}
	st, msg, out := evalRow(t, row)
	if st != StatusOK {
		t.Fatalf("status %s: %s", st, msg)
	}
	p, err := pld.NewDPSGD([]pld.Stage{{NoiseMultiplier: 1.1, SampleRate: 0.01, Steps: steps}, {NoiseMultiplier: 8, SampleRate: 1, Steps: 2}}, pld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out["eps_at_delta"].Num, p.Epsilon(1e-5); got != want {
		t.Errorf("eps_at_delta = %v, accountant %v", got, want)
	}
	if !(out["eps_at_delta_rdp"].Num > out["eps_at_delta"].Num) {
		t.Errorf("eps_at_delta_rdp %v not above eps_at_delta %v", out["eps_at_delta_rdp"].Num, out["eps_at_delta"].Num)
	}
	if !(out["fdp_advantage_rdp"].Num >= out["fdp_advantage"].Num) || !(out["fdp_worst_advantage_rdp"].Num >= out["fdp_worst_advantage"].Num) {
		t.Errorf("RDP advantages (%v, %v) below PLD ones (%v, %v)", out["fdp_advantage_rdp"].Num, out["fdp_worst_advantage_rdp"].Num, out["fdp_advantage"].Num, out["fdp_worst_advantage"].Num)
	}
	if got, want := out["fdp_advantage"].Num, p.Advantage(0.1); math.Abs(got-want) > 1e-12 {
		t.Errorf("fdp_advantage = %v, accountant %v", got, want)
	}
	e, err := p.Errors()
	if err != nil {
		t.Fatal(err)
	}
	if got := out["pld_error"].Num; got < e.Delta() || got > e.Delta()*(1+1e-12) {
		t.Errorf("pld_error = %v, accountant %v", got, e.Delta())
	}
	if out["pld_grid_step"].Num != p.GridStep() {
		t.Errorf("pld_grid_step = %v, accountant %v", out["pld_grid_step"].Num, p.GridStep())
	}
	tight, loose, red := out["fdp_noise_for_target"], out["fdp_noise_for_target_rdp"], out["fdp_noise_reduction"]
	if tight.Kind != table.Number || loose.Kind != table.Number || red.Kind != table.Number {
		t.Fatalf("calibration columns empty: %v %v %v (%s)", tight, loose, red, msg)
	}
	if !(tight.Num < loose.Num) || math.Abs(red.Num-(1-tight.Num/loose.Num)) > 1e-12 {
		t.Errorf("noise for target: PLD %v, RDP %v, reduction %v", tight.Num, loose.Num, red.Num)
	}
}
