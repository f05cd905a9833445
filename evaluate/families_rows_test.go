package evaluate

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/table"
)

// Rows of the Guerra-Balboa (gb_*), Lowy (pmp_*) and Guo (fano_*) families
// through the evaluator, against computations written here independently of
// bound/reconstruction.go, bound/pmp.go and bound/fano.go: the paper's formulas in their
// printed e^ε form (not tanh, expm1 or log space), a prior's κ₀, κ₀⁻, μ
// taken from the vector directly, and Fano's inequality solved by plain
// bisection.

// gbNaive holds Guerra-Balboa et al. 2024 bounds in their printed form.
type gbNaive struct{ e, t float64 }

func newGBNaive(eps float64) gbNaive {
	e := math.Exp(eps)
	return gbNaive{e: e, t: (e - 1) / (e + 1)}
}

func (g gbNaive) yeom() float64       { return math.Min(1, g.e-1) } // §4.1, capped
func (g gbNaive) erlingsson() float64 { return 1 - 1/g.e }          // Thm 4.6 corrected
func (g gbNaive) humphries(d float64) float64 {
	return (g.e - 1 + 2*d) / (g.e + 1) // Thm 4.9
}
func (g gbNaive) urero(k float64) float64 { return math.Min(k*(g.e-1), g.t) } // Thm 7.2

// reroExact is Prop. 5.1 clipped at 1.
func (g gbNaive) reroExact(k0 float64, m int) float64 {
	return math.Min(1, math.Min(k0*g.e, k0*(1+float64(m-1)*g.t)))
}

// aia is Prop. 8.2 with Thm 7.3, Thm 7.2's t and the §9 cap 1 − μ.
func (g gbNaive) aia(k0, kmin, mu float64, m int) float64 {
	v := math.Min(k0*(g.e-1), g.t)
	v = math.Min(v, k0*float64(m-1)*g.t+k0-kmin)
	return math.Min(v, 1-mu)
}

// uniform is Eq. (6).
func (g gbNaive) uniform(m int) float64 {
	fm := float64(m)
	return math.Min((g.e-1)/fm, (fm-1)/fm*g.t)
}

// relNear reports |got − want| ≤ rel·|want| (+ 1e-300 for want = 0).
func relNear(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)+1e-300
}

// gbPureColumns are the gb_* columns computed for pure ε-DP rows only.
var gbPureColumns = []string{"gb_mia_yeom", "gb_mia_erlingsson", "gb_rero_exact", "gb_urero", "gb_urero_uniform", "gb_aia_adv", "gb_eps_for_target"}

// Guerra-Balboa et al. 2024 on random rows: every gb_* column of a pure or Laplace row
// with a uniform prior over `candidates` values, or with a baseline κ,
// equals the printed formula evaluated here (relative 1e-9), and
// gb_eps_for_target the closed-form inverse (derived; the paper prints none).
// 60 random rows by default, 200 with RISKBATCH_LONG_TESTS=1.
func TestGBRowsIndependent(t *testing.T) {
	t.Parallel()
	rng := newRand(6)
	logU := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	const rel = 1e-9
	for i, n := 0, testenv.Count(60, 200); i < n; i++ {
		eps := logU(1e-5, 40)
		m := 2 + rng.Intn(5000)
		kappa := logU(1e-6, 0.99)
		target := 0.001 + 0.9*rng.Float64()
		row := map[string]string{"epsilon": ftoa(eps), "candidates": ftoa(float64(m)), "target_advantage": ftoa(target)}
		if i%3 == 0 { // a Laplace row: ε = sensitivity/scale
			scale := 1 / eps
			row = map[string]string{"laplace_scale": ftoa(scale), "candidates": ftoa(float64(m)), "target_advantage": ftoa(target)}
			eps = 1 / scale
		}
		g := newGBNaive(eps)
		st, msg, out := evalRow(t, row)
		if st == StatusError {
			t.Fatalf("%v: %s", row, msg)
		}
		k := 1 / float64(m)
		for col, want := range map[string]float64{
			"gb_mia_yeom":       g.yeom(),
			"gb_mia_erlingsson": g.erlingsson(),
			"gb_mia_humphries":  g.humphries(0),
			"gb_rero_exact":     g.reroExact(k, m),
			"gb_urero_uniform":  g.uniform(m),
			"gb_aia_adv":        g.aia(k, k, k, m),
			"gb_urero":          g.urero(k), // candidates set the baseline 1/m
		} {
			if c := out[col]; c.Kind != table.Number || !relNear(c.Num, want, rel) {
				t.Errorf("%v: %s = %v, independent %.17g (%s)", row, col, c, want, msg)
			}
		}

		// A baseline κ instead: Thm 7.2 and its inverse (Thm 7.2 solved for ε):
		// ε* = max(ln(1 + γ/κ), ln((1 + γ)/(1 − γ))).
		row = map[string]string{"epsilon": ftoa(eps), "baseline": ftoa(kappa), "target_advantage": ftoa(target)}
		_, msg, out = evalRow(t, row)
		if c := out["gb_urero"]; c.Kind != table.Number || !relNear(c.Num, g.urero(kappa), rel) {
			t.Errorf("%v: gb_urero = %v, independent %.17g (%s)", row, c, g.urero(kappa), msg)
		}
		inv := math.Max(math.Log(1+target/kappa), math.Log((1+target)/(1-target)))
		c := out["gb_eps_for_target"]
		if c.Kind != table.Number || !relNear(c.Num, inv, rel) {
			t.Errorf("%v: gb_eps_for_target = %v, independent %.17g (%s)", row, c, inv, msg)
		} else if b := newGBNaive(c.Num).urero(kappa); b > target*(1+rel) {
			t.Errorf("%v: the bound at gb_eps_for_target %v is %v, above the target", row, c.Num, b)
		}
	}
}

