package dataset

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Goal seek on a Gaussian-only dataset, in closed form. Its total is
// μ_total-GDP with
//
//	μ_total² = Σ_i c_i·Δ_i²/σ_i² = Σ_i c_i/m_i²
//
// over its stages of c_i releases of noise multiplier m_i = σ_i/Δ_i (Dong,
// Roth & Su 2022, Cor. 3.3), and each target on the total is met by every
// μ_total up to the largest, M (Target.LargestMu). One unknown stage of c
// releases, beside the others' sum S, then has the smallest noise
// multiplier
//
//	m = √c/√(M² − S),  σ = Δ·m,
//
// and no noise meets the target once S ≥ M². Each answer starts from that
// closed form and is narrowed to adjacent floats against the total as
// Total.Synthetic composes it (every operation rounded up) and as its row
// reports the target's measure (Target.GaussianRisk): the total at the
// answer meets the target, at the next more aggressive float it does not.

// gaussianTerm is c/m² rounded up: one stage's share of μ_total².
func gaussianTerm(steps int, m float64) float64 {
	return numeric.DivUp(numeric.DivUp(float64(steps), m), m)
}

// plainGaussian reports whether a stage is the Gaussian mechanism without
// subsampling, which μ-GDP composes exactly.
func plainGaussian(s pld.Stage) bool {
	return s.Mechanism == pld.SubsampledGaussian && s.SampleRate == 1
}

// GaussianMu returns μ_total = √(Σ_i c_i/m_i²) of plain Gaussian stages,
// every operation rounded up, as Total.Synthetic writes a Gaussian-only
// total; false when a stage is of another mechanism or subsampled.
func GaussianMu(stages []pld.Stage) (float64, bool) {
	var sum float64
	for _, s := range stages {
		if !plainGaussian(s) {
			return math.NaN(), false
		}
		sum = numeric.AddUp(sum, gaussianTerm(s.Steps, s.NoiseMultiplier))
	}
	return numeric.SqrtUp(sum), true
}

// gaussianOthers checks the known stages and the target, and returns the
// target's M = LargestMu and the others' S = Σ c_i/m_i², or the error: a
// stage that is not a plain Gaussian, a *TargetError, or a
// *UnmetError when S ≥ M² (compared as √S ≥ M, √S rounded up: M² underflows
// for M below about 1e-154, an advantage target below about 4e-155).
func gaussianOthers(t Target, others []pld.Stage) (m, s float64, err error) {
	for i, st := range others {
		if !plainGaussian(st) || !(st.NoiseMultiplier > 0) || st.Steps < 1 {
			return 0, 0, fmt.Errorf("stage %d (%s): not a Gaussian stage of noise multiplier > 0 and steps ≥ 1", i+1, StageText(st))
		}
		s = numeric.AddUp(s, gaussianTerm(st.Steps, st.NoiseMultiplier))
	}
	if m, err = t.LargestMu(); err != nil {
		return 0, 0, err
	}
	if numeric.SqrtUp(s) >= m {
		return 0, 0, &UnmetError{Target: t, At: math.NaN(), Reached: t.GaussianRisk(numeric.SqrtUp(s))}
	}
	return m, s, nil
}

// SolveGaussianSigma returns the smallest noise standard deviation σ of a
// row of steps releases of the Gaussian mechanism with L2 sensitivity
// sensitivity whose composition with the other rows' stages (plain
// Gaussian, noise multipliers σ_i/Δ_i) meets the target: σ = Δ·√c/√(M² − S)
// (see above), rounded up to the float at which the total, composed with
// stage gaussian(σ/Δ)×c as the row's own stage is, meets the target and at
// the float below does not. The error is a *TargetError, a
// *UnmetError (the others alone reach the target), or one naming a
// stage or argument out of range.
func SolveGaussianSigma(t Target, others []pld.Stage, sensitivity float64, steps int) (float64, error) {
	if !(sensitivity > 0) || math.IsInf(sensitivity, 1) || steps < 1 {
		return math.NaN(), fmt.Errorf("sensitivity %s, steps %d: expected a finite sensitivity > 0 and steps ≥ 1", formatValue(sensitivity), steps)
	}
	m, s, err := gaussianOthers(t, others)
	if err != nil {
		return math.NaN(), err
	}
	guess := sensitivity * math.Sqrt(float64(steps)) / roomLeft(m, s)
	return solveOwnGaussian(t, others, steps, guess, false, func(sigma float64) float64 { return sigma / sensitivity })
}

