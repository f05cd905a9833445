package evaluate

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// Each family's columns, wired through the evaluator, reproduce reference
// values (src names the paper's result; the numbers were computed
// independently in mpmath unless src says otherwise; the functions behind
// them are tested on their own in their files;
// these tests check the wiring: which inputs reach which function).
func TestFamilyColumnsCatalog(t *testing.T) {
	for _, c := range []struct {
		row  map[string]string
		col  string
		want float64
		tol  float64
		src  string
	}{
		{map[string]string{"mu": "1", "baseline": "0.01"}, "rero_zcdp", 0.1261459225, 1e-9, "Kulynych et al. Cor. B.1 (Eq. 24) at ρ = μ²/2 = 0.5, b = 0.01"},
		{map[string]string{"mu": "1", "baseline": "0.1"}, "rero_zcdp", 0.5186017317, 1e-9, "Kulynych et al. Cor. B.1 (Eq. 24) at ρ = μ²/2 = 0.5, b = 0.1"},
		{map[string]string{"mu": "1", "baseline": "0.1"}, "rero_rdp", 0.5186017317, 1e-9, "Cor. B.2 (Eq. 25) with ε(t) = ρt is Cor. B.1 (Kulynych et al. App. B)"},
		{map[string]string{"mu": "1", "baseline": "0.9"}, "fdp_binary_success", 1 - 0.0986636939, 1e-9, "Kulynych et al. Thm D.1: 1 − R_{G_μ}(π) at π = 0.9, μ = 1"},
		{map[string]string{"mu": "0.5", "baseline": "0.75"}, "fdp_binary_success", 0.7510, 5e-5, "Kulynych et al. Thm D.1 at μ = 0.5, b = 0.75 (4 digits)"},
		{map[string]string{"mu": "0.5", "target_advantage": "0.1"}, "fdp_mu_for_target", 0.2513226937, 1e-9, "Thm 3.4 worst case η = 2Φ(μ/2) − 1 = 0.1 solved for μ"},
		{map[string]string{"mu": "0.5", "target_advantage": "0.1", "baseline": "0.1"}, "fdp_mu_for_target", 0.4399303320, 1e-9, "Thm 3.3 adv = 1 − G_μ(b) − b = 0.1 at b = 0.1 solved for μ"},
		{map[string]string{"sigma": "2", "target_advantage": "0.1"}, "fdp_sigma_for_target", 3.978948281, 1e-8, "Thm 3.4 η = 0.1 solved for σ = Δ/μ, Δ = 1"},
		{map[string]string{"epsilon": "1", "delta": "1e-5", "target_advantage": "0.1"}, "fdp_eps_for_target", 0.2006525135, 1e-9, "Prop. A.1 η = (e^ε − 1 + 2δ)/(e^ε + 1) = 0.1 at δ = 1e-5 solved for ε"},
		{map[string]string{"laplace_scale": "1", "target_advantage": "0.1"}, "fdp_eps_for_target", 0.2107210313, 1e-9, "Laplace η = 1 − e^{−ε/2} = 0.1 solved for ε"},
		{map[string]string{"laplace_scale": "2", "sensitivity": "2"}, "fdp_worst_advantage", 0.3934693403, 1e-9, "Laplace η = 1 − e^{−ε/2} at ε = 1"},
		{map[string]string{"laplace_scale": "5"}, "fdp_worst_advantage", 0.09516258196, 1e-9, "Laplace η = 1 − e^{−ε/2} at ε = 0.2 (b = 5, Kulynych et al. App. G.1)"},
		{map[string]string{"epsilon": "1", "records": "500", "w": "0.0002"}, "pso_cohen_nissim", 500 * math.E * 0.0002, 1e-12, "Thm B.1 n(e^ε w + δ) at δ=0"},
		{map[string]string{"epsilon": "1", "records": "500", "w": "0.0002"}, "pso_fdp", 500 * math.E * 0.0002, 1e-12, "Thm F.2 with 1 − f_{ε,0}(w) = e^ε w for small w"},
		{map[string]string{"epsilon": "1", "records": "500", "w": "0.0002"}, "pso_baseline", 500 * 0.0002 * math.Pow(1-0.0002, 499), 1e-12, "Eq. (5) n w (1−w)^(n−1)"},
		{map[string]string{"epsilon": "2", "baseline": "0.001"}, "rero_eps", math.Exp(2) * 0.001, 1e-12, "e^ε·baseline"},
		// riskcal prints 0.47; the supremum over orders (α → 1, KL ≤ ρ) is
		// 0.4790984 (independent mpmath value, see TestZCDPriskcalDocstrings).
		{map[string]string{"rho": "0.5"}, "fdp_worst_advantage", 0.4790984231166211, 1e-8, "mpmath supremum; riskcal get_advantage_from_zcdp(0.5) ≈ 0.47"},
		{map[string]string{"mu": "1", "baseline": "0.3"}, "fdp_norm_advantage", (1 - curve.Gaussian{Mu: 1}.TradeOff(0.3) - 0.3) / 0.7, 1e-12, "Thm 3.3 / (1 − b)"},
	} {
		if got := number(t, c.row, c.col); !approx.Near(got, c.want, c.tol, 0) {
			t.Errorf("%v: %s = %.12g, want %.12g (%s)", c.row, c.col, got, c.want, c.src)
		}
	}
}

