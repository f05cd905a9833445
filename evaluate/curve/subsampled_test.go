package curve

import (
	"math"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// classicEpsilon is the RDP → (ε, δ) conversion TF-Privacy used in 2019
// (rdp_accountant.get_privacy_spent; Mironov 2017, Prop. 3):
// ε = min_α ε_α − ln δ/(α − 1). The published tutorial numbers below were
// computed with it.
func classicEpsilon(r RDP, delta float64) float64 {
	best := math.Inf(1)
	for i, a := range r.Orders {
		best = math.Min(best, r.Epsilons[i]-math.Log(delta)/(a-1))
	}
	return best
}

// q = 1 is the Gaussian mechanism: ε_α = α/(2σ²) per step (Mironov 2017,
// Prop. 7), composed additively; its RDP curve lies below the exact
// G_{√T/σ} of T composed Gaussian steps (Kulynych et al. 2025).
func TestDPSGDFullBatchIsGaussian(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		steps int
	}{{1, 1}, {0.3, 7}, {5, 1000}} {
		r := DPSGD{NoiseMultiplier: c.sigma, SampleRate: 1, Steps: c.steps}.RDP()
		for i, a := range r.Orders {
			want := float64(c.steps) * a / (2 * c.sigma * c.sigma)
			if got := r.Epsilons[i]; got < want || !approx.Near(got, want, 0, 1e-14) {
				t.Errorf("σ=%v T=%d α=%v: ε = %.17g, α·T/(2σ²) = %.17g", c.sigma, c.steps, a, got, want)
			}
		}
		g := Gaussian{Mu: math.Sqrt(float64(c.steps)) / c.sigma}
		for _, x := range []float64{1e-6, 0.05, 0.3, 0.6} {
			if f := r.TradeOff(x); f > g.TradeOff(x)+1e-15 {
				t.Errorf("σ=%v T=%d x=%v: RDP f %v above G %v", c.sigma, c.steps, x, f, g.TradeOff(x))
			}
		}
	}
}

// Published RDP values of the sampled Gaussian mechanism, q = 0.01, σ = 2.5,
// 50 steps, orders 1.5, 2.5, 5, 50, 100, ∞:
//   - TF-Privacy rdp_accountant_test.py, test_compute_rdp_sequence (signed
//     series for fractional orders): [0.00065, 0.001085, 0.00218075,
//     0.023846, 167.416307, ∞], to 1e-5;
//   - dp_accounting rdp_privacy_accountant_test.py,
//     test_compute_rdp_poisson_sampled_gaussian: [6.70579741e-04,
//     1.08548710e-03, 2.18075656e-03, 2.38460375e-02, 1.67416308e02, ∞],
//     rtol 1e-4. Its _compute_log_a_frac adds the magnitudes of the
//     alternating terms, an upper bound that is 3% high at α = 1.5 and
//     6e-5 high at 2.5; the integer orders agree to 9 digits.
//
// mpmath quadrature of A_α (40 digits; the integral of dp_accounting's
// _compute_a_mp) gives 0.00065007089718804 and 0.00108541805691812 for the
// fractional orders.
func TestDPSGDPublishedRDP(t *testing.T) {
	orders := []float64{1.5, 2.5, 5, 50, 100, math.Inf(1)}
	r := DPSGD{NoiseMultiplier: 2.5, SampleRate: 0.01, Steps: 50}.RDPAt(orders)
	tf := []float64{0.00065, 0.001085, 0.00218075, 0.023846, 167.416307}
	dpa := []float64{6.70579741e-04, 1.08548710e-03, 2.18075656e-03, 2.38460375e-02, 1.67416308e02}
	mp := []float64{0.00065007089718804, 0.00108541805691812}
	for i, a := range orders[:5] {
		got := r.Epsilons[i]
		if !approx.Near(got, tf[i], 1e-5, 0) {
			t.Errorf("α=%v: ε = %.10g, TF-Privacy %v", a, got, tf[i])
		}
		if got > dpa[i]*(1+1e-8) || (a == math.Trunc(a) && !approx.Near(got, dpa[i], 0, 1e-8)) {
			t.Errorf("α=%v: ε = %.10g, dp_accounting %v", a, got, dpa[i])
		}
		if i < 2 && (got < mp[i] || !approx.Near(got, mp[i], 0, 1e-11)) {
			t.Errorf("α=%v: ε = %.15g, mpmath %.15g", a, got, mp[i])
		}
	}
	if !math.IsInf(r.Epsilons[5], 1) {
		t.Errorf("α=∞: ε = %v, want +Inf", r.Epsilons[5])
	}
	// TF-Privacy test_compute_rdp_scalar: compute_rdp(0.1, 2, 10, 5) = 0.07737.
	if got := (DPSGD{NoiseMultiplier: 2, SampleRate: 0.1, Steps: 10}).RDPAt([]float64{5}).Epsilons[0]; !approx.Near(got, 0.07737, 5e-6, 0) {
		t.Errorf("q=0.1 σ=2 T=10 α=5: ε = %.8g, TF-Privacy 0.07737", got)
	}
}

