package curve

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
)

func mustStages(t testing.TB, stages ...pld.Stage) *Composition {
	t.Helper()
	c, err := Compose(stages, nil)
	if err != nil {
		t.Fatalf("Compose(%+v): %v", stages, err)
	}
	return c
}

// compBaselines are the baselines at which the composed curves are
// compared with the optimal composition theorem.
var compBaselines = []float64{1e-9, 1e-6, 1e-4, 0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99}

// The exact composition is never looser than the optimal composition
// theorem for (ε, 0)-DP mechanisms (Kairouz, Oh & Viswanath 2015, Thm 3.3)
// at any baseline, and strictly tighter in the worst case for Laplace and
// for randomized response with k > 2; its reported error bounds the gap to
// the exact value.
func TestCompositionNeverLooserThanKOV(t *testing.T) {
	cases := []struct {
		name    string
		st      pld.Stage
		eps     float64
		tighter bool
	}{
		{"laplace b=5 x15", pld.Stage{Mechanism: pld.Laplace, Epsilon: 0.2, Steps: 15}, 0.2, true},
		{"laplace eps=1 x3", pld.Stage{Mechanism: pld.Laplace, Epsilon: 1, Steps: 3}, 1, true},
		{"laplace eps=0.5 x40", pld.Stage{Mechanism: pld.Laplace, Epsilon: 0.5, Steps: 40}, 0.5, true},
		{"rr k=100 eps=1 x2", pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 1, Categories: 100, Steps: 2}, 1, true},
		{"rr k=3 eps=0.5 x10", pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 0.5, Categories: 3, Steps: 10}, 0.5, true},
		{"rr k=20 eps=0.3 x300", pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 0.3, Categories: 20, Steps: 300}, 0.3, true},
		// Very many categories: private whatever ε, where the theorem
		// leaves nothing (η = 1).
		{"rr k=1e9 eps=1.12 x1000", pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 1.12, Categories: 1e9, Steps: 1000}, 1.12, true},
		{"rr k=2 eps=1 x7", pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 1, Categories: 2, Steps: 7}, 1, false},
		{"pure eps=0.3 x12", pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: 0.3, Steps: 12}, 0.3, false},
	}
	for _, c := range cases {
		comp := mustStages(t, c.st)
		kov := mustCompose(t, c.eps, 0, c.st.Steps)
		for _, b := range compBaselines {
			if got, old := comp.Advantage(b), kov.Advantage(b); got > old {
				t.Errorf("%s: advantage at %g is %.17g, above the optimal composition theorem's %.17g", c.name, b, got, old)
			}
		}
		got, old := comp.WorstAdvantage(), kov.WorstAdvantage()
		if got > old || c.tighter && !(got < old-1e-3) {
			t.Errorf("%s: η %.6f against the optimal composition theorem's %.6f (strictly tighter: %v)", c.name, got, old, c.tighter)
		}
		if e, err := comp.Error(); err != nil || e > 1e-4 || (!c.tighter && e != 0) {
			t.Errorf("%s: error %g, %v (%s)", c.name, e, err, comp.Method())
		}
	}
}

// Two motivating rows: 15 Laplace(b = 5) queries at baseline 0.1, whose
// advantage Kulynych et al. 2025 (App. G.1, Fig. 6) put at about 0.1976
// against 0.2020 for the (ε, 0) route; and two compositions of 100-ary
// randomized response at ε = 1, where the (ε, 0) route gives
// η = (e − 1)/(e + 1) = tanh(1/2) ≈ 0.462 (Kairouz, Oh & Viswanath 2015,
// Thm 3.3 at k = 2, x = 0: (e/(1 + e))²·(1 − e^{−2})) and the exact
// composition 0.0332 (summed over the 100² output pairs below).
func TestCompositionMotivatingRows(t *testing.T) {
	lap := mustStages(t, pld.Stage{Mechanism: pld.Laplace, Epsilon: 0.2, Steps: 15})
	if got := lap.Advantage(0.1); math.Abs(got-0.1976) > 1e-3 || got >= mustCompose(t, 0.2, 0, 15).Advantage(0.1) {
		t.Errorf("15 Laplace queries: advantage at 0.1 = %.6f", got)
	}
	rr := mustStages(t, pld.Stage{Mechanism: pld.RandomizedResponse, Epsilon: 1, Categories: 100, Steps: 2})
	// δ(0) = Σ (P − Q)₊ over output pairs; with p = e/(e + 99), q = 1/(e + 99):
	// outputs (a, a): p² − q²; (a, o) and (o, a) for o ∉ {a, b}: 2·98·(pq − q²).
	p, q := math.E/(math.E+99), 1/(math.E+99)
	want := p*p - q*q + 2*98*(p*q-q*q)
	if got := rr.WorstAdvantage(); got < want || got > want+1e-14 {
		t.Errorf("100-ary randomized response twice: η = %.16g, exact %.16g", got, want)
	}
	if old, want := mustCompose(t, 1, 0, 2).WorstAdvantage(), math.Tanh(0.5); old < want || old > want+1e-12 {
		t.Errorf("the (ε, 0) route gives %.16g, not tanh(1/2) = %.16g", old, want)
	}
}

// Gaussian stages compose in closed form, and a mixture is its PLD.
func TestCompositionMethods(t *testing.T) {
	g := mustStages(t, pld.Stage{NoiseMultiplier: 2, SampleRate: 1, Steps: 3}, pld.Stage{NoiseMultiplier: 1, SampleRate: 1, Steps: 1})
	if g.Method() != MethodGaussian || math.Abs(g.WorstAdvantage()-(Gaussian{Mu: math.Sqrt(1.75)}).WorstAdvantage()) > 1e-15 {
		t.Errorf("Gaussian stages: %s, η %v", g.Method(), g.WorstAdvantage())
	}
	pure := mustStages(t, pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: 0.5, Delta: 1e-6, Steps: 4}, pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: 0.5, Delta: 1e-6, Steps: 6})
	if pure.Method() != MethodKairouz || pure.WorstAdvantage() != mustCompose(t, 0.5, 1e-6, 10).WorstAdvantage() {
		t.Errorf("(ε, δ) stages of one (ε, δ): %s", pure.Method())
	}
	mix := mustStages(t, pld.Stage{Mechanism: pld.Laplace, Epsilon: 0.2, Steps: 10}, pld.Stage{NoiseMultiplier: 2, SampleRate: 1, Steps: 3})
	if mix.Method() != MethodPLD || mix.PLD() == nil {
		t.Errorf("a mixture: %s", mix.Method())
	}
	// The mixture is riskier than either part.
	lap := mustStages(t, pld.Stage{Mechanism: pld.Laplace, Epsilon: 0.2, Steps: 10})
	if !(mix.WorstAdvantage() > lap.WorstAdvantage() && mix.WorstAdvantage() > (Gaussian{Mu: math.Sqrt(0.75)}).WorstAdvantage()) {
		t.Errorf("a mixture's η %.6f, Laplace's %.6f", mix.WorstAdvantage(), lap.WorstAdvantage())
	}
	if _, err := Compose(nil, nil); err == nil {
		t.Error("no stages: no error")
	}
}
