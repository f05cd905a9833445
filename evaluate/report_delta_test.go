package evaluate

import (
	"math"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// A report_delta equal to the δ a row reports at by default (delta; c·δ
// for approx rows and gaussian rows stated by ε and δ; 0 for a pure row
// without delta) changes no output, bit for bit, in every family.
func TestReportDeltaDefaultIsIdentity(t *testing.T) {
	base := map[string]string{"baseline": "0.1", "target_advantage": "0.3", "targets": "10", "successes": "3"}
	for _, c := range []struct {
		row      map[string]string
		default_ string
	}{
		{map[string]string{"mechanism": "pure", "epsilon": "1"}, "0"},
		{map[string]string{"mechanism": "pure", "epsilon": "1", "compositions": "5"}, "0"},
		{map[string]string{"mechanism": "exponential", "epsilon": "0.5"}, "0"},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-5"}, "1e-5"},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-5", "compositions": "10"}, ftoa(10 * 1e-5)},
		{map[string]string{"mechanism": "gaussian", "sigma": "3", "delta": "1e-5", "compositions": "10"}, "1e-5"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "1", "delta": "1e-5", "compositions": "4"}, ftoa(4 * 1e-5)},
		{map[string]string{"mechanism": "gdp", "mu": "0.5", "delta": "1e-6"}, "1e-6"},
		{map[string]string{"mechanism": "laplace", "laplace_scale": "2", "delta": "1e-6", "compositions": "3"}, "1e-6"},
		{map[string]string{"mechanism": "laplace", "epsilon": "0.5"}, "0"},
		{map[string]string{"mechanism": "rr", "epsilon": "1", "rr_categories": "4", "delta": "1e-6"}, "1e-6"},
		{map[string]string{"mechanism": "zcdp", "rho": "0.1", "delta": "1e-5"}, "1e-5"},
		{map[string]string{"mechanism": "rdp", "rdp_order": "8", "rdp_epsilon": "0.5", "delta": "1e-5"}, "1e-5"},
		{map[string]string{"mechanism": "marginals", "sigma": "20", "marginal_k": "2", "columns_total": "4", "columns_unknown": "1", "delta": "1e-5"}, "1e-5"},
		{map[string]string{"mechanism": "dpsgd", "noise_multiplier": "1", "sample_rate": "1", "steps": "3", "delta": "1e-5"}, "1e-5"},
		{map[string]string{"mechanism": "pure", "epsilon": "0.2", "extra_stages": "laplace(5)x3", "delta": "1e-6"}, "1e-6"},
		{map[string]string{"mechanism": "gaussian", "epsilon": "1", "delta": "1e-5", "compositions": "4", "extra_stages": "laplace(1000)"}, ftoa(4 * 1e-5)},
	} {
		row := merged(base, c.row)
		sameOutputs(t, c.row["mechanism"]+" "+c.default_, merged(row, map[string]string{"report_delta": c.default_}), row)
	}
}

// kovDeltaAt is the privacy profile of k compositions of (ε, δ)-DP
// mechanisms, written out from Kairouz, Oh & Viswanath 2015, Thm 3.3: with
// probability 1 − (1 − δ)^k some step's loss is unbounded; otherwise l of
// the k steps go the unlikely way (l ~ Binomial(k, 1/(1 + e^ε))) and the
// loss is (k − 2l)ε, so
//
//	δ(x) = 1 − (1 − δ)^k + (1 − δ)^k·Σ_{l: (k−2l)ε > x} C(k, l)·p^{k−l}·q^l·(1 − e^{x − (k−2l)ε}),
//
// p = e^ε/(1 + e^ε), q = 1/(1 + e^ε). Plain float64 sums: k is small.
func kovDeltaAt(eps, delta float64, k int, x float64) float64 {
	p, q := math.Exp(eps)/(1+math.Exp(eps)), 1/(1+math.Exp(eps))
	var sum float64
	binom := 1.0
	for l := 0; l <= k; l++ {
		if loss := float64(k-2*l) * eps; loss > x {
			sum += binom * math.Pow(p, float64(k-l)) * math.Pow(q, float64(l)) * -math.Expm1(x-loss)
		}
		binom = binom * float64(k-l) / float64(l+1)
	}
	lnKeep := float64(k) * math.Log1p(-delta) // ln (1 − δ)^k, and 1 − (1 − δ)^k without cancellation
	return -math.Expm1(lnKeep) + math.Exp(lnKeep)*sum
}

