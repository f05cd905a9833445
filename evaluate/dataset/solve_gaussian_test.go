package dataset

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// gaussianCase is a random Gaussian-only dataset with a target and one
// unknown stage.
type gaussianCase struct {
	target      Target
	others      []pld.Stage
	sensitivity float64
	steps       int
	// m is the largest μ_total, derived here independently of LargestMu.
	m float64
}

// independentLargestMu derives M for a target by the closed forms
// (advantage: μ = 2√2·erf⁻¹(η), Dong, Roth & Su 2022 with Kulynych et al.
// 2025 Thm 3.4; success: μ = Φ⁻¹(s) − Φ⁻¹(b), Thm 3.2 with G_μ) or, for
// ε at δ, by plain bisection of curve.Gaussian.EpsilonAt over μ.
func independentLargestMu(t Target) float64 {
	switch t.Kind {
	case TargetAdvantage:
		return 2 * math.Sqrt2 * math.Erfinv(t.Value)
	case TargetSuccess:
		return numeric.NormQuantile(t.Value) - numeric.NormQuantile(t.Baseline)
	}
	lo, hi := 0.0, 1.0
	for (curve.Gaussian{Mu: hi}).EpsilonAt(t.Delta) <= t.Value {
		lo, hi = hi, 2*hi
	}
	for i := 0; i < 200 && hi-lo > 1e-16*hi; i++ {
		mid := (lo + hi) / 2
		if (curve.Gaussian{Mu: mid}).EpsilonAt(t.Delta) <= t.Value {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func randomTarget(rng *rand.Rand) Target {
	switch rng.IntN(3) {
	case 0:
		return Target{Kind: TargetAdvantage, Value: 0.02 + 0.88*rng.Float64()}
	case 1:
		b := math.Pow(10, -4+3.5*rng.Float64())
		return Target{Kind: TargetSuccess, Baseline: b, Value: b + (0.01+0.4*rng.Float64())*(1-b)}
	}
	return Target{Kind: TargetEpsilon, Value: 0.1 + 9.9*rng.Float64(), Delta: math.Pow(10, -9+4*rng.Float64())}
}

// randomGaussianCase draws others whose Σ c_i/m_i² is a fraction in
// [0, 0.9] of M².
func randomGaussianCase(rng *rand.Rand) gaussianCase {
	c := gaussianCase{target: randomTarget(rng), sensitivity: 0.1 + 10*rng.Float64(), steps: 1 + rng.IntN(50)}
	c.m = independentLargestMu(c.target)
	n := rng.IntN(5)
	if n == 0 {
		return c
	}
	var sum float64
	for range n {
		st := pld.Stage{NoiseMultiplier: 0.5 + 50*rng.Float64(), SampleRate: 1, Steps: 1 + rng.IntN(20)}
		c.others = append(c.others, st)
		sum += float64(st.Steps) / (st.NoiseMultiplier * st.NoiseMultiplier)
	}
	f := 0.9 * rng.Float64()
	if f < 1e-3 {
		f = 1e-3
	}
	scale := math.Sqrt(sum / (f * c.m * c.m))
	for i := range c.others {
		c.others[i].NoiseMultiplier *= scale
	}
	return c
}

// closedSigma is σ = Δ·√c/√(M² − Σ c_i/m_i²) (Dong, Roth & Su 2022,
// Cor. 3.3), in plain arithmetic.
func (c gaussianCase) closedSigma() float64 {
	var sum float64
	for _, st := range c.others {
		sum += float64(st.Steps) / (st.NoiseMultiplier * st.NoiseMultiplier)
	}
	return c.sensitivity * math.Sqrt(float64(c.steps)) / math.Sqrt(c.m*c.m-sum)
}

// totalRisk composes the members through Total, as a dataset's rows are,
// and bounds the target's measure of its gdp row with the bound functions
// the total row's columns use (fdp_worst_advantage and fdp_success rounded
// up, eps_at_delta by curve.Gaussian.EpsilonAt).
func totalRisk(t *testing.T, target Target, members ...[]pld.Stage) float64 {
	t.Helper()
	total := NewTotal("d")
	for i, st := range members {
		total.Add(Member{Dataset: "d", Name: string(rune('a' + i)), Stages: st})
	}
	row, ok := total.Synthetic()
	if !ok {
		t.Fatal("no synthetic row")
	}
	mu := math.NaN()
	for _, c := range row {
		if c.Field == release.FieldMechanism && c.Cell.String() != string(release.MechanismGDP) {
			t.Fatalf("total is %s, not gdp", c.Cell.String())
		}
		if c.Field == release.FieldMu {
			mu = c.Cell.Num
		}
	}
	g := curve.Gaussian{Mu: mu}
	switch target.Kind {
	case TargetAdvantage:
		return numeric.RoundUp(g.WorstAdvantage(), 0, 1)
	case TargetSuccess:
		if adv := g.Advantage(target.Baseline); adv > 0 {
			return numeric.RoundUp(target.Baseline+adv, target.Baseline, 1)
		}
		return target.Baseline
	}
	return g.EpsilonAt(target.Delta)
}

func gaussianStage(m float64, steps int) []pld.Stage {
	return []pld.Stage{{NoiseMultiplier: m, SampleRate: 1, Steps: steps}}
}

func TestSolveGaussianSigmaClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	var worst float64
	defer func() { t.Logf("largest relative distance from the closed form: %.3g", worst) }()
	for i := range 300 {
		c := randomGaussianCase(rng)
		sigma, err := SolveGaussianSigma(c.target, c.others, c.sensitivity, c.steps)
		if err != nil {
			t.Fatalf("case %d %+v: %v", i, c, err)
		}
		want := c.closedSigma()
		rel := math.Abs(sigma-want) / want
		worst = math.Max(worst, rel)
		if !(rel <= 1e-12) {
			t.Errorf("case %d %+v: σ = %.17g, closed form %.17g (relative %.3g)", i, c, sigma, want, rel)
		}
		at := totalRisk(t, c.target, c.others, gaussianStage(sigma/c.sensitivity, c.steps))
		if !(at <= c.target.Value) {
			t.Errorf("case %d %+v: the total at σ = %.17g reaches %.17g > target %.17g", i, c, sigma, at, c.target.Value)
		}
		less := sigma * (1 - 1e-9)
		if below := totalRisk(t, c.target, c.others, gaussianStage(less/c.sensitivity, c.steps)); below <= c.target.Value {
			t.Errorf("case %d %+v: the total at σ·(1 − 1e-9) = %.17g still meets the target (%.17g ≤ %.17g)", i, c, less, below, c.target.Value)
		}
		// The float just below σ misses the target as Total computes it.
		prev := math.Nextafter(sigma, 0)
		if below := totalRisk(t, c.target, c.others, gaussianStage(prev/c.sensitivity, c.steps)); below <= c.target.Value {
			t.Errorf("case %d: the float below σ = %.17g meets the target too", i, sigma)
		}
	}
}

func TestSolveGDPMuClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	for i := range 200 {
		c := randomGaussianCase(rng)
		mu, err := SolveGDPMu(c.target, c.others, c.steps)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		// μ = 1/m with m the noise multiplier of sensitivity 1.
		c.sensitivity = 1
		want := 1 / c.closedSigma()
		if rel := math.Abs(mu-want) / want; !(rel <= 1e-12) {
			t.Errorf("case %d %+v: μ = %.17g, closed form %.17g (relative %.3g)", i, c, mu, want, rel)
		}
		if at := totalRisk(t, c.target, c.others, gaussianStage(1/mu, c.steps)); !(at <= c.target.Value) {
			t.Errorf("case %d: the total at μ = %.17g reaches %.17g > %.17g", i, mu, at, c.target.Value)
		}
		more := mu * (1 + 1e-9)
		if at := totalRisk(t, c.target, c.others, gaussianStage(1/more, c.steps)); at <= c.target.Value {
			t.Errorf("case %d: the total at μ·(1 + 1e-9) still meets the target", i)
		}
	}
}

func TestGaussianNoiseScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 3))
	for i := range 200 {
		target := randomTarget(rng)
		var stages []pld.Stage
		var sum float64
		for range 1 + rng.IntN(5) {
			st := pld.Stage{NoiseMultiplier: 0.2 + 20*rng.Float64(), SampleRate: 1, Steps: 1 + rng.IntN(20)}
			if len(stages) > 0 && sameStage(stages[len(stages)-1], st) {
				continue
			}
			stages = append(stages, st)
			sum += float64(st.Steps) / (st.NoiseMultiplier * st.NoiseMultiplier)
		}
		s, err := GaussianNoiseScale(target, stages)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want := math.Sqrt(sum) / independentLargestMu(target) // s = μ_now/μ_target
		if rel := math.Abs(s-want) / want; !(rel <= 1e-12) {
			t.Errorf("case %d: s = %.17g, closed form %.17g (relative %.3g)", i, s, want, rel)
		}
		// The members' stages at f as the pipeline scales them (Scaled).
		scaled := func(f float64) [][]pld.Stage {
			var members [][]pld.Stage
			for _, st := range Scaled(stages, f) {
				members = append(members, []pld.Stage{st})
			}
			return members
		}
		if at := totalRisk(t, target, scaled(s)...); !(at <= target.Value) {
			t.Errorf("case %d: the total scaled by s = %.17g reaches %.17g > %.17g", i, s, at, target.Value)
		}
		if at := totalRisk(t, target, scaled(s*(1-1e-9))...); at <= target.Value {
			t.Errorf("case %d: the total scaled by s·(1 − 1e-9) still meets the target", i)
		}
		// s is the smallest float at which the stages as the dataset's
		// total checks them (Scaled: the products rounded up) meet.
		meetsAt := func(f float64) bool {
			mu, _ := GaussianMu(Scaled(stages, f))
			return target.Meets(target.GaussianRisk(mu), 0)
		}
		if below := math.Nextafter(s, 0); !meetsAt(s) || meetsAt(below) {
			t.Errorf("case %d: Scaled at s = %.17g meets: %v; at the float below: %v; want true, false", i, s, meetsAt(s), meetsAt(below))
		}
	}
}

