package audit

import (
	"errors"
	"math"
	"testing"
)

// halves returns n priors ½.
func halves(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 0.5
	}
	return p
}

// TestPriorRouteIsMembershipAtHalf checks the non-uniform route against
// Steinke et al. at p_i = ½: Swanberg et al.'s β_i = e^ε/(e^ε − 1 + 2) =
// σ(ε) is Steinke et al.'s success probability, so with n = r targets
// Thm 3.2 is their δ = 0 p-value, and Thm 3.5 has the same dual term with
// n·δ' in place of 2·m·δ: the routes agree when δ' = 2·m·δ/r. The δ
// constant is the only difference (2·m over m canaries for Steinke et al.,
// n over n targets for Swanberg et al.).
func TestPriorRouteIsMembershipAtHalf(t *testing.T) {
	const beta = 0.05
	for _, tc := range []struct {
		c     Counts
		delta float64
	}{
		{Counts{1000, 500, 400}, 1e-5},
		{Counts{1000, 600, 600}, 1e-6},
		{Counts{200, 200, 150}, 0},
	} {
		p := halves(tc.c.Guesses)
		which, deltaPrime := Thm32, 0.0
		if tc.delta > 0 {
			which, deltaPrime = Thm35, 2*float64(tc.c.Canaries)*tc.delta/float64(tc.c.Guesses)
		}
		for _, eps := range []float64{0, 0.5, 1.5} {
			want, err := MembershipPValue(tc.c, eps, tc.delta)
			if err != nil {
				t.Fatal(err)
			}
			got, err := TailBound(p, eps, deltaPrime, tc.c.Correct, which)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "Swanberg at ½ / Steinke", got/want, 1, 1e-12)
		}
		m, err := MembershipEpsilon(tc.c, tc.delta, beta)
		if err != nil {
			t.Fatal(err)
		}
		s, err := PriorEpsilon(p, tc.c.Correct, deltaPrime, which, beta)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "ε_lb Swanberg at ½ − Steinke", s.Value, m.Value, 1e-9)
		checkConservative(t, "PriorEpsilon", s, func(eps float64) bool {
			b, err := TailBound(p, eps, deltaPrime, tc.c.Correct, which)
			if err != nil {
				t.Fatal(err)
			}
			return b < beta
		})
	}
}