// Equivalent parameterisations agree across families.
func TestFamilyEquivalences(t *testing.T) {
	// Binary randomized response is f_{ε,0}.
	for _, col := range []string{"fdp_success", "fdp_worst_advantage", "onerun_advantage"} {
		a := number(t, map[string]string{"epsilon": "1.3", "rr_categories": "2", "baseline": "0.3"}, col)
		b := number(t, map[string]string{"epsilon": "1.3", "baseline": "0.3"}, col)
		if !approx.Near(a, b, 1e-12, 1e-12) {
			t.Errorf("rr k=2 %s = %v, pure %v", col, a, b)
		}
	}
	// Marginals reduce to the GDP with μ = √K·√2/σ, K = C(16,3) − C(15,3) =
	// 105 (Swanberg et al. 2025 §6.1: ACS, d = 16, one unknown column). σ = 54.06 gives μ ≈ 0.268051,
	// which is (1, 1e-5)-DP.
	mu := math.Sqrt(105) * math.Sqrt2 / 54.06
	for _, col := range []string{"fdp_success", "fdp_worst_advantage", "adp_advantage"} {
		row := map[string]string{"marginal_k": "3", "columns_total": "16", "columns_unknown": "1", "sigma": "54.06", "baseline": "0.2", "delta": "1e-5"}
		a := number(t, row, col)
		b := number(t, map[string]string{"mu": ftoa(mu), "baseline": "0.2", "delta": "1e-5"}, col)
		if !approx.Near(a, b, 1e-12, 1e-12) {
			t.Errorf("marginals %s = %v, gdp μ=%v %v", col, a, b, mu)
		}
	}
	if e := (curve.Gaussian{Mu: mu}).EpsilonAt(1e-5); !approx.Near(e, 1, 1e-3, 0) {
		t.Errorf("marginals ε(1e-5) = %v, catalog 1", e)
	}
	// An RDP row at order α with ε_α = αρ is bounded by the zCDP row with
	// the same ρ (zCDP holds at every order; one order is weaker).
	zc := number(t, map[string]string{"rho": "0.5", "baseline": "0.1"}, "fdp_success")
	rd := number(t, map[string]string{"rdp_order": "4", "rdp_epsilon": "2", "baseline": "0.1"}, "fdp_success")
	if rd < zc-1e-12 {
		t.Errorf("one RDP order (%v) is tighter than zCDP (%v)", rd, zc)
	}
	// DP-SGD with sampling rate 1 and one step is the Gaussian mechanism
	// with μ = 1/σ; its RDP-based curve is conservative: never below G_μ.
	dp := number(t, map[string]string{"noise_multiplier": "2", "sample_rate": "1", "steps": "1", "baseline": "0.1"}, "fdp_success")
	g := number(t, map[string]string{"mu": "0.5", "baseline": "0.1"}, "fdp_success")
	if dp < g-1e-12 || dp > g+0.05 {
		t.Errorf("dpsgd q=1 T=1 σ=2: %v, Gaussian μ=0.5: %v", dp, g)
	}
	// Composing a Laplace row twice is bounded by pure 2ε.
	lc := number(t, map[string]string{"laplace_scale": "1", "compositions": "2", "baseline": "0.1"}, "fdp_success")
	pe := number(t, map[string]string{"epsilon": "2", "baseline": "0.1"}, "fdp_success")
	if lc > pe+1e-12 {
		t.Errorf("two Laplace compositions %v above pure 2ε %v", lc, pe)
	}
}

// The Fano columns through the evaluator: Guo et al. 2023 (§6.3), ρ = 6
// (DP-SGD, T = 1, σ = 1/√3, Δ = 2C) and M = 50,256 candidates: Algorithm 1
// gives 0.61580217 and the order-optimised Algorithm 2 0.481706188.
func TestFanoColumns(t *testing.T) {
	row := map[string]string{"rho": "6", "candidates": "50256"}
	if got := number(t, row, "fano_adv_alpha1"); !approx.Near(got, 0.61580217, 1e-8, 0) {
		t.Errorf("fano_adv_alpha1 = %v, catalog 0.61580217", got)
	}
	if got := number(t, row, "fano_adv_opt"); !approx.Near(got, 0.481706188, 1e-9, 0) {
		t.Errorf("fano_adv_opt = %v, catalog 0.481706188", got)
	}
	// A Gaussian row with μ = √(2ρ) is the same Rényi curve.
	if a, b := number(t, map[string]string{"mu": ftoa(math.Sqrt(12)), "candidates": "50256"}, "fano_adv_opt"), number(t, row, "fano_adv_opt"); !approx.Near(a, b, 1e-12, 1e-9) {
		t.Errorf("gdp μ=√12: %v, zcdp ρ=6: %v", a, b)
	}
	// Uniform 2-candidate inference: the Fano bound never beats f-DP's
	// binary bound by much, and it is a valid probability.
	if v := number(t, map[string]string{"epsilon": "1", "candidates": "2"}, "fano_success_opt"); !(v >= 0.5 && v <= 1) {
		t.Errorf("fano_success_opt = %v", v)
	}
}

// Practical membership privacy through the evaluator: Lowy et al. 2024,
// sigmoid(0.1) = 0.524979187479 and logit(0.525) = 0.100083458557.
func TestPMPColumns(t *testing.T) {
	if got := number(t, map[string]string{"epsilon": "0.1"}, "pmp_mia_success"); !approx.Near(got, 0.524979187479, 1e-12, 0) {
		t.Errorf("pmp_mia_success(0.1) = %v", got)
	}
	// target_advantage 0.05 ↔ success 0.525.
	if got := number(t, map[string]string{"epsilon": "1", "target_advantage": "0.05"}, "pmp_eps_for_target"); !approx.Near(got, 0.100083458557, 1e-11, 0) {
		t.Errorf("pmp_eps_for_target(0.05) = %v", got)
	}
}