// Guerra-Balboa et al. 2024 Prop. 5.1, Thm 7.3 and Prop. 8.2 for random non-uniform
// priors: κ₀ = max π, κ₀⁻ = min π, μ = Σπ² read off the vector here.
func TestGBRandomPriorsIndependent(t *testing.T) {
	rng := newRand(60)
	for i := 0; i < 500; i++ {
		m := 2 + rng.Intn(40)
		p := approx.RandomPrior(rng, m, 10, func() float64 { return math.Pow(rng.Float64(), 1+3*rng.Float64()) })
		if p == nil {
			continue
		}
		hi, lo, sq := 0.0, 1.0, 0.0
		for j := range p {
			hi, lo, sq = math.Max(hi, p[j]), math.Min(lo, p[j]), sq+p[j]*p[j]
		}
		st, err := bound.GBPriorStats(p)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if st.M != m || !relNear(st.Kappa0, hi, 1e-12) || !relNear(st.Kappa0Min, lo, 1e-12) || !relNear(st.Mu, sq, 1e-12) {
			t.Fatalf("%v: stats %+v, independent κ₀ %v κ₀⁻ %v μ %v", p, st, hi, lo, sq)
		}
		eps := 20 * rng.Float64() * rng.Float64()
		g := newGBNaive(eps)
		if got, want := bound.GBReRoExact(eps, st.Kappa0, m), g.reroExact(hi, m); !relNear(got, want, 1e-9) {
			t.Errorf("ε=%v %v: Prop 5.1 %v, independent %v", eps, p, got, want)
		}
		if got, want := bound.GBAIAAdvantage(eps, st.Kappa0, st.Kappa0Min, st.Mu, m), g.aia(hi, lo, sq, m); !relNear(got, want, 1e-9) && !(want <= 0 && got <= 1e-15) {
			t.Errorf("ε=%v %v: Prop 8.2 %v, independent %v", eps, p, got, want)
		}
	}
}

