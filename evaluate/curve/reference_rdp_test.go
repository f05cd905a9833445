package curve

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// TestReferenceRDP compares the RDP, zCDP and DP-SGD conversions with
// testdata/reference_rdp.csv, written by testdata/gen_reference_rdp.py: an
// independent mpmath implementation at 40 digits (bisection-type root
// finding on the two Rényi constraints of the Bernoulli pair, scan plus
// golden-section search over orders for zCDP, the exact binomial sum for
// the subsampled Gaussian at integer orders 2..64).
//
// Rows:
//   - rdp: one (α, ε_α) guarantee; f(x), 1 − f(x) − x and η.
//   - zcdp: ρ; f(x), 1 − f(x) − x, η and ε(δ) at δ = 1e-5 and 1e-10.
//   - dpsgd_int: σ, q, steps; the composed ε_α at α = 2..64 (checked first,
//     to 1e-9 relative, against the Go SubsampledGaussianRDP·steps), then the
//     curve of RDP{those integer orders, the Go ε_α}: f(0.1), the advantage
//     at 0.1, η and ε(1e-5).
//
// Tolerance (issue: zCDP/RDP/DP-SGD agree with the reference to 1e-6): 1e-6
// absolute. Every Go value must also be on the conservative side of the
// reference: f ≤ ref + 1e-12, advantage ≥ ref − 1e-12, η ≥ ref − 1e-12,
// ε(δ) ≥ ref − 1e-9 (the Go zCDP search uses a finite order grid, so its
// curve may lie slightly below and its ε(δ) slightly above the supremum).
func TestReferenceRDP(t *testing.T) {
	recs, col := approx.ReadTable(t, "testdata/reference_rdp.csv")
	const (
		absTol   = 1e-6
		consTol  = 1e-12
		consEps  = 1e-9
		epsRelTo = 1e-9
	)
	maxDev := map[string]float64{}
	num := func(rec []string, name string) float64 {
		t.Helper()
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("column %s: %v", name, err)
		}
		return v
	}
	list := func(rec []string, name string) []float64 {
		t.Helper()
		parts := strings.Split(rec[col[name]], ";")
		out := make([]float64, len(parts))
		for i, p := range parts {
			v, err := strconv.ParseFloat(p, 64)
			if err != nil {
				t.Fatalf("column %s: %v", name, err)
			}
			out[i] = v
		}
		return out
	}
	// check compares got with want to absTol; dir > 0 requires got ≥ want − slack,
	// dir < 0 requires got ≤ want + slack.
	check := func(line int, kind, what string, got, want float64, dir int, slack float64) {
		t.Helper()
		d := math.Abs(got - want)
		if !(d <= absTol) {
			t.Errorf("line %d %s %s: got %.17g, reference %.17g (|Δ| = %.3g)", line, kind, what, got, want, d)
		}
		if (dir > 0 && !(got >= want-slack)) || (dir < 0 && !(got <= want+slack)) {
			t.Errorf("line %d %s %s: got %.17g is not conservative w.r.t. reference %.17g", line, kind, what, got, want)
		}
		key := kind + " " + what
		maxDev[key] = math.Max(maxDev[key], d)
	}
	type curve interface {
		TradeOff(float64) float64
		Advantage(float64) float64
		WorstAdvantage() float64
		EpsilonAt(float64) float64
	}
	checkCurve := func(line int, kind string, c curve, rec []string) {
		t.Helper()
		x := num(rec, "x")
		check(line, kind, "f_x", c.TradeOff(x), num(rec, "f_x"), -1, consTol)
		check(line, kind, "advantage_x", c.Advantage(x), num(rec, "advantage_x"), +1, consTol)
		check(line, kind, "eta", c.WorstAdvantage(), num(rec, "eta"), +1, consTol)
		if rec[col["delta"]] != "" {
			deltas, eps := list(rec, "delta"), list(rec, "eps_at_delta")
			for i, d := range deltas {
				check(line, kind, "eps_at_delta", c.EpsilonAt(d), eps[i], +1, consEps)
			}
		}
	}
	counts := map[string]int{}
	for i, rec := range recs {
		line := i + 2
		kind := rec[col["kind"]]
		counts[kind]++
		switch kind {
		case "rdp":
			c := RDP{Orders: []float64{num(rec, "alpha")}, Epsilons: []float64{num(rec, "eps_alpha")}}
			checkCurve(line, kind, c, rec)
		case "zcdp":
			checkCurve(line, kind, ZCDP{Rho: num(rec, "rho")}, rec)
		case "dpsgd_int":
			orders, refEps := list(rec, "alpha"), list(rec, "eps_alpha")
			q, sigma := num(rec, "sample_rate"), num(rec, "noise_multiplier")
			steps := num(rec, "steps")
			eps := make([]float64, len(orders))
			for j, a := range orders {
				eps[j] = SubsampledGaussianRDP(q, sigma, a) * steps
				rel := math.Abs(eps[j]-refEps[j]) / refEps[j]
				if !(rel <= epsRelTo) {
					t.Errorf("line %d dpsgd_int σ=%v q=%v steps=%v α=%v: ε_α = %.17g, reference %.17g (rel %.3g)",
						line, sigma, q, steps, a, eps[j], refEps[j], rel)
				}
				maxDev["dpsgd_int eps_alpha (rel)"] = math.Max(maxDev["dpsgd_int eps_alpha (rel)"], rel)
			}
			checkCurve(line, kind, RDP{Orders: orders, Epsilons: eps}, rec)
		default:
			t.Fatalf("line %d: unknown kind %q", line, kind)
		}
	}
	if counts["rdp"] == 0 || counts["zcdp"] == 0 || counts["dpsgd_int"] == 0 {
		t.Fatalf("missing row kinds: %v", counts)
	}
	t.Logf("rows: %v", counts)
	for k, v := range maxDev {
		t.Logf("max |Go − reference| %-28s %.3g", k, v)
	}
}
