package audit

import (
	"errors"
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// TestMembershipAllCorrectClosedForm checks the closed form for v = r at
// δ = 0. Derivation: the p-value is Pr[Binomial(r, σ(ε)) ≥ r] = σ(ε)^r,
// which increases in ε, so the refuted claims are σ(ε)^r < β, i.e.
// σ(ε) < β^{1/r}, i.e. ε < logit(β^{1/r}); the lower bound is
// logit(β^{1/r}), positive exactly when β < 2^{−r}.
func TestMembershipAllCorrectClosedForm(t *testing.T) {
	for _, tc := range []struct {
		m, r int
		beta float64
	}{
		{1000, 1000, 0.05}, {1000, 100, 0.05}, {50, 10, 0.01}, {5, 5, 0.05}, {10000, 3000, 1e-6},
	} {
		c := Counts{tc.m, tc.r, tc.r}
		lb, err := MembershipEpsilon(c, 0, tc.beta)
		if err != nil {
			t.Fatal(err)
		}
		want := logit(math.Pow(tc.beta, 1/float64(tc.r)))
		if !(lb.Value <= want && want-lb.Value <= 2*searchTol) {
			t.Errorf("%+v β=%v: ε_lb = %.15g, closed form %.15g (want at most 2e-9 below)", c, tc.beta, lb.Value, want)
		}
		checkConservative(t, "membership closed form", lb, membershipRefuted(t, c, 0, tc.beta))
	}
	// 2^−4 = 0.0625 ≥ 0.05: four canaries can never refute ε = 0.
	lb, err := MembershipEpsilon(Counts{4, 4, 4}, 0, 0.05)
	if err != nil || lb.Value != 0 || !hasWarning(lb.Warnings, TooFewCanaries) || !hasWarning(lb.Warnings, NothingCertified) {
		t.Errorf("4 canaries: %+v, %v; want 0 with too-few-canaries", lb, err)
	}
}

// TestMembershipMonotone checks that the bound grows with the correct
// guesses and the significance (falls with the confidence) and falls with
// δ, each search on its conservative side.
func TestMembershipMonotone(t *testing.T) {
	var byCorrect, bySig, byDelta []float64
	for _, v := range []int{330, 360, 400, 450, 500} {
		c := Counts{1000, 500, v}
		lb, err := MembershipEpsilon(c, 1e-6, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkConservative(t, "membership by correct", lb, membershipRefuted(t, c, 1e-6, 0.05))
		byCorrect = append(byCorrect, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb by correct", byCorrect)
	c := Counts{1000, 500, 400}
	for _, conf := range []float64{0.999, 0.99, 0.95, 0.8} {
		beta, err := Significance(conf, 1)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := MembershipEpsilon(c, 1e-6, beta)
		if err != nil {
			t.Fatal(err)
		}
		bySig = append(bySig, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb by falling confidence", bySig)
	for _, d := range []float64{1e-3, 1e-4, 1e-5, 1e-7, 0} {
		lb, err := MembershipEpsilon(c, d, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		checkConservative(t, "membership by δ", lb, membershipRefuted(t, c, d, 0.05))
		byDelta = append(byDelta, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb by falling δ", byDelta)
}

// TestMembershipDeltaTerm checks the δ term against its definition on a
// small case summed by hand: r = 3, v = 3, ε = 0 (q = ½): f(3) = 1/8 and
// α = max(f(2) − f(3), (f(1) − f(3))/2, (f(0) − f(3))/3)
// = max(3/8, 3/8, 7/24) = 3/8, so p = 1/8 + 2·m·δ·3/8.
func TestMembershipDeltaTerm(t *testing.T) {
	c := Counts{10, 3, 3}
	p, err := MembershipPValue(c, 0, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.125 + 2*10*1e-3*0.375
	if !(p >= want && p <= want*(1+2*pValueSlack)) {
		t.Errorf("p = %.17g, want %.17g raised by at most 2e-9 relative", p, want)
	}
	a := Audit{Method: Membership, Counts: c, Delta: 1e-3}
	if got := a.DeltaTerm(); got != "2·m·δ·α = 0.02·α (Steinke et al. 2023, Thm 3)" {
		t.Errorf("DeltaTerm = %q", got)
	}
	lb, err := MembershipEpsilon(Counts{1000, 100, 100}, 1e-5, 0.05)
	if err != nil || !hasWarning(lb.Warnings, DeltaTermLarge) {
		t.Errorf("2·m·δ = 0.02 against 0.05: %+v %v, want a delta warning", lb.Warnings, err)
	}
	lb, err = MembershipEpsilon(Counts{1000, 100, 100}, 1e-7, 0.05)
	if err != nil || len(lb.Warnings) != 0 {
		t.Errorf("2·m·δ = 2e-4 against 0.05: %+v %v, want no warning", lb.Warnings, err)
	}
}

// TestMembershipInputs checks the typed errors naming the input at fault.
func TestMembershipInputs(t *testing.T) {
	for _, tc := range []struct {
		c     Counts
		delta float64
		input string
	}{
		{Counts{10, 11, 5}, 0, "guesses"},
		{Counts{10, 5, 6}, 0, "correct"},
		{Counts{0, 0, 0}, 0, "canaries"},
		{Counts{10, 5, -1}, 0, "correct"},
		{Counts{10, 5, 5}, 1, "delta"},
		{Counts{10, 5, 5}, math.NaN(), "delta"},
	} {
		_, err := MembershipEpsilon(tc.c, tc.delta, 0.05)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Input != tc.input {
			t.Errorf("%+v δ=%v: error %v, want one naming %s", tc.c, tc.delta, err, tc.input)
		}
	}
	if _, err := MembershipPValue(Counts{10, 5, 5}, -1, 0); err == nil {
		t.Error("ε = −1 accepted")
	}
	if _, err := MembershipEpsilon(Counts{10, 5, 5}, 0, 0); err == nil {
		t.Error("significance 0 accepted")
	}
}

// TestSignificance checks the Bonferroni division and its domain.
func TestSignificance(t *testing.T) {
	beta, err := Significance(0.95, 10)
	near(t, "Significance(0.95, 10)", beta, 0.005, 1e-17)
	if err != nil {
		t.Fatal(err)
	}
	beta, err = PerTest(0.05, 4)
	if err != nil || beta != 0.0125 {
		t.Errorf("PerTest(0.05, 4) = %v, %v", beta, err)
	}
	for _, bad := range []func() (float64, error){
		func() (float64, error) { return Significance(1, 1) },
		func() (float64, error) { return Significance(0.95, 0) },
		func() (float64, error) { return PerTest(0, 1) },
	} {
		if _, err := bad(); err == nil {
			t.Error("invalid level accepted")
		}
	}
}

// A significance at the edge of the normal floats and a subnormal one (a
// tiny confidence budget split over many tests)
// still gives a bound the data supports: its p-value is below the
// significance. math.Log is off by several units for subnormal arguments
// on some platforms (log(1e-310) ≈ −713.8, not −709.1), which once made
// the threshold too lenient.
func TestMembershipSubnormalSignificance(t *testing.T) {
	for _, beta := range []float64{1e-308, 1e-315} { // normal, then subnormal (7 digits left)
		res, err := MembershipEpsilon(Counts{Canaries: 1100, Guesses: 1100, Correct: 1100}, 0, beta)
		if err != nil {
			t.Fatalf("β = %g: %v", beta, err)
		}
		if !(res.PValue < beta) {
			t.Errorf("β = %g: ε ≥ %v with p-value %g, not below β", beta, res.Value, res.PValue)
		}
		// All correct at δ = 0: the closed form ε = logit(β^{1/r}) bounds it.
		if want := numeric.Logit(math.Exp(numeric.LogPos(beta) / 1100)); res.Value > want+1e-9 {
			t.Errorf("β = %g: ε = %v above the closed form %v", beta, res.Value, want)
		}
	}
}