// Guerra-Balboa et al. 2024 (the scope of the gb_* family): rows that are not
// pure ε-DP (δ > 0, or a mechanism with no pure ε) leave every pure-DP
// column empty without a word, since no input of the row could fill them
// (Applies: they do not apply), and the row stays ok; gb_mia_humphries, the
// paper's one (ε, δ) bound, is still written.
func TestGBRowsNeedPureDP(t *testing.T) {
	for _, row := range []map[string]string{
		{"epsilon": "1", "delta": "1e-6", "candidates": "10", "target_advantage": "0.1"},
		{"mechanism": "approx", "epsilon": "0.5", "delta": "0.01", "candidates": "4", "target_advantage": "0.3"},
		{"sigma": "3", "delta": "1e-5", "candidates": "10", "target_advantage": "0.1"},
		{"rho": "0.5", "delta": "1e-5", "candidates": "10", "target_advantage": "0.1"},
	} {
		st, msg, out := evalRow(t, row)
		if st != StatusOK || msg != "" {
			t.Errorf("%v: status %s, message %q; want ok without a message", row, st, msg)
		}
		for _, col := range gbPureColumns {
			if !out[col].IsEmpty() {
				t.Errorf("%v: %s = %v, want empty for a row that is not pure ε-DP", row, col, out[col])
			}
		}
		if out["gb_mia_humphries"].Kind != table.Number {
			t.Errorf("%v: gb_mia_humphries empty (%s)", row, msg)
		}
	}
	// (ε, δ) rows: Thm 4.9 is (e^ε − 1 + 2δ)/(e^ε + 1), δ at ε = 0.
	for _, c := range []struct{ eps, delta float64 }{{0, 1e-5}, {0.3, 1e-9}, {1, 1e-6}, {4, 0.01}, {20, 0.2}} {
		got := number(t, map[string]string{"epsilon": ftoa(c.eps), "delta": ftoa(c.delta)}, "gb_mia_humphries")
		if want := newGBNaive(c.eps).humphries(c.delta); !relNear(got, want, 1e-12) {
			t.Errorf("gb_mia_humphries(ε=%v, δ=%v) = %.17g, want %.17g", c.eps, c.delta, got, want)
		}
	}
	// δ = 0 written explicitly is a pure row.
	if _, msg, out := evalRow(t, map[string]string{"mechanism": "approx", "epsilon": "1", "delta": "0", "candidates": "10"}); out["gb_rero_exact"].Kind != table.Number {
		t.Errorf("approx row with δ = 0: gb_rero_exact empty (%s)", msg)
	}
}

// The properties of each family's columns through the evaluator: values in
// [0, 1], non-decreasing in ε, and the ε = 0 value (to a few ulps, never
// below it) where the paper's bound has one (Guerra-Balboa et al. 2024: advantages 0, exact reconstruction the
// baseline 1/m; Lowy et al. 2024 Lemma 6: 1/2, (1 + δ)/2 with δ; Guo et al. 2023: the
// uniform prior's advantage 0 and success 1/M). Two candidate-set sizes
// and nine privacy levels by default, five and sixteen with
// RISKBATCH_LONG_TESTS=1.
func TestFamilyRowProperties(t *testing.T) {
	t.Parallel()
	grid := []float64{0, 1e-9, 0.01, 0.3, 1, 3, 8, 20, 700}
	if testenv.Long() {
		grid = []float64{0, 1e-9, 1e-4, 0.01, 0.1, 0.3, 0.7, 1, 2, 3, 5, 8, 12, 20, 40, 700}
	}
	type family struct {
		row  func(eps float64, m int) map[string]string
		cols map[string]func(m int) float64 // the value at ε = 0 (NaN: none checked)
	}
	none := func(int) float64 { return math.NaN() }
	zero := func(int) float64 { return 0 }
	inv := func(m int) float64 { return 1 / float64(m) }
	families := []family{
		{func(eps float64, m int) map[string]string {
			return map[string]string{"epsilon": ftoa(eps), "candidates": itoa(m)}
		}, map[string]func(int) float64{
			"gb_mia_yeom": zero, "gb_mia_erlingsson": zero, "gb_mia_humphries": zero, "gb_urero": zero,
			"gb_urero_uniform": zero, "gb_aia_adv": zero, "gb_rero_exact": inv,
			"pmp_mia_success": func(int) float64 { return 0.5 },
			"fano_adv_alpha1": zero, "fano_adv_opt": zero, "fano_success_opt": inv,
		}},
		{func(eps float64, m int) map[string]string {
			return map[string]string{"epsilon": ftoa(eps), "delta": "1e-5", "candidates": itoa(m)}
		}, map[string]func(int) float64{
			"gb_mia_humphries": func(int) float64 { return 1e-5 },
			"pmp_mia_success":  func(int) float64 { return (1 + 1e-5) / 2 },
		}},
		// Gaussian-type and Rényi rows: ε stands for μ, ρ and the RDP ε.
		{func(eps float64, m int) map[string]string {
			return map[string]string{"mu": ftoa(eps), "candidates": itoa(m)}
		}, map[string]func(int) float64{"fano_adv_alpha1": zero, "fano_adv_opt": zero, "fano_success_opt": inv}},
		{func(eps float64, m int) map[string]string {
			return map[string]string{"sigma": ftoa(1 / eps), "marginal_k": "2", "columns_total": "5", "columns_unknown": "1", "candidates": itoa(m)}
		}, map[string]func(int) float64{"fano_adv_alpha1": none, "fano_adv_opt": none, "fano_success_opt": none}},
		{func(eps float64, m int) map[string]string {
			return map[string]string{"rho": ftoa(eps), "candidates": itoa(m)}
		}, map[string]func(int) float64{"fano_adv_alpha1": zero, "fano_adv_opt": zero, "fano_success_opt": inv}},
		{func(eps float64, m int) map[string]string {
			return map[string]string{"epsilon": ftoa(eps), "rr_categories": itoa(m), "candidates": itoa(m)}
		}, map[string]func(int) float64{"fano_adv_alpha1": zero, "fano_adv_opt": zero, "fano_success_opt": inv, "gb_aia_adv": zero}},
	}
	ms := []int{2, 1 << 30} // the smallest and a huge candidate set
	if testenv.Long() {
		ms = []int{2, 3, 10, 1000, 1 << 30}
	}
	for fi, f := range families {
		for _, m := range ms {
			prev := map[string]float64{}
			for _, eps := range grid {
				if eps == 0 && fi == 3 {
					continue // σ = 1/0
				}
				row := f.row(eps, m)
				st, msg, out := evalRow(t, row)
				if st == StatusError {
					t.Fatalf("%v: %s", row, msg)
				}
				for col, at0 := range f.cols {
					c := out[col]
					if c.Kind != table.Number {
						t.Errorf("%v: %s empty (%s)", row, col, msg)
						continue
					}
					if !(c.Num >= 0 && c.Num <= 1) {
						t.Errorf("%v: %s = %v outside [0, 1]", row, col, c.Num)
					}
					if p, ok := prev[col]; ok && c.Num < p {
						t.Errorf("%v: %s = %.17g decreases from %.17g as ε grows", row, col, c.Num, p)
					}
					prev[col] = c.Num
					// Rounded up (conservative) by a few ulps at most.
					if w := at0(m); eps == 0 && !math.IsNaN(w) && !(relNear(c.Num, w, 1e-14) && c.Num >= w) {
						t.Errorf("%v: %s = %.17g at ε = 0, want %.17g", row, col, c.Num, w)
					}
				}
				if a, o := out["fano_adv_alpha1"], out["fano_adv_opt"]; a.Kind == table.Number && o.Num > a.Num {
					t.Errorf("%v: fano_adv_opt %v above fano_adv_alpha1 %v", row, o.Num, a.Num)
				}
			}
		}
	}
}

