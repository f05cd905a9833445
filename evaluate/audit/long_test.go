package audit

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// TestMillionCanaries runs every method at m = 10^6 (the largest audit the
// row columns accept): the closed form for all-correct guesses at δ = 0,
// the conservative side of the membership and f-DP searches, and the prior
// route on two distinct priors (inclusion π = 0.3).
func TestMillionCanaries(t *testing.T) {
	testenv.SkipUnlessLong(t, "audits with 10^6 canaries")
	const m = 1000000
	all := Counts{m, m, m}
	lb, err := MembershipEpsilon(all, 0, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	want := logit(math.Pow(0.05, 1.0/m))
	if !(lb.Value <= want && want-lb.Value <= 2*searchTol) {
		t.Errorf("all %d right: %.15g, closed form %.15g", m, lb.Value, want)
	}
	c := Counts{m, m, 700000}
	lb, err = MembershipEpsilon(c, 1e-8, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	checkConservative(t, "membership 10^6", lb, membershipRefuted(t, c, 1e-8, 0.05))
	mu, err := FDPMu(c, 2, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	checkConservative(t, "FDPMu 10^6", mu, fdpRefuted(t, c, 2, 0.05, func(x float64) TradeOff { return GaussianTradeOff{x} }))
	p, err := MembershipPriors(m, 300000, 400000, 0.3, Thm32)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := PriorEpsilon(p, 500000, 0, Thm32, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	checkConservative(t, "prior 10^6", pr, func(eps float64) bool {
		b, err := TailBound(p, eps, 0, 500000, Thm32)
		if err != nil {
			t.Fatal(err)
		}
		return b < 0.05
	})
	t.Logf("ε_lb membership %.9f, μ_lb %.9f, prior π = 0.3: %.9f", lb.Value, mu.Value, pr.Value)
}