// ln A_α for the parameter list of dp_accounting's
// test_compute_log_a_equals_mp (the same list is in TF-Privacy's test),
// against mpmath quadrature of ∫ φ_σ(z)(1 − q + q·e^{(2z − 1)/(2σ²)})^α dz at
// 40 digits. dp_accounting's tolerance is rtol 1e-4; the integrals are
// reliable to 1e-12 except the three with σ = 0.1 and α ≥ 256, whose sharp
// peak mpmath's quadrature resolves only to ~5e-6 (there the dominant term
// of the expansion, e.g. 256·ln q + (256² − 256)/(2σ²), agrees with this
// code to 1e-15).
func TestDPSGDLogAAgainstMP(t *testing.T) {
	for _, c := range []struct{ q, sigma, order, logA, rtol float64 }{
		{1e-7, 0.1, 1.01, 4.0034123225264e-8, 1e-11},
		{1e-6, 0.1, 256, 3260448.48133394, 1e-4},
		{1e-5, 0.1, 256.1, 3263597.54430783, 1e-4},
		{1e-6, 1, 27, 8.7695113048485e-10, 1e-11},
		{1e-4, 1, 1.5, 6.44268695383665e-9, 1e-11},
		{1e-3, 1, 2, 1.71828035221452e-6, 1e-11},
		{0.01, 10, 20, 0.00019129699912843, 1e-11},
		{0.1, 100, 20.5, 0.000199918184580683, 1e-11},
		{0.99, 0.1, 256, 3263982.6791508, 1e-4},
		{0.999, 100, 256.1, 3.26010803797311, 1e-11},
	} {
		got := SubsampledGaussianRDP(c.q, c.sigma, c.order) * (c.order - 1)
		if !approx.Near(got, c.logA, 0, c.rtol) || (c.rtol < 1e-10 && got < c.logA*(1-1e-13)) {
			t.Errorf("q=%v σ=%v α=%v: ln A = %.15g, mpmath %.15g", c.q, c.sigma, c.order, got, c.logA)
		}
	}
}

// The series agree with a direct numerical integral, computed here by
// Simpson's rule as A_α − 1 = ∫ φ_σ(z)·expm1(α·ln(1 + q·expm1((2z − 1)/(2σ²)))) dz
// over z from −15σ to α + 15σ (the integrand peaks near z = α). (For tiny
// q the first-order part of the integrand, whose integral is exactly 0,
// dominates the rule's error; TestDPSGDEdges covers that regime.)
func TestDPSGDAgainstIntegration(t *testing.T) {
	for _, c := range []struct{ q, sigma, order float64 }{
		{1e-3, 0.8, 2.5}, {0.05, 0.8, 7.3}, {0.05, 2, 12}, {0.3, 1, 3.7}, {0.7, 2, 1.2}, {0.004, 0.6, 3.4}, {0.2, 10, 9.9},
	} {
		s2 := 2 * c.sigma * c.sigma
		integrand := func(z float64) float64 {
			w := c.q * math.Expm1((2*z-1)/s2)
			return math.Expm1(c.order*math.Log1p(w)) * math.Exp(-z*z/s2) / (c.sigma * math.Sqrt(2*math.Pi))
		}
		am1 := approx.Simpson(integrand, -15*c.sigma, c.order+15*c.sigma, 400000)
		want := math.Log1p(am1) / (c.order - 1)
		if got := SubsampledGaussianRDP(c.q, c.sigma, c.order); got < want*(1-1e-9) || !approx.Near(got, want, 0, 1e-8) {
			t.Errorf("q=%v σ=%v α=%v: ε = %.15g, integral %.15g", c.q, c.sigma, c.order, got, want)
		}
	}
}

