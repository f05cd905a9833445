package dataset

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
)

// gaussianRiskOf is the risk callback of an unknown noise multiplier
// stage beside others: the Gaussian total as Total.Synthetic composes it.
func gaussianRiskOf(target Target, others []pld.Stage, steps int, sensitivity float64) func(float64) (Risk, error) {
	return func(sigma float64) (Risk, error) {
		mu, _ := GaussianMu(withStage(others, pld.Stage{NoiseMultiplier: sigma / sensitivity, SampleRate: 1, Steps: steps}))
		return Risk{Bound: target.GaussianRisk(mu)}, nil
	}
}

// TestSolveGaussianAgrees: the generic solver on a Gaussian dataset finds
// the closed form's σ (SolveGaussianSigma, the smallest float that meets
// the target) to within RelativeStep, on the safe side, with or without a
// starting point.
func TestSolveGaussianAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 5))
	var calls int
	for i := range 200 {
		c, p, want := randomGaussianProblem(t, rng, i%2 == 0)
		sol, err := Solve(p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		calls += sol.Evaluations
		if !(sol.Value >= want && sol.Value <= want*(1+1.01*RelativeStep)) {
			t.Errorf("case %d: σ = %.17g, closed form %.17g (relative %.3g)", i, sol.Value, want, (sol.Value-want)/want)
		}
		if !(sol.Next < sol.Value && sol.Value-sol.Next <= RelativeStep*sol.Value) || sol.AtLimit {
			t.Errorf("case %d: next %.17g not within 1e-9 below %.17g", i, sol.Next, sol.Value)
		}
		if !c.target.Meets(sol.Risk.Bound, 0) || c.target.Meets(sol.NextRisk.Bound, 0) {
			t.Errorf("case %d: risk %g at the answer, %g at the next, target %g", i, sol.Risk.Bound, sol.NextRisk.Bound, c.target.Value)
		}
		if at := totalRisk(t, c.target, c.others, gaussianStage(sol.Value/c.sensitivity, c.steps)); !(at <= c.target.Value) {
			t.Errorf("case %d: the total at σ = %.17g reaches %.17g", i, sol.Value, at)
		}
	}
	t.Logf("%.1f evaluations a solve", float64(calls)/200)
}

// TestSolveIntegerCompositions: the largest number k of releases of a
// Gaussian of noise multiplier m beside others that meets the target is
// the closed form ⌊m²(M² − S)⌋ (up to the rounding at the boundary), k
// meets and k + 1 does not, re-composed through Total.Synthetic.
func TestSolveIntegerCompositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 6))
	for i := range 200 {
		c := randomGaussianCase(rng)
		m := 1 + 30*rng.Float64()
		p := Problem{Target: c.target, Integer: true, Increasing: true, Lo: 0, Hi: 1 << 40,
			Risk: func(k float64) (Risk, error) {
				st := c.others
				if k > 0 {
					st = withStage(c.others, pld.Stage{NoiseMultiplier: m, SampleRate: 1, Steps: int(k)})
				}
				mu, _ := GaussianMu(st)
				return Risk{Bound: c.target.GaussianRisk(mu)}, nil
			}}
		if i%3 == 0 {
			p.Start = 1 + float64(rng.IntN(1000))
		}
		sol, err := Solve(p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		k := int(sol.Value)
		if sol.Value != math.Trunc(sol.Value) || sol.Next != sol.Value+1 {
			t.Fatalf("case %d: k = %g, next %g", i, sol.Value, sol.Next)
		}
		var sum float64
		for _, st := range c.others {
			sum += float64(st.Steps) / (st.NoiseMultiplier * st.NoiseMultiplier)
		}
		closed := m * m * (c.m*c.m - sum)
		if float64(k) > closed+1e-6*closed || float64(k+1) < closed-1e-6*closed {
			t.Errorf("case %d: k = %d, closed form m²(M² − S) = %.6f", i, k, closed)
		}
		members := [][]pld.Stage{c.others}
		if k > 0 {
			members = append(members, gaussianStage(m, k))
		}
		if at := totalRisk(t, c.target, members...); !(at <= c.target.Value) {
			t.Errorf("case %d: %d compositions reach %g > %g", i, k, at, c.target.Value)
		}
		if at := totalRisk(t, c.target, c.others, gaussianStage(m, k+1)); at <= c.target.Value {
			t.Errorf("case %d: %d compositions still meet the target", i, k+1)
		}
	}
}