// TestGaussianSolveMonotone: a looser target allows less noise, more
// steps of the unknown need more noise, and other rows with more noise
// leave the unknown needing less.
func TestGaussianSolveMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4))
	for i := range 200 {
		c := randomGaussianCase(rng)
		sigma, err := SolveGaussianSigma(c.target, c.others, c.sensitivity, c.steps)
		if err != nil {
			t.Fatal(err)
		}
		looser := c.target
		looser.Value += 0.01 * (1 - looser.Value)
		if looser.Kind == TargetEpsilon {
			looser.Value = c.target.Value * 1.01
		}
		if s2, err := SolveGaussianSigma(looser, c.others, c.sensitivity, c.steps); err != nil || !(s2 < sigma) {
			t.Errorf("case %d: looser target %g → σ %g, not below %g (%v)", i, looser.Value, s2, sigma, err)
		}
		if s2, err := SolveGaussianSigma(c.target, c.others, c.sensitivity, c.steps+1); err != nil || !(s2 > sigma) {
			t.Errorf("case %d: one step more → σ %g, not above %g (%v)", i, s2, sigma, err)
		}
		if len(c.others) > 0 {
			noisier := []pld.Stage{c.others[0]}
			noisier[0].NoiseMultiplier *= 1.5
			noisier = append(noisier, c.others[1:]...)
			if s2, err := SolveGaussianSigma(c.target, noisier, c.sensitivity, c.steps); err != nil || !(s2 < sigma) {
				t.Errorf("case %d: noisier others → σ %g, not below %g (%v)", i, s2, sigma, err)
			}
		}
		if mu, err := c.target.LargestMu(); err != nil || !(mu > 0) {
			t.Errorf("case %d: LargestMu %g, %v", i, mu, err)
		} else if mu2, _ := looser.LargestMu(); !(mu2 > mu) {
			t.Errorf("case %d: LargestMu not increasing in the target: %g then %g", i, mu, mu2)
		}
	}
}