// TF-Privacy's MNIST DP-SGD tutorial (tutorials/README.md, "Expected
// Output" and "Select Parameters"; mnist_dpsgd_tutorial.py: orders
// 1.1…10.9 and 12…63, q = 256/60000, 234 steps per epoch, δ = 1e-5, the
// classic conversion): σ = 1.12 gives ε = 1.00 after 1 epoch, 1.04 after 2
// and 2.92 after 60; σ = 1.2 for 10 epochs 1.20; σ = 0.6 for 30 epochs
// 9.74 (this code gives 9.747, which prints as 9.75: the table is 0.007
// lower, so that row is checked to 0.01). compute_dp_sgd_privacy.py's
// docstring: N = 60000, batch 256, σ = 1.12, 60 epochs (14063 steps),
// orders 1.25…4.5, 5…63, 128, 256, 512 → "(2.92, 1e-5)-DP". The improved
// conversion (EpsilonAt) is never larger than the classic one.
func TestDPSGDTensorFlowTutorial(t *testing.T) {
	var orders []float64
	for x := 1; x < 100; x++ {
		orders = append(orders, 1+float64(x)/10)
	}
	for a := 12; a < 64; a++ {
		orders = append(orders, float64(a))
	}
	for _, c := range []struct {
		sigma      float64
		epochs     int
		eps, delta float64
	}{{1.12, 1, 1.00, 0.005}, {1.12, 2, 1.04, 0.005}, {1.12, 60, 2.92, 0.005}, {1.2, 10, 1.20, 0.005}, {0.6, 30, 9.74, 0.01}} {
		r := DPSGD{NoiseMultiplier: c.sigma, SampleRate: 256.0 / 60000, Steps: 234 * c.epochs}.RDPAt(orders)
		classic := classicEpsilon(r, 1e-5)
		if !approx.Near(classic, c.eps, c.delta, 0) {
			t.Errorf("σ=%v, %d epochs: ε = %.5g, TF-Privacy %.2f", c.sigma, c.epochs, classic, c.eps)
		}
		if e := r.EpsilonAt(1e-5); e > classic {
			t.Errorf("σ=%v, %d epochs: improved ε %v above classic %v", c.sigma, c.epochs, e, classic)
		}
	}
	orders = []float64{1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5}
	for a := 5; a < 64; a++ {
		orders = append(orders, float64(a))
	}
	orders = append(orders, 128, 256, 512)
	r := DPSGD{NoiseMultiplier: 1.12, SampleRate: 256.0 / 60000, Steps: 14063}.RDPAt(orders)
	if classic := classicEpsilon(r, 1e-5); !approx.Near(classic, 2.92, 0.005, 0) {
		t.Errorf("compute_dp_sgd_privacy example: ε = %.5g, TF-Privacy 2.92", classic)
	}
}

// TF-Privacy rdp_accountant_test.py, test_check_composition: RDP of
// (q = 1e-4, σ = 0.4, 40000 steps) plus (q = 0.1, σ = 2, 100 steps) on the
// listed orders gives ε(1e-5) = 8.509656 under the classic conversion
// (places = 5, commented out in the test since the improved conversion,
// which it then requires to be ≤ 8.509656).
func TestDPSGDComposition(t *testing.T) {
	orders := []float64{1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 64, 256}
	r := DPSGD{NoiseMultiplier: 0.4, SampleRate: 1e-4, Steps: 40000}.RDPAt(orders)
	more := DPSGD{NoiseMultiplier: 2, SampleRate: 0.1, Steps: 100}.RDPAt(orders)
	for i := range orders {
		r.Epsilons[i] += more.Epsilons[i]
	}
	if classic := classicEpsilon(r, 1e-5); !approx.Near(classic, 8.509656, 5e-6, 0) {
		t.Errorf("classic ε = %.8g, TF-Privacy 8.509656", classic)
	}
	if e := r.EpsilonAt(1e-5); e > 8.509656 {
		t.Errorf("improved ε = %.8g, above 8.509656", e)
	}
}

// Kulynych et al. 2025, GPT-2 DP-LoRA rows (authors' code): q =
// 0.0038010957846441, 792 steps, σ calibrated by PLD accounting to
// ε(1e-5) = 4.0, 3.25, 2.75, 2.0, 1.5, achieving 3.95, 3.2, 2.7, 1.9, 1.45
// (the table of App. G.2). Any valid ε is at least the tight one, so the RDP
// ε must be ≥ the achieved PLD value; the RDP route is known to be looser
// (here by 24–44%, more at smaller ε), so it is checked to stay below
// 1.5× the PLD target.
func TestDPSGDGPT2(t *testing.T) {
	for _, c := range []struct{ sigma, target, achieved float64 }{
		{0.5715066078978425, 4.0, 3.95},
		{0.607176132813643, 3.25, 3.2},
		{0.636648345573876, 2.75, 2.7},
		{0.6945392638626464, 2.0, 1.9},
		{0.7497660219048379, 1.5, 1.45},
	} {
		r := DPSGD{NoiseMultiplier: c.sigma, SampleRate: 0.0038010957846441, Steps: 792}.RDP()
		if e := r.EpsilonAt(1e-5); e < c.achieved || e > 1.5*c.target {
			t.Errorf("σ=%v: RDP ε(1e-5) = %.4g, PLD %v (target %v)", c.sigma, e, c.achieved, c.target)
		}
	}
}