// TestSolveProperties: over random monotone risks, the answer meets the
// target and the next does not; a looser target never gives a less
// aggressive answer; an error on the risk never a more aggressive one.
func TestSolveProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 7))
	for i := range 300 {
		// risk(x) = 1 − exp(−(x/scale)^p) for increasing unknowns (an
		// advantage in (0, 1)), of 1/x for decreasing ones.
		scale, pow := math.Pow(10, -3+6*rng.Float64()), 0.3+3*rng.Float64()
		inc, integer := rng.IntN(2) == 0, rng.IntN(2) == 0
		errTerm := 0.0
		if rng.IntN(3) == 0 {
			errTerm = 1e-3 * rng.Float64()
		}
		risk := func(x float64) (Risk, error) {
			if !inc {
				x = 1 / x
			}
			return Risk{Bound: -math.Expm1(-math.Pow(x/scale, pow)), Error: errTerm}, nil
		}
		target := Target{Kind: TargetAdvantage, Value: 0.05 + 0.9*rng.Float64()}
		lo, hi := 1e-9, 1e12
		if integer {
			lo, hi = 0, 1e15
			scale = math.Max(scale, 1) * 100
			if !inc {
				continue // an integer noise is not a case of goal seek
			}
		}
		p := Problem{Target: target, Risk: risk, Increasing: inc, Integer: integer, Lo: lo, Hi: hi}
		sol, err := Solve(p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !target.Meets(sol.Risk.Bound, sol.Risk.Error) || target.Meets(sol.NextRisk.Bound, sol.NextRisk.Error) {
			t.Errorf("case %d: risk at the answer %g, at the next %g (error %g), target %g", i, sol.Risk.Bound, sol.NextRisk.Bound, errTerm, target.Value)
		}
		if got, _ := risk(sol.Value); got != sol.Risk {
			t.Errorf("case %d: Solution.Risk %v is not the risk at its value %v", i, sol.Risk, got)
		}
		more := func(a, b float64) bool { return inc && a > b || !inc && a < b } // a more aggressive than b
		looser := p
		looser.Target.Value = target.Value + 0.5*(1-target.Value)
		if sol2, err := Solve(looser); err != nil || more(sol.Value, sol2.Value) {
			t.Errorf("case %d: looser target → %g, less aggressive than %g (%v)", i, sol2.Value, sol.Value, err)
		}
		if errTerm == 0 {
			withErr := p
			withErr.Risk = func(x float64) (Risk, error) { r, _ := risk(x); r.Error = 0.01; return r, nil }
			if sol2, err := Solve(withErr); err == nil && more(sol2.Value, sol.Value) {
				t.Errorf("case %d: an error on the risk → %g, more aggressive than %g", i, sol2.Value, sol.Value)
			} else if err == nil && !target.Meets(sol2.Risk.Bound+0.01, 0) {
				t.Errorf("case %d: the error is not counted against the target: %g + 0.01 > %g", i, sol2.Risk.Bound, target.Value)
			}
		}
	}
}