// fanoNaiveAlg1 is Algorithm 1 for a uniform prior over m values, solved
// by bisection on P ∈ [1/m, 1] in the printed form
// ln m − μ ≤ h(1 − P) + (1 − P)·ln(m − 1) (Guo et al. 2023, eqs. 3 and 6), and returned
// as the advantage (P − 1/m)/(1 − 1/m).
func fanoNaiveAlg1(mi float64, m int) float64 {
	fm := float64(m)
	if mi >= math.Log(fm) {
		return 1
	}
	ok := func(p float64) bool { // Fano's inequality holds at success p
		e := 1 - p
		h := 0.0
		if e > 0 && e < 1 {
			h = -e*math.Log(e) - (1-e)*math.Log(1-e)
		}
		return math.Log(fm)-mi <= h+e*math.Log(fm-1)
	}
	lo, hi := 1/fm, 1.0
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo - 1/fm) / (1 - 1/fm)
}

// Guo et al. 2023 (Gaussian mechanism, M = 10 one-hot candidates,
// Δ = √2, uniform prior: the setting of Fig. 3b; values computed in
// mpmath) through gaussian rows: fano_adv_alpha1 is
// Algorithm 1 with Theorem 2's mutual information and
// fano_adv_opt is the smaller of that and the order-optimised Algorithm 2
// (a grid minimum: the continuous search may be a little lower).
func TestFanoGaussianRowsTheorem2(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sigma, thm2, alg2 float64
	}{
		{0.25, 0.9999999437, 1},
		{0.5, 0.9758294587, 1},
		{0.75, 0.7824561275, 0.89391615},
		{1, 0.5932631291, 0.65468581},
		{1.5, 0.3799220112, 0.39414479},
		{2, 0.2742779903, 0.26687075},
		{3, 0.1737350677, 0.15559956},
	} {
		row := map[string]string{"sigma": ftoa(c.sigma), "sensitivity": ftoa(math.Sqrt2), "candidates": "10"}
		if got := number(t, row, "fano_adv_alpha1"); !relNear(got, c.thm2, 2e-9) {
			t.Errorf("σ=%v: fano_adv_alpha1 = %.10g, catalog Thm2 Adv %.10g", c.sigma, got, c.thm2)
		}
		want := math.Min(c.thm2, c.alg2)
		if got := number(t, row, "fano_adv_opt"); !(got <= want*(1+2e-9) && got >= want*(1-1e-3)) {
			t.Errorf("σ=%v: fano_adv_opt = %.10g, catalog min(Thm2 Adv, Alg2-opt) %.10g", c.sigma, got, want)
		}
	}
	// Random gaussian, gdp and marginals rows against eq. 19 and Fano's
	// inequality computed here; never looser than Theorem 1 (the zcdp row
	// with ρ = μ²/2).
	rng := newRand(19)
	for i, n := 0, testenv.Count(60, 300); i < n; i++ {
		mu := math.Exp(math.Log(1e-3) + rng.Float64()*math.Log(2e4))
		m := 2 + rng.Intn(100000)
		var row map[string]string
		switch i % 3 {
		case 0:
			sens := math.Exp(rng.NormFloat64())
			row = map[string]string{"sigma": ftoa(sens / mu), "sensitivity": ftoa(sens)}
		case 1:
			row = map[string]string{"mu": ftoa(mu)}
		default:
			// 2-way marginals of 5 columns, one unknown: K = 4 queries of
			// L2 sensitivity √2 each, μ = √K·√2/σ.
			row = map[string]string{"sigma": ftoa(math.Sqrt(8) / mu), "marginal_k": "2", "columns_total": "5", "columns_unknown": "1"}
		}
		row["candidates"] = itoa(m)
		fm := float64(m)
		mi := -math.Log(1/fm + (1-1/fm)*math.Exp(-mu*mu/2))
		want := fanoNaiveAlg1(mi, m)
		got := number(t, row, "fano_adv_alpha1")
		if !(math.Abs(got-want) <= 1e-7*want+1e-12) {
			t.Errorf("%v (μ=%v): fano_adv_alpha1 = %.12g, independent Theorem 2 + Algorithm 1 %.12g", row, mu, got, want)
		}
		thm1 := number(t, map[string]string{"rho": ftoa(mu * mu / 2), "candidates": itoa(m)}, "fano_adv_alpha1")
		if got > thm1*(1+1e-12) {
			t.Errorf("%v: Theorem 2 bound %v above Theorem 1's %v", row, got, thm1)
		}
		if opt := number(t, row, "fano_adv_opt"); opt > got {
			t.Errorf("%v: fano_adv_opt %v above fano_adv_alpha1 %v", row, opt, got)
		}
	}
}

