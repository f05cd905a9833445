package dataset

import (
	"math"
	"math/big"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// stagesRisk composes stages (curve.Compose with its own accountant) and
// returns the target's Risk of the total: the Risk of a Problem whose
// unknown is a parameter of one of the stages.
func stagesRisk(target Target, stages []pld.Stage) (Risk, error) {
	c, err := curve.Compose(stages, nil)
	if err != nil {
		return Risk{}, err
	}
	return target.ComposedRisk(c)
}

// composedRisk is stagesRisk for a test that cannot go on without it.
func composedRisk(t *testing.T, target Target, stages []pld.Stage) Risk {
	t.Helper()
	r, err := stagesRisk(target, stages)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestComposedRisk: the Risk of a mixed total (DP-SGD, Laplace and
// Gaussian stages: the PLD accountant) is each column's value of the
// composed curve, with the accountant's error as the Error, and for ε at
// δ the ε at δ less the error.
func TestComposedRisk(t *testing.T) {
	stages := []pld.Stage{
		{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 50},
		{Mechanism: pld.Laplace, Epsilon: 0.05, Steps: 4},
		{NoiseMultiplier: 5, SampleRate: 1, Steps: 3},
	}
	c, err := curve.Compose(stages, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.Error()
	if err != nil || !(e > 0) {
		t.Fatalf("the accountant's error %g, %v: want > 0", e, err)
	}
	adv, _ := Target{Kind: TargetAdvantage, Value: 0.5}.ComposedRisk(c)
	if want := numeric.RoundUp(c.WorstAdvantage(), 0, 1); adv.Bound != want || adv.Error != e {
		t.Errorf("advantage: %+v, want {%g %g}", adv, want, e)
	}
	const b = 0.01
	suc, _ := Target{Kind: TargetSuccess, Value: 0.5, Baseline: b}.ComposedRisk(c)
	if want := numeric.RoundUp(b+c.Advantage(b), b, 1); suc.Bound != want || suc.Error != e || !(suc.Bound > b) {
		t.Errorf("success: %+v, want {%g %g}", suc, want, e)
	}
	// ε is read at δ − error rounded down (math/big rounded towards −∞):
	// at nearest it is above the exact difference for about half these δ,
	// and the ε read there below the one at the exact difference for some.
	var nearer int
	for k := range 5000 {
		delta := 1e-4 * (1 + float64(k)/97)
		eps, _ := Target{Kind: TargetEpsilon, Value: 5, Delta: delta}.ComposedRisk(c)
		down, _ := new(big.Float).SetPrec(53).SetMode(big.ToNegativeInf).Sub(big.NewFloat(delta), big.NewFloat(e)).Float64()
		if want := c.EpsilonAt(down); eps.Bound != want || eps.Error != 0 || !(eps.Bound >= c.EpsilonAt(delta)) {
			t.Errorf("ε at δ = %.17g: %+v, want {%.17g 0}, at least %g", delta, eps, want, c.EpsilonAt(delta))
		}
		if c.EpsilonAt(delta-e) < eps.Bound {
			nearer++
		}
	}
	if nearer == 0 {
		t.Error("no δ where δ − error rounded to nearest gives a smaller ε: the check above tests nothing")
	}
	if r, _ := (Target{Kind: TargetEpsilon, Value: 5, Delta: e / 2}).ComposedRisk(c); !math.IsInf(r.Bound, 1) {
		t.Errorf("ε at a δ below the error: %+v, want +Inf", r)
	}
}

// TestSolveMixedPure: the largest number of Laplace releases of ε beside
// randomized response and (ε, 0) releases of the same ε (the PLD
// accountant, or the optimal composition theorem of Kairouz, Oh &
// Viswanath 2015 where tighter) that meets an advantage or success
// target: k meets, k + 1 does not, composed again.
func TestSolveMixedPure(t *testing.T) {
	const eps = 0.05
	others := []pld.Stage{
		{Mechanism: pld.EpsilonDelta, Epsilon: eps, Steps: 7},
		{Mechanism: pld.RandomizedResponse, Epsilon: eps, Categories: 2, Steps: 3},
	}
	stagesWith := func(k int) []pld.Stage {
		if k == 0 {
			return others
		}
		return withStage(others, pld.Stage{Mechanism: pld.Laplace, Epsilon: eps, Steps: k})
	}
	for _, target := range []Target{{Kind: TargetAdvantage, Value: 0.3}, {Kind: TargetSuccess, Value: 0.05, Baseline: 0.01}} {
		sol, err := Solve(Problem{Target: target, Integer: true, Increasing: true, Lo: 0, Hi: 1 << 20, Start: 10,
			Risk: func(k float64) (Risk, error) { return stagesRisk(target, stagesWith(int(k))) }})
		if err != nil {
			t.Fatalf("%+v: %v", target, err)
		}
		k := int(sol.Value)
		at, next := composedRisk(t, target, stagesWith(k)), composedRisk(t, target, stagesWith(k+1))
		if !target.Meets(at.Bound, at.Error) || target.Meets(next.Bound, next.Error) || k < 1 {
			t.Errorf("%+v: k = %d reaches %+v, k + 1 %+v", target, k, at, next)
		}
		t.Logf("%v %g: k = %d (%d evaluations)", target.Kind, target.Value, k, sol.Evaluations)
	}
}

// TestSolveMixedDPSGD: the steps of a DP-SGD row, and then its noise
// multiplier, solved beside Laplace and Gaussian rows against targets on
// the PLD accountant's total with its error counted against them; the
// answer meets the target composed again, the next more aggressive value
// does not.
func TestSolveMixedDPSGD(t *testing.T) {
	testenv.SkipUnlessLong(t, "the PLD accountant composed at ~30 candidates, 50–150 ms each")
	others := []pld.Stage{
		{Mechanism: pld.Laplace, Epsilon: 0.05, Steps: 4},
		{NoiseMultiplier: 5, SampleRate: 1, Steps: 3},
	}
	with := func(st pld.Stage) []pld.Stage { return append([]pld.Stage{st}, others...) }
	target := Target{Kind: TargetAdvantage, Value: 0.25}
	steps, err := Solve(Problem{Target: target, Integer: true, Increasing: true, Lo: 1, Hi: 1 << 30, Start: 100,
		Risk: func(k float64) (Risk, error) {
			return stagesRisk(target, with(pld.Stage{NoiseMultiplier: 1, SampleRate: 0.01, Steps: int(k)}))
		}})
	if err != nil {
		t.Fatal(err)
	}
	k := int(steps.Value)
	at := composedRisk(t, target, with(pld.Stage{NoiseMultiplier: 1, SampleRate: 0.01, Steps: k}))
	next := composedRisk(t, target, with(pld.Stage{NoiseMultiplier: 1, SampleRate: 0.01, Steps: k + 1}))
	if !target.Meets(at.Bound, at.Error) || target.Meets(next.Bound, next.Error) {
		t.Errorf("steps %d reach %+v, %d reach %+v", k, at, k+1, next)
	}
	t.Logf("steps: %d (%d evaluations)", k, steps.Evaluations)

	// ε at δ = 1e-3: the accountant's error at 1000 steps is about 1e-4,
	// so at δ = 1e-5 no noise multiplier meets an ε target (the error
	// counted against it exceeds δ: ComposedRisk's +Inf).
	eps := Target{Kind: TargetEpsilon, Value: 2, Delta: 1e-3}
	sigma, err := Solve(Problem{Target: eps, Lo: 0.3, Hi: 100, Start: 1,
		Risk: func(s float64) (Risk, error) {
			return stagesRisk(eps, with(pld.Stage{NoiseMultiplier: s, SampleRate: 0.01, Steps: 1000}))
		}})
	if err != nil {
		t.Fatal(err)
	}
	at = composedRisk(t, eps, with(pld.Stage{NoiseMultiplier: sigma.Value, SampleRate: 0.01, Steps: 1000}))
	less := sigma.Value * (1 - 1e-9)
	next = composedRisk(t, eps, with(pld.Stage{NoiseMultiplier: less, SampleRate: 0.01, Steps: 1000}))
	if !eps.Meets(at.Bound, 0) || eps.Meets(next.Bound, 0) {
		t.Errorf("σ %.17g reaches ε %g, σ·(1 − 1e-9) %g", sigma.Value, at.Bound, next.Bound)
	}
	t.Logf("noise multiplier: %.17g (%d evaluations)", sigma.Value, sigma.Evaluations)
}