// More noise, less sampling, fewer steps: less privacy loss at every
// order and in ε(δ) and η.
func TestDPSGDMonotone(t *testing.T) {
	base := DPSGD{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 1000}
	variants := []struct {
		name        string
		more, fewer DPSGD
	}{
		{"σ", DPSGD{NoiseMultiplier: 0.8, SampleRate: 0.01, Steps: 1000}, DPSGD{NoiseMultiplier: 1.3, SampleRate: 0.01, Steps: 1000}},
		{"q", DPSGD{NoiseMultiplier: 1, SampleRate: 0.02, Steps: 1000}, DPSGD{NoiseMultiplier: 1, SampleRate: 0.005, Steps: 1000}},
		{"steps", DPSGD{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 3000}, DPSGD{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 300}},
	}
	rb := base.RDP()
	for _, v := range variants {
		rm, rf := v.more.RDP(), v.fewer.RDP()
		for i, a := range rb.Orders {
			if !(rf.Epsilons[i] < rb.Epsilons[i] && rb.Epsilons[i] < rm.Epsilons[i]) {
				t.Errorf("%s α=%v: ε %v, %v, %v not increasing", v.name, a, rf.Epsilons[i], rb.Epsilons[i], rm.Epsilons[i])
			}
		}
		if !(rf.EpsilonAt(1e-5) < rb.EpsilonAt(1e-5) && rb.EpsilonAt(1e-5) < rm.EpsilonAt(1e-5)) {
			t.Errorf("%s: ε(δ) not increasing", v.name)
		}
		if !(rf.WorstAdvantage() < rb.WorstAdvantage() && rb.WorstAdvantage() < rm.WorstAdvantage()) {
			t.Errorf("%s: η not increasing", v.name)
		}
	}
}