// A composed approx row reports at a report_delta above c·δ an ε no larger
// than at c·δ, and still a valid one: the optimal composition theorem's
// profile, written out independently (kovDeltaAt), is at most
// report_delta there, and above it a hair lower (the ε is tight).
func TestReportDeltaComposedApprox(t *testing.T) {
	const eps, delta, k = 0.5, 1e-6, 10
	row := map[string]string{"mechanism": "approx", "epsilon": ftoa(eps), "delta": ftoa(delta), "compositions": itoa(k), "baseline": "0.1"}
	def := number(t, row, "eps_at_delta")
	for _, rd := range []float64{2e-5, 1e-4, 1e-3, 0.05, 0.3} {
		got := number(t, merged(row, map[string]string{"report_delta": ftoa(rd)}), "eps_at_delta")
		if got > def {
			t.Errorf("report_delta %g: ε = %.17g, above %.17g at c·δ", rd, got, def)
		}
		if d := kovDeltaAt(eps, delta, k, got); d > rd*(1+1e-12) {
			t.Errorf("report_delta %g: ε = %.17g has δ(ε) = %.17g by Kairouz et al. Thm 3.3: not a valid (ε, δ) pair", rd, got, d)
		}
		if d := kovDeltaAt(eps, delta, k, got-1e-9*(1+got)); got > 0 && d <= rd {
			t.Errorf("report_delta %g: ε = %.17g is not tight: δ(ε − 1e-9) = %.17g ≤ %g", rd, got, d, rd)
		}
	}
}

// A report_delta that certifies no ε leaves the ε columns empty and says
// why: below the δ an approx row's own steps leave unbounded, and 0 for a
// mechanism that is not pure.
func TestReportDeltaNoEpsilon(t *testing.T) {
	for _, c := range []struct {
		row  map[string]string
		want string
	}{
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-5", "compositions": "10", "report_delta": "1e-6"},
			"report_delta = 1e-06 is below 1 − (1 − δ)^compositions = 9.999550012e-05"},
		{map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "1e-5", "report_delta": "1e-6"},
			"report_delta = 1e-06 is below 1 − (1 − δ)^compositions = 1e-05"},
		{map[string]string{"mechanism": "gaussian", "sigma": "3", "delta": "1e-5", "report_delta": "0"},
			"set report_delta above 0 (e.g. 1e-5) to get eps_at_delta"},
	} {
		_, msg, out := evalRow(t, merged(c.row, map[string]string{"baseline": "0.1"}))
		if out["eps_at_delta"].Kind != table.Empty || !strings.Contains(msg, c.want) {
			t.Errorf("%v: eps_at_delta %v, message %q; want empty and %q", c.row, out["eps_at_delta"], msg, c.want)
		}
	}
	// An approx row of compositions·δ ≥ 1 is vacuous at c·δ, but not
	// at a report_delta above the floor 1 − 0.9^20 ≈ 0.878.
	row := map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "0.1", "compositions": "20", "baseline": "0.1"}
	if _, msg, out := evalRow(t, row); out["eps_at_delta"].Kind != table.Empty || !strings.Contains(msg, "vacuous") {
		t.Errorf("δ = 0.1, 20 compositions: eps_at_delta %v, %q; want empty, vacuous", out["eps_at_delta"], msg)
	}
	got := number(t, merged(row, map[string]string{"report_delta": "0.9"}), "eps_at_delta")
	if d := kovDeltaAt(1, 0.1, 20, got); d > 0.9*(1+1e-12) {
		t.Errorf("δ = 0.1, 20 compositions at 0.9: ε = %.17g has δ(ε) = %.17g > 0.9", got, d)
	}
}