func TestGaussianSolveUnmet(t *testing.T) {
	target := Target{Kind: TargetAdvantage, Value: 0.2}
	// μ = √(12/8² + 1/5² + 0.3²) ≈ 0.563: worst advantage 0.2219 (docs/datasets.md).
	others := []pld.Stage{
		{NoiseMultiplier: 8, SampleRate: 1, Steps: 12},
		{NoiseMultiplier: 5, SampleRate: 1, Steps: 1},
		{NoiseMultiplier: 1 / 0.3, SampleRate: 1, Steps: 1},
	}
	_, err := SolveGaussianSigma(target, others, 1, 1)
	var unmet *UnmetError
	if !errors.As(err, &unmet) {
		t.Fatalf("SolveGaussianSigma: %v, want an *UnmetError", err)
	}
	want := totalRisk(t, target, others)
	if unmet.Reached != want || !(unmet.Excess() > 0.02 && unmet.Excess() < 0.023) {
		t.Errorf("reached %.17g (excess %g), want the others' total %.17g, about 0.2219", unmet.Reached, unmet.Excess(), want)
	}
	if !math.IsNaN(unmet.At) {
		t.Errorf("At = %g, want NaN (the other rows alone)", unmet.At)
	}
	t.Log(err)
	if _, err := SolveGDPMu(target, others, 1); !errors.As(err, &unmet) {
		t.Errorf("SolveGDPMu: %v, want an *UnmetError", err)
	}
	// Exactly at the target: Σ others = M² leaves nothing.
	m, _ := Target{Kind: TargetAdvantage, Value: 0.3}.LargestMu()
	if _, err := SolveGaussianSigma(Target{Kind: TargetAdvantage, Value: 0.3}, gaussianStage(1/m, 1), 1, 1); !errors.As(err, &unmet) {
		t.Errorf("others at M exactly: %v, want an *UnmetError", err)
	}
}