// Edges. Tiny q: A_α − 1 ≈ α(α − 1)/2·q²·(e^{1/σ²} − 1) (second-order
// expansion of E[(1 + q(e^L − 1))^α] with E[e^L − 1] = 0 and
// E[(e^L − 1)²] = e^{1/σ²} − 1 under μ₀), so ε_α ≈ α q²(e^{1/σ²} − 1)/2 to a
// relative O(q). Huge step counts multiply; small σ gives large but finite
// RDP; invalid input gives +Inf, no release gives 0.
func TestDPSGDEdges(t *testing.T) {
	for _, c := range []struct{ q, sigma, order float64 }{{1e-12, 1, 2}, {1e-12, 1, 1.5}, {1e-10, 3, 7.5}, {1e-150, 1, 3}, {5e-324, 1, 2.2}} {
		want := c.order * c.q * c.q * math.Expm1(1/(c.sigma*c.sigma)) / 2
		if got := SubsampledGaussianRDP(c.q, c.sigma, c.order); !approx.Near(got, want, 1e-320, 1e-6) {
			t.Errorf("q=%v σ=%v α=%v: ε = %.10g, leading order %.10g", c.q, c.sigma, c.order, got, want)
		}
	}
	one := DPSGD{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 1}.RDP()
	huge := DPSGD{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 1e12}.RDP()
	for i := range one.Orders {
		if !approx.Near(huge.Epsilons[i], 1e12*one.Epsilons[i], 0, 1e-14) {
			t.Errorf("α=%v: 1e12 steps ε = %v, one step %v", one.Orders[i], huge.Epsilons[i], one.Epsilons[i])
		}
	}
	if eta := huge.WorstAdvantage(); eta != 1 && !(eta > 0.999999) {
		t.Errorf("1e12 steps: η = %v", eta)
	}
	small := DPSGD{NoiseMultiplier: 0.05, SampleRate: 0.01, Steps: 100}.RDP()
	for i, e := range small.Epsilons {
		if math.IsNaN(e) || math.IsInf(e, 0) || e <= 0 {
			t.Errorf("σ = 0.05, α=%v: ε = %v", small.Orders[i], e)
		}
	}
	if f, adv := small.TradeOff(0.01), small.Advantage(0.01); math.IsNaN(f) || math.IsNaN(adv) || f < 0 || adv > 0.99 {
		t.Errorf("σ = 0.05: f(0.01) = %v, adv %v", f, adv)
	}
	for _, m := range []DPSGD{{NoiseMultiplier: 1, SampleRate: 0, Steps: 10}, {NoiseMultiplier: 1, SampleRate: 0.5, Steps: 0}, {NoiseMultiplier: math.Inf(1), SampleRate: 0.5, Steps: 10}} {
		r := m.RDP()
		for _, e := range r.Epsilons {
			if e != 0 {
				t.Errorf("%+v: ε = %v, want 0", m, e)
			}
		}
		if r.Advantage(0.2) != 0 || r.WorstAdvantage() != 0 {
			t.Errorf("%+v: not perfectly private", m)
		}
	}
	for _, m := range []DPSGD{{NoiseMultiplier: 0, SampleRate: 0.5, Steps: 10}, {NoiseMultiplier: -1, SampleRate: 0.5, Steps: 10},
		{NoiseMultiplier: 1, SampleRate: 1.5, Steps: 10}, {NoiseMultiplier: 1, SampleRate: 0.5, Steps: -1},
		{NoiseMultiplier: math.NaN(), SampleRate: 0.5, Steps: 10}, {NoiseMultiplier: 1, SampleRate: math.NaN(), Steps: 10}} {
		r := m.RDP()
		for _, e := range r.Epsilons {
			if !math.IsInf(e, 1) {
				t.Errorf("%+v: ε = %v, want +Inf", m, e)
			}
		}
		if r.TradeOff(0.2) != 0 || r.WorstAdvantage() != 1 {
			t.Errorf("%+v: not vacuous", m)
		}
	}
	for _, a := range []float64{1, 0.5, math.Inf(1), math.NaN(), 2e5} {
		if e := SubsampledGaussianRDP(0.1, 1, a); !math.IsInf(e, 1) {
			t.Errorf("α = %v: ε = %v, want +Inf", a, e)
		}
	}
	o := DefaultRDPOrders()
	if len(o) != 156 || o[0] != 1.1 || o[9] != 2 || o[98] != 10.9 || o[99] != 11 || o[151] != 63 || o[155] != 1024 {
		t.Errorf("DefaultRDPOrders = %v", o)
	}
	o[0] = 99
	if DefaultRDPOrders()[0] != 1.1 {
		t.Errorf("DefaultRDPOrders shares its slice")
	}
}

func BenchmarkDPSGDRDP(b *testing.B) {
	for i := 0; i < b.N; i++ {
		benchGPT2.RDP()
	}
}

// The PLD accountant is tight and the RDP accountant is not: for every
// configuration of the DP-SGD benchmark (σ ∈ {0.6, 1, 2}, q ∈ {0.001,
// 0.01}, steps ∈ {10³, 10⁴, 10⁵}) ε at δ = 1e-5 must be lower under PLD
// accounting, and the worst-case advantage must be too. By default only
// σ = 1; every σ with RISKBATCH_LONG_TESTS=1.
func TestPLDBelowRDP(t *testing.T) {
	t.Parallel()
	sigmas, qs, stepss := []float64{1}, []float64{0.01}, []int{1000, 100000}
	if testenv.Long() {
		sigmas, qs, stepss = []float64{0.6, 1, 2}, []float64{0.001, 0.01}, []int{1000, 10000, 100000}
	}
	for _, sigma := range sigmas {
		for _, q := range qs {
			for _, steps := range stepss {
				p, err := pld.NewDPSGD([]pld.Stage{{NoiseMultiplier: sigma, SampleRate: q, Steps: steps}}, pld.Options{})
				if err != nil {
					t.Fatal(err)
				}
				r := DPSGD{NoiseMultiplier: sigma, SampleRate: q, Steps: steps}.RDP()
				tight, loose := p.Epsilon(1e-5), r.EpsilonAt(1e-5)
				if !(tight < loose) {
					t.Errorf("σ = %g, q = %g, steps = %d: PLD ε(1e-5) = %.5g is not below RDP's %.5g", sigma, q, steps, tight, loose)
				}
				if a, b := p.WorstAdvantage(), r.WorstAdvantage(); a > b && b < 1 {
					t.Errorf("σ = %g, q = %g, steps = %d: PLD η = %.5g above RDP's %.5g", sigma, q, steps, a, b)
				}
				t.Logf("σ = %g, q = %g, steps = %d: ε(1e-5) PLD %.4f, RDP %.4f (%.0f%% above)", sigma, q, steps, tight, loose, 100*(loose/tight-1))
			}
		}
	}
}