// TestPriorMonotone checks the prior-route bound grows with the successes
// and the significance and falls with δ, for heterogeneous priors.
func TestPriorMonotone(t *testing.T) {
	p := make([]float64, 60)
	for i := range p {
		p[i] = 0.2 + 0.6*float64(i)/59
	}
	var byK, bySig, byDelta []float64
	for _, k := range []int{45, 50, 55, 60} {
		lb, err := PriorEpsilon(p, k, 1e-5, Thm35, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		byK = append(byK, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb by successes", byK)
	for _, beta := range []float64{0.001, 0.01, 0.1} {
		lb, err := PriorEpsilon(p, 55, 0, Thm32, beta)
		if err != nil {
			t.Fatal(err)
		}
		bySig = append(bySig, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb by significance", bySig)
	for _, d := range []float64{1e-3, 1e-4, 1e-6} {
		lb, err := PriorEpsilon(p, 55, d, Cor34, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		byDelta = append(byDelta, lb.Value)
	}
	strictlyIncreasing(t, "ε_lb (Cor 3.4) by falling δ", byDelta)
}

// TestMembershipPriors checks the layout of the prior vectors for
// inclusion probability π and for k options.
func TestMembershipPriors(t *testing.T) {
	p, err := MembershipPriors(5, 2, 1, 0.2, Cor34)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.2, 0.2, 0.8, 0, 0}
	if len(p) != len(want) {
		t.Fatalf("Cor34 priors %v, want %v", p, want)
	}
	for i := range want {
		if p[i] != want[i] {
			t.Errorf("Cor34 priors %v, want %v", p, want)
		}
	}
	p, err = MembershipPriors(5, 2, 1, 0.2, Thm35)
	if err != nil || len(p) != 5 || p[0] != 0.8 || p[4] != 0.8 {
		t.Errorf("Thm35 priors %v %v, want five 0.8", p, err)
	}
	p, err = ReconstructionPriors(4, 3, 10, Thm32)
	if err != nil || len(p) != 3 || p[2] != 0.1 {
		t.Errorf("k = 10 priors %v %v, want three 0.1", p, err)
	}
	var ie *InputError
	if _, err := MembershipPriors(5, 4, 2, 0.3, Thm32); !errors.As(err, &ie) || ie.Input != "guesses" {
		t.Errorf("6 guesses of 5 canaries: %v", err)
	}
	if _, err := MembershipPriors(5, 1, 1, 1, Thm32); !errors.As(err, &ie) || ie.Input != "inclusion" {
		t.Errorf("π = 1: %v", err)
	}
}

// TestInclusionProbability checks the π ≠ ½ route on a membership audit
// whose canaries are included with probability 0.1: guessing "in" is then
// a bold guess, and 40 right "in" guesses out of 50 certify more than 40
// right out of 50 at π = ½ (where each guess is a coin flip a priori)
// would; "out" guesses, right a priori 90% of the time, certify less.
func TestInclusionProbability(t *testing.T) {
	bound := func(in, out int, pi float64) float64 {
		p, err := MembershipPriors(1000, in, out, pi, Thm32)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := PriorEpsilon(p, 40, 0, Thm32, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		return lb.Value
	}
	in, half, out := bound(50, 0, 0.1), bound(50, 0, 0.5), bound(0, 50, 0.1)
	if !(in > half && half > out) {
		t.Errorf("ε_lb: in-guesses at π = 0.1 %v, at π = ½ %v, out-guesses at π = 0.1 %v; want decreasing", in, half, out)
	}
	// logit β = logit p + ε: with 50 of 50 guesses right a p-value
	// Π β_i = σ(logit π + ε)^50 < 0.05 gives ε < logit(0.05^{1/50}) − logit π.
	p, _ := MembershipPriors(1000, 50, 0, 0.1, Thm32)
	lb, err := PriorEpsilon(p, 50, 0, Thm32, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	want := logit(math.Pow(0.05, 1.0/50)) - logit(0.1)
	if !(lb.Value <= want && want-lb.Value <= 2*searchTol) {
		t.Errorf("all 50 in-guesses right at π = 0.1: %.15g, closed form %.15g", lb.Value, want)
	}
}

// TestTailBoundInputs checks the errors of TailBound and PriorEpsilon.
func TestTailBoundInputs(t *testing.T) {
	var ie *InputError
	if _, err := TailBound(halves(3), 1, 1e-5, 2, Thm32); !errors.As(err, &ie) || ie.Input != "delta" {
		t.Errorf("Thm 3.2 with δ > 0: %v", err)
	}
	if _, err := TailBound([]float64{0.5, 1.5}, 1, 0, 1, Thm32); !errors.As(err, &ie) || ie.Input != "prior" {
		t.Errorf("p = 1.5: %v", err)
	}
	if _, err := PriorEpsilon(halves(3), 4, 0, Thm32, 0.05); !errors.As(err, &ie) || ie.Input != "successes" {
		t.Errorf("4 successes of 3 targets: %v", err)
	}
	if b, err := TailBound(halves(3), 1, 0, 4, Thm32); err != nil || b != 0 {
		t.Errorf("k > n: %v %v, want 0", b, err)
	}
	if b, err := TailBound(halves(3), 1, 1e-3, 0, Thm35); err != nil || b != 1 {
		t.Errorf("k = 0: %v %v, want 1", b, err)
	}
	if _, err := ParseBound("thm34", 0); err == nil {
		t.Error("thm34 accepted")
	}
	for s, want := range map[string]Bound{"": Thm35, "cor34": Cor34, "thm32": Thm32} {
		if b, err := ParseBound(s, 1e-5); err != nil || b != want {
			t.Errorf("ParseBound(%q) = %v %v, want %v", s, b, err, want)
		}
	}
}
