package evaluate

import (
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// A dpsgd row with an approx(ε, δ > 0) extra stage has no RDP curve (an
// (ε, δ) guarantee with δ > 0 has none): its RDP columns are empty with a
// message naming the stage, where eps_at_delta_rdp reported a numerical
// failure and fdp_advantage_rdp, fdp_worst_advantage_rdp and rero_rdp the
// vacuous values of an infinite curve. A pure extra stage has an RDP
// curve, and the row keeps its RDP columns.
func TestDPSGDApproxStageHasNoRDP(t *testing.T) {
	row := map[string]string{"mechanism": "dpsgd", "noise_multiplier": "1", "sample_rate": "0.01", "steps": "100", "delta": "1e-5", "baseline": "0.1"}
	st, msg, out := evalRow(t, merged(row, map[string]string{"extra_stages": "approx(1, 1e-6)"}))
	want := "rero_rdp and 3 more empty: the composed release has no RDP curve: extra stage 1, approx(1, 1e-06), is an (ε, δ) guarantee with δ > 0, which has none"
	if st != StatusOK || msg != want {
		t.Errorf("approx stage: %s %q\nwant ok, %q", st, msg, want)
	}
	for _, c := range []string{"eps_at_delta_rdp", "rero_rdp", "fdp_advantage_rdp", "fdp_worst_advantage_rdp"} {
		if out[c].Kind != table.Empty {
			t.Errorf("approx stage: %s = %v, want empty", c, out[c])
		}
	}
	if out["eps_at_delta"].Kind != table.Number {
		t.Errorf("approx stage: eps_at_delta (PLD) = %v, want a number", out["eps_at_delta"])
	}
	_, msg, out = evalRow(t, merged(row, map[string]string{"extra_stages": "pure(1)"}))
	if out["eps_at_delta_rdp"].Kind != table.Number || msg != "" {
		t.Errorf("pure stage: eps_at_delta_rdp = %v, message %q; want a number and none", out["eps_at_delta_rdp"], msg)
	}
}