func TestGaussianSolveBadInput(t *testing.T) {
	ok := Target{Kind: TargetAdvantage, Value: 0.2}
	sub := []pld.Stage{{NoiseMultiplier: 2, SampleRate: 0.1, Steps: 10}}
	lap := []pld.Stage{{Mechanism: pld.Laplace, Epsilon: 1, Steps: 1}}
	for name, f := range map[string]func() error{
		"sensitivity 0":    func() error { _, err := SolveGaussianSigma(ok, nil, 0, 1); return err },
		"sensitivity Inf":  func() error { _, err := SolveGaussianSigma(ok, nil, math.Inf(1), 1); return err },
		"steps 0":          func() error { _, err := SolveGaussianSigma(ok, nil, 1, 0); return err },
		"gdp steps 0":      func() error { _, err := SolveGDPMu(ok, nil, 0); return err },
		"subsampled other": func() error { _, err := SolveGaussianSigma(ok, sub, 1, 1); return err },
		"laplace other":    func() error { _, err := SolveGDPMu(ok, lap, 1); return err },
		"scale laplace":    func() error { _, err := GaussianNoiseScale(ok, lap); return err },
		"scale no stages":  func() error { _, err := GaussianNoiseScale(ok, nil); return err },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

func TestTargetCheck(t *testing.T) {
	bad := []Target{
		{Kind: TargetAdvantage, Value: 0},
		{Kind: TargetAdvantage, Value: 1},
		{Kind: TargetAdvantage, Value: -0.1},
		{Kind: TargetAdvantage, Value: math.NaN()},
		{Kind: TargetSuccess, Value: 0, Baseline: 0.01},
		{Kind: TargetSuccess, Value: 1, Baseline: 0.01},
		{Kind: TargetSuccess, Value: 0.01, Baseline: 0.01},
		{Kind: TargetSuccess, Value: 0.005, Baseline: 0.01},
		{Kind: TargetSuccess, Value: 0.5, Baseline: 0},
		{Kind: TargetSuccess, Value: 0.5, Baseline: math.NaN()},
		{Kind: TargetEpsilon, Value: 0, Delta: 1e-6},
		{Kind: TargetEpsilon, Value: math.Inf(1), Delta: 1e-6},
		{Kind: TargetEpsilon, Value: 1, Delta: 0},
		{Kind: TargetEpsilon, Value: 1, Delta: 1},
		{Kind: 0, Value: 0.5},
	}
	for _, tg := range bad {
		var te *TargetError
		for name, err := range map[string]error{
			"Check":      tg.Check(),
			"LargestMu":  second(tg.LargestMu()),
			"Sigma":      second(SolveGaussianSigma(tg, nil, 1, 1)),
			"GDPMu":      second(SolveGDPMu(tg, nil, 1)),
			"NoiseScale": second(GaussianNoiseScale(tg, gaussianStage(1, 1))),
			"Solve": second(Solve(Problem{Target: tg, Lo: 1, Hi: 2,
				Risk: func(float64) (Risk, error) { return Risk{}, nil }})),
		} {
			if !errors.As(err, &te) {
				t.Errorf("%s(%+v): %v, want a *TargetError", name, tg, err)
			}
		}
		t.Log(tg.Check())
	}
	good := []Target{
		{Kind: TargetAdvantage, Value: 1e-12},
		{Kind: TargetAdvantage, Value: 0.999},
		{Kind: TargetSuccess, Value: 0.02, Baseline: 0.01},
		{Kind: TargetEpsilon, Value: 50, Delta: 1e-300},
	}
	for _, tg := range good {
		if err := tg.Check(); err != nil {
			t.Errorf("%+v: %v", tg, err)
		}
		mu, err := tg.LargestMu()
		if err != nil || !(mu > 0) || math.IsInf(mu, 0) {
			t.Errorf("%+v: LargestMu %g, %v", tg, mu, err)
			continue
		}
		if !tg.Meets(tg.GaussianRisk(mu), 0) || tg.Meets(tg.GaussianRisk(math.Nextafter(mu, math.Inf(1))), 0) {
			t.Errorf("%+v: μ = %.17g is not the last float that meets the target", tg, mu)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestSyntheticGaussianMu: the total row of a Gaussian-only dataset states
// μ = GaussianMu of its stages, the μ of docs/datasets.md's census.
func TestSyntheticGaussianMu(t *testing.T) {
	stages := []pld.Stage{
		{NoiseMultiplier: 8, SampleRate: 1, Steps: 12},
		{NoiseMultiplier: 5, SampleRate: 1, Steps: 1},
		{NoiseMultiplier: 1 / 0.3, SampleRate: 1, Steps: 1},
	}
	mu, ok := GaussianMu(stages)
	want := math.Sqrt(12.0/64 + 1.0/25 + 0.09)
	if !ok || math.Abs(mu-want) > 4e-16*want || mu < want*(1-2e-16) {
		t.Errorf("GaussianMu = %.17g, %v; want %.17g", mu, ok, want)
	}
	if got := totalRisk(t, Target{Kind: TargetAdvantage, Value: 0.5}, stages); got != numeric.RoundUp(curve.Gaussian{Mu: mu}.WorstAdvantage(), 0, 1) {
		t.Errorf("the synthetic row's μ differs from GaussianMu's %.17g", mu)
	}
}

// TestGaussianExtremeTargets: at an advantage target of 1e-300, M =
// LargestMu ≈ 2.5e-300 (M² underflows to 0) and no noise meets the target
// as the total row computes it (GaussianMu's sum of c/m² reaches no lower
// than the smallest float, μ ≈ 2.2e-162, advantage ≈ 8.9e-163): every
// solver returns an *UnmetError naming the safest value tried and what
// the total reaches there, not a value that does not meet the target (the
// noise scale was 1.797e308 with no error; σ and μ were unmet "by
// −1e-300" as if the others alone reached it). At 1e-150 (M² ≈ 6e-300,
// no underflow) and 1e-160 (M² ≈ 6e-320, subnormal), the answers still
// meet the target, and M is found with no other stages.
func TestGaussianExtremeTargets(t *testing.T) {
	one := gaussianStage(1, 1)
	tiny := Target{Kind: TargetAdvantage, Value: 1e-300}
	if m, err := tiny.LargestMu(); err != nil || !(m > 2.5e-300 && m < 2.51e-300) {
		t.Errorf("LargestMu at 1e-300: %g, %v; want about 2.5066e-300", m, err)
	}
	unmet := func(name string, err error) {
		t.Helper()
		u, ok := errors.AsType[*UnmetError](err)
		if !ok || !(u.Excess() > 0) || math.IsNaN(u.At) {
			t.Errorf("%s at 1e-300: %v; want an *UnmetError at the safest value tried, with a positive excess", name, err)
		}
	}
	s, err := GaussianNoiseScale(tiny, one)
	unmet("GaussianNoiseScale", err)
	if err == nil {
		t.Errorf("GaussianNoiseScale at 1e-300: %g", s)
	}
	_, err = SolveGaussianSigma(tiny, nil, 1, 1)
	unmet("SolveGaussianSigma", err)
	_, err = SolveGDPMu(tiny, nil, 1)
	unmet("SolveGDPMu", err)
	for _, v := range []float64{1e-150, 1e-160} {
		target := Target{Kind: TargetAdvantage, Value: v}
		meets := func(stages []pld.Stage) bool {
			mu, _ := GaussianMu(stages)
			return target.Meets(target.GaussianRisk(mu), 0)
		}
		if s, err := GaussianNoiseScale(target, one); err != nil || !meets(Scaled(one, s)) {
			t.Errorf("GaussianNoiseScale at %g: %g, %v; want a scale that meets it", v, s, err)
		}
		if sigma, err := SolveGaussianSigma(target, nil, 1, 1); err != nil || !meets(gaussianStage(sigma, 1)) {
			t.Errorf("SolveGaussianSigma at %g: %g, %v; want a σ that meets it", v, sigma, err)
		}
	}
}
