package audit

import (
	"math"
	"testing"
)

// Reference values recomputed at 50 digits by testdata/gen_reference.py
// (mpmath only; output in testdata/reference.txt): exact binomial and
// Poisson-binomial sums and plain bisection to 1e-15, following the
// reference implementations named at each table. They share no code with
// this package (no saddle points, windows, log-space tails or regula
// falsi).

// checkLower asserts that a search result lies on the conservative side
// of an exact reference x: Value ≤ x (up to 1e-12) and x − Value ≤ tol.
// tol allows for the 1e-9 bracket plus the p-value slack.
func checkLower(t *testing.T, name string, lb LowerBound, x, tol float64) {
	t.Helper()
	if !(lb.Value <= x+1e-12 && x-lb.Value <= tol) {
		t.Errorf("%s = %.17g, reference %.17g: want at most %g below it and never above", name, lb.Value, x, tol)
	}
}

// TestReferenceSteinke: Steinke, Nasr & Jagielski 2023, their reference
// code p_value_DP_audit and get_eps_audit in the version with the δ term
// (as copied into public repositories, and as jax_privacy auditing.py
// _one_run_p_value and _epsilon_one_run compute it). (1000, 600, 600) and (100, 100, 100) at δ = 1e-5,
// 0.05 are the arguments of the demonstration calls in public copies of
// that code.
func TestReferenceSteinke(t *testing.T) {
	for _, tc := range []struct {
		c           Counts
		delta, beta float64
		eps         float64
	}{
		{Counts{1000, 600, 600}, 1e-5, 0.05, 5.270399463514682},
		{Counts{100, 100, 100}, 1e-5, 0.05, 3.4902159553263985},
		{Counts{1000, 500, 400}, 1e-5, 0.05, 1.1979686462773707},
		{Counts{10000, 2000, 1800}, 1e-6, 0.01, 2.0235082090113865},
	} {
		lb, err := MembershipEpsilon(tc.c, tc.delta, tc.beta)
		if err != nil {
			t.Fatal(err)
		}
		checkLower(t, "Steinke ε_lb", lb, tc.eps, 2e-9)
	}
	for _, tc := range []struct {
		c          Counts
		eps, delta float64
		p          float64
	}{
		{Counts{1000, 1000, 900}, 0.5, 0, 1.9451516227830542e-88}, // far tail
		{Counts{1000, 1000, 900}, 0.5, 1e-5, 6.3500295288817916e-5},
		{Counts{1000, 500, 400}, 1.0, 1e-5, 0.00059841865702365681},
	} {
		p, err := MembershipPValue(tc.c, tc.eps, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		if !(p >= tc.p*(1-1e-11) && p <= tc.p*(1+2*pValueSlack)) {
			t.Errorf("p-value %+v ε=%v δ=%v = %.17g, reference %.17g", tc.c, tc.eps, tc.delta, p, tc.p)
		}
	}
}

// TestReferenceMMC: Mahloujifar, Melis & Chaudhuri 2025, audit_rh_with_cap
// (facebookresearch/PrivacyGuard, privacy_guard/analysis/mia/
// fdp_analysis_node.py, alphabet size k; google-deepmind/jax_privacy
// auditing.py _epsilon_one_run_fdp for k = 2), with the Gaussian trade-off
// (μ) and the (ε, δ) trade-off (ε).
func TestReferenceMMC(t *testing.T) {
	for _, tc := range []struct {
		c       Counts
		k       int
		mu, eps float64
	}{
		{Counts{1000, 1000, 1000}, 2, 2.3680739004017326, 5.8090048152823117},
		{Counts{1000, 500, 400}, 2, 0.51875335752297858, 1.1898909649213953},
		{Counts{1000, 200, 120}, 10, 0.80733444496019846, 2.3447464080156522},
	} {
		mu, err := FDPMu(tc.c, tc.k, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkLower(t, "MMC μ_lb", mu, tc.mu, 1e-8)
		eps, err := FDPEpsilon(tc.c, tc.k, 1e-5, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkLower(t, "MMC ε_lb", eps, tc.eps, 1e-8)
	}
}

// TestReferenceSwanberg: Swanberg et al. 2025, Thm 3.5 and Cor 3.4 by the
// exact O(n²) Poisson-binomial DP. The heterogeneous priors
// linspace(0.3, 0.9, 100) at ε = 1, δ = 1e-5 give the 95% success upper
// bound v_UB = 85 (bound at 86 below 0.05, at 85 above); p = 0.56 for 100
// targets is the homogeneous proxy of the paper's §6.2 'SEX' column (95%
// bound 84), whose Thm 3.5 bound at 84 is 0.074001.
func TestReferenceSwanberg(t *testing.T) {
	lin := make([]float64, 100)
	for i := range lin {
		lin[i] = 0.3 + 0.6*float64(i)/99
	}
	sex := make([]float64, 100)
	for i := range sex {
		sex[i] = 0.56
	}
	for _, tc := range []struct {
		name  string
		p     []float64
		k     int
		which Bound
		want  float64
	}{
		{"linspace Thm 3.5 k=85", lin, 85, Thm35, 0.060122840373933434},
		{"linspace Cor 3.4 k=85", lin, 85, Cor34, 0.061042539476080223},
		{"linspace Thm 3.5 k=86", lin, 86, Thm35, 0.033648354161156115},
		{"linspace Cor 3.4 k=86", lin, 86, Cor34, 0.034573477059645059},
		{"SEX Thm 3.5 k=84", sex, 84, Thm35, 0.074000556753707378},
	} {
		got, err := TailBound(tc.p, 1, 1e-5, tc.k, tc.which)
		if err != nil {
			t.Fatal(err)
		}
		if !(got >= tc.want*(1-1e-11) && got <= tc.want*(1+2*pValueSlack)) {
			t.Errorf("%s = %.17g, reference %.17g", tc.name, got, tc.want)
		}
	}
	lb, err := PriorEpsilon(lin, 95, 1e-5, Thm35, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	checkLower(t, "Swanberg Thm 3.5 ε_lb, 95 of 100", lb, 1.951601965076458, 2e-9)
	if math.IsNaN(lb.PValue) || lb.PValue >= 0.05 {
		t.Errorf("p-value at the bound %v, want below 0.05", lb.PValue)
	}
}

// TestReferencePublishedAudits: ε lower bounds published by a third-party
// run of Steinke et al.'s one-run estimator (δ = 1e-5, 500 canaries, 250
// members): the "empirical_epsilon" entries of audit_results.json on
// Hugging Face, codedp-ase26/codedp-cpt-models and
// melihcatal/codedp-cpt-models, starcoder2-7b/{dp3, dp8, base}. Their
// bisection (get_eps_audit: 30 halvings of [0, ⌈ε⌉]) resolves ε to about
// 4e-9, so agreement is asked to 5e-9.
func TestReferencePublishedAudits(t *testing.T) {
	for _, tc := range []struct {
		where     string
		c         Counts
		beta, eps float64
	}{
		{"dp3 loss, 0.05", Counts{500, 100, 60}, 0.05, 0.05073561053723097},
		{"dp8 loss, 0.05", Counts{500, 35, 23}, 0.05, 0.014548719860613346},
		{"base loss, 0.05", Counts{500, 100, 100}, 0.05, 3.4791953936219215},
		{"base loss, 0.01", Counts{500, 100, 100}, 0.01, 3.023197554051876},
	} {
		lb, err := MembershipEpsilon(tc.c, 1e-5, tc.beta)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "published ε_lb "+tc.where, lb.Value, tc.eps, 5e-9)
	}
}

// TestReferencePrivacyGuardTutorial: the f-DP audit's published example
// in facebookresearch/PrivacyGuard (commit
// fb9c26ca70f5de4a145a8d01a36cf0415851ccb9), tutorial_notebooks/
// fdp_analysis_tutorial.ipynb ("Basic FDP analysis example": m = 100,
// c = 70, c' = 80, k = 2, threshold 0.05, δ = 1e-6 by default) prints
// "Epsilon: 3.2906". That code tries the noise levels σ = 0.001 + 0.01·i in
// turn, stops at the first μ = 1/σ the recursion refutes, and converts it
// to ε at δ with a bisection of width 0.001 that returns its upper end: so
// the printed value is GaussianEpsilon(1/σ*) for the first grid σ* above
// 1/μ_lb, plus at most 0.001 (plus 5e-5 for the printed rounding). The ε so
// derived is the Gaussian one, not a lower bound for (ε, δ)-DP in general.
func TestReferencePrivacyGuardTutorial(t *testing.T) {
	mu, err := FDPMu(Counts{100, 80, 70}, 2, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	sigma := math.NaN()
	for i := range 1000 {
		if s := 0.001 + float64(i)*0.01; 1/s < mu.Value {
			sigma = s
			break
		}
	}
	eps, err := GaussianEpsilon(1/sigma, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if d := 3.2906 - eps; !(d >= -5e-5 && d <= 0.001+5e-5) {
		t.Errorf("ε from the grid μ = %v: %v, printed 3.2906 (want at most 0.001 above)", 1/sigma, eps)
	}
}