func TestSolveErrors(t *testing.T) {
	target := Target{Kind: TargetAdvantage, Value: 0.2}
	flat := func(v float64) func(float64) (Risk, error) {
		return func(float64) (Risk, error) { return Risk{Bound: v}, nil }
	}
	linear := func(x float64) (Risk, error) { return Risk{Bound: x / 100}, nil }
	var be *BracketError
	for name, p := range map[string]Problem{
		"Lo = Hi":             {Target: target, Risk: linear, Lo: 2, Hi: 2},
		"Lo > Hi":             {Target: target, Risk: linear, Lo: 3, Hi: 2},
		"NaN":                 {Target: target, Risk: linear, Lo: math.NaN(), Hi: 2},
		"Inf":                 {Target: target, Risk: linear, Lo: 0, Hi: math.Inf(1)},
		"integer, not whole":  {Target: target, Risk: linear, Integer: true, Lo: 0.5, Hi: 10},
		"integer beyond 2^53": {Target: target, Risk: linear, Integer: true, Lo: 0, Hi: 1 << 60},
	} {
		if _, err := Solve(p); !errors.As(err, &be) {
			t.Errorf("%s: %v, want a *BracketError", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := Solve(Problem{Target: target, Lo: 0, Hi: 1}); err == nil {
		t.Error("no risk function: no error")
	}

	// No value meets: the safest end of the bracket already exceeds the
	// target, by how much the error says.
	var ue *UnmetError
	_, err := Solve(Problem{Target: target, Risk: linear, Increasing: true, Lo: 25, Hi: 100})
	if !errors.As(err, &ue) || ue.At != 25 || ue.Reached != 0.25 || math.Abs(ue.Excess()-0.05) > 1e-15 {
		t.Errorf("increasing, unmet: %v (%+v)", err, ue)
	}
	t.Log(err)
	_, err = Solve(Problem{Target: target, Risk: func(x float64) (Risk, error) { return Risk{Bound: 0.1 + 1/x, Error: 0.05}, nil }, Lo: 1, Hi: 10, Start: 2})
	if !errors.As(err, &ue) || ue.At != 10 || math.Abs(ue.Reached-0.25) > 1e-15 {
		t.Errorf("decreasing with an error, unmet: %v (%+v)", err, ue)
	}
	t.Log(err)
	if _, err := Solve(Problem{Target: target, Risk: flat(math.NaN()), Lo: 1, Hi: 2}); !errors.As(err, &ue) {
		t.Errorf("NaN risk: %v, want an *UnmetError", err)
	}

	// The whole bracket meets: its aggressive end, AtLimit.
	sol, err := Solve(Problem{Target: target, Risk: flat(0.1), Increasing: true, Integer: true, Lo: 1, Hi: 1000})
	if err != nil || !sol.AtLimit || sol.Value != 1000 || !math.IsNaN(sol.Next) {
		t.Errorf("all meet, increasing: %+v, %v", sol, err)
	}
	sol, err = Solve(Problem{Target: target, Risk: flat(0.1), Lo: 0.5, Hi: 1000})
	if err != nil || !sol.AtLimit || sol.Value != 0.5 {
		t.Errorf("all meet, decreasing: %+v, %v", sol, err)
	}

	// The callback's error stops the solver, wrapped with the value.
	boom := errors.New("accountant failed")
	_, err = Solve(Problem{Target: target, Risk: func(x float64) (Risk, error) {
		if x > 10 {
			return Risk{}, boom
		}
		return linear(x)
	}, Increasing: true, Lo: 1, Hi: 100, Start: 5})
	if !errors.Is(err, boom) {
		t.Errorf("callback error: %v", err)
	}
	t.Log(err)
}

// TestSolveWideBracket: a bracket over the whole positive floats (no
// start) ends with a boundary of relative width 1e-9 in a bounded number
// of evaluations, and one over negative to positive values does not
// overflow the keys.
func TestSolveWideBracket(t *testing.T) {
	target := Target{Kind: TargetEpsilon, Value: 3, Delta: 1e-6}
	for _, tc := range []struct{ lo, hi, boundary float64 }{
		{math.SmallestNonzeroFloat64, math.MaxFloat64, 3},
		{-math.MaxFloat64, math.MaxFloat64, 3},
		{-math.MaxFloat64, math.MaxFloat64, -7.5},
	} {
		sol, err := Solve(Problem{Target: target, Increasing: true, Lo: tc.lo, Hi: tc.hi,
			Risk: func(x float64) (Risk, error) { return Risk{Bound: 3 + (x - tc.boundary)}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		if !(sol.Value <= tc.boundary && sol.Next > tc.boundary && sol.Next-sol.Value <= RelativeStep*math.Abs(sol.Next)) {
			t.Errorf("[%g, %g]: %.17g, next %.17g; boundary %g", tc.lo, tc.hi, sol.Value, sol.Next, tc.boundary)
		}
		if sol.Evaluations > 200 {
			t.Errorf("[%g, %g]: %d evaluations", tc.lo, tc.hi, sol.Evaluations)
		}
		t.Logf("[%g, %g]: %d evaluations", tc.lo, tc.hi, sol.Evaluations)
	}
}

// randomGaussianProblem is the problem of solving for σ on a random
// Gaussian dataset (randomGaussianCase), with a starting point near the
// closed form's answer when start is true: the case, the problem and
// the closed form's answer (SolveGaussianSigma).
func randomGaussianProblem(t *testing.T, rng *rand.Rand, start bool) (gaussianCase, Problem, float64) {
	t.Helper()
	c := randomGaussianCase(rng)
	want, err := SolveGaussianSigma(c.target, c.others, c.sensitivity, c.steps)
	if err != nil {
		t.Fatal(err)
	}
	p := Problem{Target: c.target, Risk: gaussianRiskOf(c.target, c.others, c.steps, c.sensitivity), Lo: 1e-6, Hi: 1e9}
	if start {
		p.Start = want * (0.5 + rng.Float64())
	}
	return c, p, want
}
