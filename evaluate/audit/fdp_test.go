package audit

import (
	"math"
	"testing"
)

// fdpRefuted returns the f-DP test at (c, k, τ) for the curve family as a
// predicate of its parameter.
func fdpRefuted(t *testing.T, c Counts, k int, tau float64, curve func(float64) TradeOff) func(float64) bool {
	return func(x float64) bool {
		ok, err := FDPRejects(c, k, curve(x), tau)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
}

// TestFDPSingleCanary checks the recursion with one canary guessed right
// (m = c' = c = 1) against its closed form: r_0 = τ, h_0 = (k − 1)·f(1 − τ),
// so f is refuted exactly when τ + (k − 1)·f(1 − τ) > 1. For f_{ε,δ} the
// boundary is τ* = (e^ε + (k − 1)δ)/(e^ε + k − 1), which Swanberg et al.
// 2025 §4.4 (Fig. 1) note coincides with their Thm 3.5 at n = 1, p = 1/k:
// β + (1 − β)δ with β = e^ε/(e^ε − 1 + k). For the Gaussian trade-off and
// k = 2 the boundary is Φ(μ/2).
func TestFDPSingleCanary(t *testing.T) {
	one := Counts{1, 1, 1}
	const delta = 1e-5
	for _, k := range []int{2, 10, 100} {
		for _, eps := range []float64{1, 2, 4} {
			e := math.Exp(eps)
			star := (e + float64(k-1)*delta) / (e + float64(k-1))
			thm35, err := TailBound([]float64{1 / float64(k)}, eps, delta, 1, Thm35)
			if err != nil {
				t.Fatal(err)
			}
			if !(thm35 >= star*(1-1e-15) && thm35 <= star*(1+2*pValueSlack)) {
				t.Errorf("Thm 3.5 at n = 1, k = %d, ε = %v: %.17g, want %.17g raised by at most 2e-9", k, eps, thm35, star)
			}
			f := EpsDeltaTradeOff{eps, delta}
			above, _ := FDPRejects(one, k, f, star*(1+1e-7))
			below, _ := FDPRejects(one, k, f, star*(1-1e-7))
			if !above || below {
				t.Errorf("k=%d ε=%v: boundary not at %v (refuted above: %v, below: %v)", k, eps, star, above, below)
			}
		}
	}
	for _, mu := range []float64{0.5, 1, 2} {
		star := normCDF(mu / 2)
		above, _ := FDPRejects(one, 2, GaussianTradeOff{mu}, star*(1+1e-7))
		below, _ := FDPRejects(one, 2, GaussianTradeOff{mu}, star*(1-1e-7))
		if !above || below {
			t.Errorf("μ=%v: boundary not at Φ(μ/2) = %v", mu, star)
		}
	}
}

// TestFDPMonotone checks the μ and ε bounds grow with the correct guesses
// and the significance and (ε) fall with δ, each search conservative.
func TestFDPMonotone(t *testing.T) {
	gauss := func(mu float64) TradeOff { return GaussianTradeOff{mu} }
	var mus, epss []float64
	for _, v := range []int{330, 360, 400, 450, 500} {
		c := Counts{1000, 500, v}
		mu, err := FDPMu(c, 2, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkConservative(t, "FDPMu", mu, fdpRefuted(t, c, 2, 0.05, gauss))
		eps, err := FDPEpsilon(c, 2, 1e-5, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkConservative(t, "FDPEpsilon", eps, fdpRefuted(t, c, 2, 0.05,
			func(e float64) TradeOff { return EpsDeltaTradeOff{e, 1e-5} }))
		mus, epss = append(mus, mu.Value), append(epss, eps.Value)
	}
	strictlyIncreasing(t, "μ_lb by correct", mus)
	strictlyIncreasing(t, "ε_lb (f-DP) by correct", epss)
	c := Counts{1000, 200, 120}
	var bySig, byDelta []float64
	for _, beta := range []float64{0.001, 0.01, 0.05, 0.2} {
		lb, err := FDPMu(c, 10, beta)
		if err != nil {
			t.Fatal(err)
		}
		bySig = append(bySig, lb.Value)
	}
	strictlyIncreasing(t, "μ_lb (k = 10) by significance", bySig)
	for _, d := range []float64{1e-3, 1e-4, 1e-6, 0} {
		lb, err := FDPEpsilon(c, 10, d, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		byDelta = append(byDelta, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb (k = 10) by falling δ", byDelta)
}

// TestFDPNothingCertified checks the warnings when nothing is refuted.
func TestFDPNothingCertified(t *testing.T) {
	lb, err := FDPMu(Counts{1000, 100, 50}, 2, 0.05) // chance level
	if err != nil || lb.Value != 0 || !hasWarning(lb.Warnings, NothingCertified) || hasWarning(lb.Warnings, TooFewCanaries) {
		t.Errorf("chance-level guesses: %+v %v", lb, err)
	}
	// One canary: τ + f(1 − τ) = 2τ > 1 needs τ > ½ at μ = 0.
	lb, err = FDPMu(Counts{1, 1, 1}, 2, 0.05)
	if err != nil || lb.Value != 0 || !hasWarning(lb.Warnings, TooFewCanaries) {
		t.Errorf("one canary: %+v %v", lb, err)
	}
	if !math.IsNaN(lb.PValue) {
		t.Errorf("f-DP PValue = %v, want NaN", lb.PValue)
	}
}

// TestGaussianEpsilon checks ε(μ, δ) against μ-GDP's privacy profile
// (Dong, Roth & Su 2022, Cor 2.13): δ(ε = 1) = 0.126937 at μ = 1 (Python
// statistics.NormalDist), and μ = 0.268051 is (1, 1e-5)-DP (Swanberg et
// al. 2025 §6.1 calibration, computed by bisection).
func TestGaussianEpsilon(t *testing.T) {
	eps, err := GaussianEpsilon(1, 0.126937)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ε(μ = 1, δ = 0.126937)", eps, 1, 1e-5)
	eps, err = GaussianEpsilon(0.268051, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ε(μ = 0.268051, δ = 1e-5)", eps, 1, 1e-4)
	if eps, err := GaussianEpsilon(0.1, 0.5); err != nil || eps != 0 {
		t.Errorf("δ above the profile at 0: %v %v, want 0", eps, err)
	}
}