// Calibration to a risk target (Kulynych et al. 2025, §4.2 and Fig. 1:
// "≈ 20% less noise"; Kulynych et al. 2025: the GPT-2 sweep, q = 256/67,349,
// 792 steps, worst-case target 0.15, gives σ 0.7498 → 0.5715 on the paper's
// grid, 23.8% less noise). The PLD-calibrated σ must meet the target, be
// the smallest to the stated tolerance, and be below the RDP-calibrated σ.
// By default a cheap accountant (q = 0.05, 20 steps) only; the paper's
// setting at three targets with RISKBATCH_LONG_TESTS=1.
func TestNoiseForTargetPLD(t *testing.T) {
	t.Parallel()
	const gptQ, gptSteps = 0.0038010957846441, 792
	cases := []struct {
		target, baseline float64 // baseline NaN: worst case
		q                float64
		steps            int
		paper            bool // the paper's setting: check the reduction it reports
	}{
		{0.15, math.NaN(), 0.05, 20, false},
		{0.15, math.NaN(), gptQ, gptSteps, true},
		{0.25, math.NaN(), gptQ, gptSteps, true},
		{0.05, 0.01, gptQ, gptSteps, true},
	}
	if !testenv.Long() {
		cases = cases[:1] // a short run checks the search on a cheap accountant
	}
	for _, c := range cases {
		q, steps := c.q, c.steps
		rdpSigma, err := NoiseForTargetRDP(DPSGD{SampleRate: q, Steps: steps}, RDP{}, c.target, c.baseline)
		if err != nil {
			t.Fatal(err)
		}
		stages := []pld.Stage{{NoiseMultiplier: 1, SampleRate: q, Steps: steps}}
		sigma, builds, err := noiseForTargetPLD(stages, c.target, c.baseline, rdpSigma)
		if err != nil {
			t.Fatal(err)
		}
		risk := func(s float64) float64 {
			p, err := pld.NewDPSGD([]pld.Stage{{NoiseMultiplier: s, SampleRate: q, Steps: steps}}, pld.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return dpsgdRisk(PLDCurve{p}, c.baseline, !math.IsNaN(c.baseline))
		}
		if r := risk(sigma); r > c.target {
			t.Errorf("target %g (baseline %g): σ = %.6g has risk %.6g above the target", c.target, c.baseline, sigma, r)
		}
		if r := risk(sigma / (1 + 2*pldNoiseTolerance)); r <= c.target {
			t.Errorf("target %g (baseline %g): σ = %.6g is not the smallest: %.6g also meets it (risk %.6g)", c.target, c.baseline, sigma, sigma/(1+2*pldNoiseTolerance), r)
		}
		reduction := 1 - sigma/rdpSigma
		if c.paper && !(reduction > 0.05 && reduction < 0.4) {
			t.Errorf("target %g (baseline %g): PLD σ %.5g, RDP σ %.5g: reduction %.1f%% outside the 5–40%% the paper reports", c.target, c.baseline, sigma, rdpSigma, 100*reduction)
		}
		// The search costs far fewer accountants than a bisection to 1e-4
		// (about 16 after bracketing).
		if builds > 10 {
			t.Errorf("target %g: %d accountants built", c.target, builds)
		}
		t.Logf("target %g (baseline %g): σ PLD %.5f, RDP %.5f: %.1f%% less noise; %d accountants", c.target, c.baseline, sigma, rdpSigma, 100*reduction, builds)
	}
}

// rdpConcurrently must give RDP's values, bit for bit.
func TestRDPConcurrently(t *testing.T) {
	for _, m := range []DPSGD{{NoiseMultiplier: 1, SampleRate: 0.004, Steps: 3000}, {NoiseMultiplier: 0.6, SampleRate: 0.2, Steps: 10}, {NoiseMultiplier: 3, SampleRate: 1, Steps: 1}, {NoiseMultiplier: 2, SampleRate: 0.01, Steps: 0}} {
		want, got := m.RDP(), m.rdpConcurrently()
		if !slices.Equal(got.Orders, want.Orders) || !slices.Equal(got.Epsilons, want.Epsilons) {
			t.Errorf("%+v: rdpConcurrently differs from RDP", m)
		}
	}
}
