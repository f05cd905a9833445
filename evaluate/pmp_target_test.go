package evaluate

import (
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// pmp_eps_for_target on random rows of the ε mechanisms, with and without
// δ and compositions: the ε it returns, typed back into the row, keeps
// the row's own pmp_mia_success (Lowy et al. 2024, Lemma 6 and its δ form)
// at or below (1 + A)/2; on rows of one composition of pure and approx,
// where the forward bound is the closed form of the inverse, ε + 1e-9·(1 + ε)
// does not, so the ε is the largest. 60 rows by default, 2,000 with the
// long tests.
func TestPMPEpsForTargetMeetsTarget(t *testing.T) {
	rng := newRand(21)
	mechs := []string{"pure", "approx", "laplace", "rr", "exponential"}
	for i, n := 0, testenv.Count(60, 2000); i < n; i++ {
		mech := mechs[rng.Intn(len(mechs))]
		delta := 0.0
		if mech != "pure" && mech != "exponential" && rng.Intn(3) > 0 {
			delta = math.Pow(10, -300*rng.Float64()*rng.Float64())
			if rng.Intn(2) == 0 {
				delta = math.Pow(10, -12+11*rng.Float64())
			}
		}
		c := 1
		if rng.Intn(3) == 0 {
			c = 1 + rng.Intn(50)
		}
		target := math.Pow(10, -6*rng.Float64())
		if target == 1 {
			target = 0.5
		}
		row := map[string]string{"mechanism": mech, "epsilon": "1", "target_advantage": ftoa(target), "baseline": "0.1"}
		if mech == "laplace" {
			delete(row, "epsilon")
			row["laplace_scale"] = "1"
		}
		if mech == "rr" {
			row["rr_categories"] = "3"
		}
		if delta > 0 {
			row["delta"] = ftoa(delta)
		}
		if c > 1 {
			row["compositions"] = itoa(c)
		}
		viewDelta := math.Min(1, delta)
		if mech == "approx" {
			viewDelta = math.Min(1, float64(c)*delta)
		}
		_, msg, out := evalRow(t, row)
		got := out["pmp_eps_for_target"]
		if target < viewDelta {
			// Where compositions·δ reaches 1 the row says its composed
			// guarantee is vacuous, which is why no ε meets the target.
			why := registry.WhyTargetTooLow
			if viewDelta >= 1 {
				why = "vacuous"
			}
			if got.Kind != table.Empty || !strings.Contains(msg, "pmp_eps_for_target") || !strings.Contains(msg, why) {
				t.Errorf("%v: target below δ = %v gives %v, message %q", row, viewDelta, got, msg)
			}
			continue
		}
		if got.Kind != table.Number {
			t.Errorf("%v: pmp_eps_for_target empty: %s", row, msg)
			continue
		}
		success := func(eps float64) float64 {
			set := map[string]string{"epsilon": ftoa(eps)}
			if mech == "laplace" {
				// ε itself (b = 1/ε): a scale typed as 1/ε reads back as
				// an ε an ulp away.
				set = map[string]string{"epsilon": ftoa(eps)}
				return number(t, retyped(row, set, "laplace_scale"), "pmp_mia_success")
			}
			return number(t, retyped(row, set), "pmp_mia_success")
		}
		p := (1 + target) / 2
		if got.Num > 0 {
			if s := success(got.Num); s > p {
				t.Errorf("%v: ε = %.17g gives pmp_mia_success %.17g, above the target's %.17g", row, got.Num, s, p)
			}
		}
		if c == 1 && (mech == "pure" || mech == "approx") {
			if up := got.Num + 1e-9*(1+got.Num); success(up) <= p {
				t.Errorf("%v: ε = %.17g is not the largest: %.17g also meets the target", row, got.Num, up)
			}
		}
	}
}

// A motivating example: an (ε, δ) row with δ = 0.01 and target_advantage 0.05
// had pmp_eps_for_target logit(0.525) = 0.10008 (pure DP), whose δ-form
// success (e^ε + δ)/(1 + e^ε) is 0.52998, above 0.525; the δ form gives
// ln((1 + 0.05 − 0.02)/(1 − 0.05)) = ln(1.03/0.95) = 0.080850. A target below
// δ is out of reach.
func TestPMPEpsForTargetDelta(t *testing.T) {
	row := map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "0.01", "target_advantage": "0.05", "baseline": "0.1"}
	if got, want := number(t, row, "pmp_eps_for_target"), math.Log(1.03/0.95); math.Abs(got-want) > 1e-12 {
		t.Errorf("pmp_eps_for_target = %.17g, want ln(1.03/0.95) = %.17g", got, want)
	}
	row["target_advantage"] = "0.005"
	st, msg, out := evalRow(t, row)
	want := "pmp_eps_for_target empty: " + registry.WhyTargetTooLow
	if out["pmp_eps_for_target"].Kind != table.Empty || !strings.Contains(msg, "pmp_eps_for_target") || !strings.Contains(msg, registry.WhyTargetTooLow) || st != StatusOK {
		t.Errorf("target below δ: %s %v, message %q, want it to say %q", st, out["pmp_eps_for_target"], msg, want)
	}
}
