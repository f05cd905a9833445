package pld

import (
	"math"
	"testing"
)

// The composition of Laplace mechanisms with b = 5 (ε = 0.2 per query) of
// Kulynych et al. 2025, App. G.1 (Fig. 6, middle pane: the advantage at
// baseline 0.1 stays below 0.2 for 15 queries and exceeds it at 16). The
// advantages at k = 1, 5, 10, 14, 15, 16 and the worst-case η at 1, 10, 15
// are read from the figure's curves with a PLD on a 0.001 grid (accuracy
// about 1e-3); k = 1 is also the closed form of the Laplace curve:
// 0.1·(e^{0.2} − 1) and 1 − e^{−0.1}.
func TestLaplaceCompositionG1(t *testing.T) {
	cases := []struct {
		k          int
		adv, worst float64 // worst 0: not read from the figure
	}{
		{1, 0.0221, 0.0952}, {5, 0.0983, 0}, {10, 0.1532, 0.2395}, {14, 0.1895, 0}, {15, 0.1976, 0.2947}, {16, 0.2065, 0},
	}
	for _, c := range cases {
		p := mustDPSGD(t, Stage{Mechanism: Laplace, Epsilon: 0.2, Steps: c.k})
		adv, worst := p.Advantage(0.1), p.WorstAdvantage()
		if math.Abs(adv-c.adv) > 1e-3 || (c.worst > 0 && math.Abs(worst-c.worst) > 1e-3) {
			t.Errorf("k = %d: advantage at 0.1 %.5f (figure %.4f), η %.5f (figure %.4f)", c.k, adv, c.adv, worst, c.worst)
		}
		e, err := p.Errors()
		if err != nil || e.Delta() > 1e-5 {
			t.Errorf("k = %d: error %+v, %v; want below 1e-5", c.k, e, err)
		}
		if c.k == 15 && adv >= 0.2 || c.k == 16 && adv <= 0.2 {
			t.Errorf("k = %d: advantage %.5f on the wrong side of the paper's 0.2 requirement", c.k, adv)
		}
	}
	// k = 1 against the closed forms, from above and within the error.
	p := mustDPSGD(t, Stage{Mechanism: Laplace, Epsilon: 0.2, Steps: 1})
	e, _ := p.Errors()
	for _, c := range []struct{ got, exact float64 }{
		{p.Advantage(0.1), 0.1 * math.Expm1(0.2)}, {p.WorstAdvantage(), -math.Expm1(-0.1)},
		{p.Delta(0.05), -math.Expm1(-0.075)}, // δ(ε') = 1 − e^{(ε'−ε)/2}
	} {
		if c.got < c.exact || c.got > c.exact+e.Delta() {
			t.Errorf("one Laplace step: %.15g, exact %.15g, error %.3g", c.got, c.exact, e.Delta())
		}
	}
}

// rrDeltaByEnumeration returns δ(x) = Σ_o (P(o) − e^x·Q(o))₊ over all k^c
// outputs of c-fold k-ary randomized response on inputs a = 0 and b = 1:
// an independent evaluation of the composed hockey-stick divergence.
func rrDeltaByEnumeration(eps float64, k, c int, x float64) float64 {
	p := math.Exp(eps) / (math.Exp(eps) + float64(k-1))
	q := 1 / (math.Exp(eps) + float64(k-1))
	prob := func(v, input int) float64 {
		if v == input {
			return p
		}
		return q
	}
	var delta float64
	total := int(math.Pow(float64(k), float64(c)))
	for o := 0; o < total; o++ {
		pp, qq := 1.0, 1.0
		for i, rest := 0, o; i < c; i, rest = i+1, rest/k {
			pp *= prob(rest%k, 0)
			qq *= prob(rest%k, 1)
		}
		delta += math.Max(pp-math.Exp(x)*qq, 0)
	}
	return delta
}

// Composed k-ary randomized response is exact: its privacy loss takes the
// values −ε, 0 and ε, all grid points on the grid step ε, so the PLD is
// the exact trinomial convolution, checked against an enumeration of every
// output sequence.
func TestRandomizedResponseCompositionExact(t *testing.T) {
	for _, eps := range []float64{0.3, 1, 2.5} {
		for _, k := range []int{2, 3, 5} {
			for _, c := range []int{1, 2, 4} {
				p := mustDPSGD(t, Stage{Mechanism: RandomizedResponse, Epsilon: eps, Categories: k, Steps: c})
				e, err := p.Errors()
				if err != nil || e.Discretisation != 0 || e.Delta() > 1e-14 {
					t.Errorf("ε = %g, k = %d, c = %d: error %+v, %v", eps, k, c, e, err)
				}
				for _, x := range []float64{0, 0.1, eps / 2, eps, 1.5 * eps, float64(c) * eps * 0.9} {
					got, want := p.Delta(x), rrDeltaByEnumeration(eps, k, c, x)
					if got < want*(1-1e-13)-1e-15 || got > want+1e-13 {
						t.Errorf("ε = %g, k = %d, c = %d: δ(%g) = %.16g, enumeration %.16g", eps, k, c, x, got, want)
					}
				}
			}
		}
	}
	// A motivating row: k = 100, ε = 1, two compositions.
	p := mustDPSGD(t, Stage{Mechanism: RandomizedResponse, Epsilon: 1, Categories: 100, Steps: 2})
	if got, want := p.WorstAdvantage(), rrDeltaByEnumeration(1, 100, 2, 0); got < want || got > want+1e-14 {
		t.Errorf("k = 100, ε = 1, c = 2: η = %.16g, enumeration %.16g", got, want)
	}
}