// A dataset's total reports at the report_delta its rows agree on: two
// Gaussian releases of σ = 2 and 3 compose to G_μ, μ = √(1/4 + 1/9), whose
// ε at 1e-3 is that of a gdp row of that μ; without report_delta the total
// reports at the rows' delta, 1e-5, a larger ε.
func TestReportDeltaTotal(t *testing.T) {
	e := New()
	rows := []map[string]string{
		{"id": "a", "dataset": "census", "mechanism": "gaussian", "sigma": "2", "delta": "1e-5", "report_delta": "1e-3", "baseline": "0.1"},
		{"id": "b", "dataset": "census", "mechanism": "gaussian", "sigma": "3", "delta": "1e-5", "report_delta": "1e-3", "baseline": "0.1"},
	}
	_, st, out := totalOf(t, e, "census", rows...)
	mu := math.Sqrt(1.0/4 + 1.0/9)
	want := number(t, map[string]string{"mechanism": "gdp", "mu": ftoa(mu), "report_delta": "1e-3", "baseline": "0.1"}, "eps_at_delta")
	got := out["eps_at_delta"]
	if st != StatusTotal || got.Kind != table.Number || math.Abs(got.Num-want) > 1e-12*want {
		t.Errorf("total at report_delta 1e-3: %s, eps_at_delta %v (%q); want %.17g", st, got, out["message"], want)
	}
	for _, r := range rows {
		delete(r, "report_delta")
	}
	_, _, at := totalOf(t, e, "census", rows...)
	if v := at["eps_at_delta"]; v.Kind != table.Number || !(v.Num > got.Num) {
		t.Errorf("total at delta 1e-5: eps_at_delta %v; want a number above %v", v, got)
	}
}

// An audit row reports no release's ε: report_delta on it is an error
// naming the column, as every input audits do not use.
func TestReportDeltaAuditRow(t *testing.T) {
	st, msg, _ := evalRow(t, map[string]string{"audit": "membership", "canaries": "1000", "guesses": "100", "correct": "90", "report_delta": "1e-5"})
	if st != StatusError || !strings.Contains(msg, "report_delta") {
		t.Errorf("audit row with report_delta: %s %q; want an error naming report_delta", st, msg)
	}
}

// A gaussian row stated by ε and δ reads its composed view at c·δ with
// extra_stages as without them: a further pure stage of ε' = 0.001
// (laplace(1000)) raises its ε at that δ by at most ε' (basic composition,
// Dwork & Roth 2014, Thm 3.16), and not at all below it.
func TestStatedGaussianExtraStagesReportAtCDelta(t *testing.T) {
	row := map[string]string{"mechanism": "gaussian", "epsilon": "1", "delta": "1e-5", "compositions": "4", "baseline": "0.1"}
	without := number(t, row, "eps_at_delta")
	with := number(t, merged(row, map[string]string{"extra_stages": "laplace(1000)"}), "eps_at_delta")
	if !(with >= without && with <= without+0.001) {
		t.Errorf("eps_at_delta with extra_stages laplace(1000) = %.17g; expected in [%.17g, %.17g + 0.001]", with, without, without)
	}
}

// A row whose compositions·δ reaches 1 has a vacuous (ε, δ) view with
// extra_stages as without them: eps_at_delta is empty with the same
// reason, not ε = 0 at δ = 1.
func TestVacuousComposedViewWithExtraStages(t *testing.T) {
	for _, row := range []map[string]string{
		{"mechanism": "approx", "epsilon": "1", "delta": "0.3", "compositions": "4", "baseline": "0.1"},
		{"mechanism": "gaussian", "epsilon": "1", "delta": "0.3", "compositions": "4", "baseline": "0.1"},
	} {
		for _, extra := range []string{"", "laplace(1000)"} {
			if extra != "" {
				row = merged(row, map[string]string{"extra_stages": extra})
			}
			_, msg, cells := evalRow(t, row)
			if !cells["eps_at_delta"].IsEmpty() || !strings.Contains(msg, "compositions·delta reaches 1") {
				t.Errorf("%v: eps_at_delta %v, message %q; expected empty, compositions·delta reaches 1", row, cells["eps_at_delta"], msg)
			}
		}
	}
}