// Lowy et al. 2024 Lemma 6 (and its δ form) on random rows: pmp_mia_success is
// 1/(1 + e^{−ε}) for pure rows and (e^ε + δ)/(1 + e^ε) with δ, and
// pmp_eps_for_target the logit of (1 + A)/2.
func TestPMPRowsIndependent(t *testing.T) {
	rng := newRand(12)
	for i := 0; i < 200; i++ {
		eps := 30 * rng.Float64() * rng.Float64()
		delta := math.Pow(10, -12+10*rng.Float64())
		target := 0.001 + 0.99*rng.Float64()
		e := math.Exp(eps)
		if got, want := number(t, map[string]string{"epsilon": ftoa(eps)}, "pmp_mia_success"), 1/(1+1/e); !relNear(got, want, 1e-12) {
			t.Errorf("ε=%v: pmp_mia_success %.17g, independent %.17g", eps, got, want)
		}
		if got, want := number(t, map[string]string{"epsilon": ftoa(eps), "delta": ftoa(delta)}, "pmp_mia_success"), (e+delta)/(1+e); !relNear(got, want, 1e-12) {
			t.Errorf("ε=%v δ=%v: pmp_mia_success %.17g, independent %.17g", eps, delta, got, want)
		}
		p := (1 + target) / 2
		if got, want := number(t, map[string]string{"epsilon": "1", "target_advantage": ftoa(target)}, "pmp_eps_for_target"), math.Log(p/(1-p)); !relNear(got, want, 1e-9) {
			t.Errorf("target %v: pmp_eps_for_target %.17g, independent %.17g", target, got, want)
		}
	}
}

func itoa(n int) string { return ftoa(float64(n)) }