// The (ε, δ) stage of a single ε is the dominating pair of Kairouz, Oh &
// Viswanath 2015; its c-fold composition has the privacy profile of their
// Thm 3.3, δ_tot = 1 − (1 − δ)^c·(1 − Σ_l C(c, l)·(e^{(c−l)ε} −
// e^{x}·e^{lε})₊/(1 + e^ε)^c), here checked at x = 0 and x = ε for c = 3.
func TestEpsilonDeltaComposition(t *testing.T) {
	const eps, delta, c = 0.7, 1e-4, 3
	p := mustDPSGD(t, Stage{Mechanism: EpsilonDelta, Epsilon: eps, Delta: delta, Steps: c})
	binom := []float64{1, 3, 3, 1}
	for _, x := range []float64{0, eps} {
		var s float64
		for l := 0; l <= c; l++ {
			s += binom[l] * math.Max(math.Exp(float64(c-l)*eps)-math.Exp(x+float64(l)*eps), 0)
		}
		want := 1 - math.Pow(1-delta, c)*(1-s/math.Pow(1+math.Exp(eps), c))
		if got := p.Delta(x); got < want*(1-1e-13) || got > want+1e-13 {
			t.Errorf("δ(%g) = %.16g, Kairouz et al. %.16g", x, got, want)
		}
	}
}

// A mixture of Laplace, Gaussian and randomized-response stages composes
// in any order, and each stage of it only adds risk.
func TestMixedStages(t *testing.T) {
	lap := Stage{Mechanism: Laplace, Epsilon: 0.2, Steps: 10}
	gauss := sg(2, 1, 3)
	rr := Stage{Mechanism: RandomizedResponse, Epsilon: 0.5, Categories: 4, Steps: 2}
	ab, ba := mustDPSGD(t, lap, gauss, rr), mustDPSGD(t, rr, gauss, lap)
	one := mustDPSGD(t, lap)
	for _, x := range []float64{0, 0.5, 1, 2} {
		if d1, d2 := ab.Delta(x), ba.Delta(x); math.Abs(d1-d2) > 1e-4*d1+1e-12 {
			t.Errorf("δ(%g): %g in one order, %g in the other", x, d1, d2)
		}
		if ab.Delta(x) < one.Delta(x) {
			t.Errorf("δ(%g): the mixture %g below its Laplace stage alone %g", x, ab.Delta(x), one.Delta(x))
		}
	}
}

// Invalid stages of the other kinds are errors naming the field.
func TestInvalidOtherStages(t *testing.T) {
	for _, st := range []Stage{
		{Mechanism: Laplace, Epsilon: -1, Steps: 1}, {Mechanism: Laplace, Epsilon: math.Inf(1), Steps: 1},
		{Mechanism: Laplace, Epsilon: 1, Steps: 0}, {Mechanism: RandomizedResponse, Epsilon: 1, Categories: 1, Steps: 1},
		{Mechanism: EpsilonDelta, Epsilon: 1, Delta: 1, Steps: 1}, {Mechanism: EpsilonDelta, Epsilon: math.NaN(), Steps: 1},
		{Mechanism: Kind(9), Epsilon: 1, Steps: 1},
	} {
		if _, err := NewDPSGD([]Stage{st}, Options{}); err == nil {
			t.Errorf("%+v: no error", st)
		}
	}
}

// A Laplace stage of tiny ε beside a Gaussian stage: anchoring the grid on
// ε (step ε/2) would need more grid points than MaxGridPoints, so such an
// ε is not anchored and the composition has a result. It lies between the
// Gaussian stage alone (Balle & Wang 2018, Thm 8: gdpDelta) and the
// Gaussian stage at ε − 100·ε_L (the Laplace stages are 100·ε_L-DP, basic
// composition), plus the accountant's error.
func TestTinyLaplaceBesideGaussian(t *testing.T) {
	for _, e := range []float64{1e-6, 1e-9} {
		p := mustDPSGD(t, Stage{Mechanism: Laplace, Epsilon: e, Steps: 100}, Stage{NoiseMultiplier: 1, SampleRate: 1, Steps: 1})
		got, lo, hi := p.Delta(1), gdpDelta(1, 1), gdpDelta(1, 1-100*e)+mustErrors(t, p).Delta()
		if !(got >= lo && got <= hi) {
			t.Errorf("ε_L = %g: δ(1) = %.12g, want in [%.12g, %.12g]", e, got, lo, hi)
		}
	}
}