// SolveGDPMu returns the largest μ of a gdp row of steps releases (its
// stage gaussian(1/μ)×c) whose composition with the other rows' stages
// meets the target: μ = √((M² − S)/c), rounded down to the float at which
// the total meets the target and above which it does not. Errors as
// SolveGaussianSigma's.
func SolveGDPMu(t Target, others []pld.Stage, steps int) (float64, error) {
	if steps < 1 {
		return math.NaN(), fmt.Errorf("steps %d: expected steps ≥ 1", steps)
	}
	m, s, err := gaussianOthers(t, others)
	if err != nil {
		return math.NaN(), err
	}
	guess := roomLeft(m, s) / math.Sqrt(float64(steps))
	return solveOwnGaussian(t, others, steps, guess, true, func(mu float64) float64 { return 1 / mu })
}

// solveOwnGaussian returns the extreme x (the smallest, or the largest when
// increasing: the risk grows with x) at which a row's own stage
// gaussian(noise(x))×steps, composed with the other rows' stages, meets the
// target, narrowed from guess to adjacent floats (extremeMeeting); an
// *UnmetError where no x meets it (the others alone reach the target).
func solveOwnGaussian(t Target, others []pld.Stage, steps int, guess float64, increasing bool, noise func(x float64) float64) (float64, error) {
	var mergeErr error // the first merge past a row's limits (mergeChecked)
	meets := func(x float64) bool {
		all, err := mergeChecked(slices.Clone(others), pld.Stage{NoiseMultiplier: noise(x), SampleRate: 1, Steps: steps})
		if err != nil {
			if mergeErr == nil {
				mergeErr = err
			}
			return false
		}
		mu, _ := GaussianMu(all)
		return t.Meets(t.GaussianRisk(mu), 0)
	}
	x, ok := extremeMeeting(meets, guess, increasing)
	if mergeErr != nil {
		return math.NaN(), mergeErr
	}
	if !ok {
		// No float meets it: a total of so small a μ is not representable
		// (the sum of c/m² of GaussianMu reaches no lower than the smallest
		// float).
		all, _ := mergeChecked(slices.Clone(others), pld.Stage{NoiseMultiplier: noise(x), SampleRate: 1, Steps: steps})
		mu, _ := GaussianMu(all)
		return math.NaN(), &UnmetError{Target: t, At: x, Reached: t.GaussianRisk(mu)}
	}
	return x, nil
}

// roomLeft returns √(M² − S) for 0 ≤ S < M², as √(M − √S)·√(M + √S), which
// neither underflows nor overflows where M² would.
func roomLeft(m, s float64) float64 {
	r := math.Sqrt(s)
	return math.Sqrt(m-r) * math.Sqrt(m+r)
}

// GaussianNoiseScale returns the one factor s by which every stage's noise
// multiplier (every σ_i) is multiplied so that the total meets the target
// exactly: μ_total scales as 1/s, so s = μ_now/M, rounded up to the float
// at which the total of the stages Scaled(stages, s) (noise multipliers
// m_i·s rounded up) meets the target and at the float below does not. Below 1 the dataset has room to
// spare. The error is a *TargetError, an *UnmetError where no float s
// meets the target (a target so small that the μ it needs is below what
// GaussianMu's sum of c/m² can represent), or one naming a stage that is
// not a plain Gaussian.
func GaussianNoiseScale(t Target, stages []pld.Stage) (float64, error) {
	if len(stages) == 0 {
		return math.NaN(), errors.New("the dataset has no stages to scale")
	}
	now, ok := GaussianMu(stages)
	if !ok {
		return math.NaN(), fmt.Errorf("the dataset's stages (%s) are not all plain Gaussian stages", stagesText(stages))
	}
	m, err := t.LargestMu()
	if err != nil {
		return math.NaN(), err
	}
	// The stages as the dataset's total is checked at s (Scaled, the
	// products rounded up).
	meets := func(s float64) bool {
		mu, _ := GaussianMu(Scaled(stages, s))
		return t.Meets(t.GaussianRisk(mu), 0)
	}
	s, ok := extremeMeeting(meets, now/m, false)
	if !ok {
		mu, _ := GaussianMu(Scaled(stages, s))
		return math.NaN(), &UnmetError{Target: t, At: s, Reached: t.GaussianRisk(mu)}
	}
	return s, nil
}
