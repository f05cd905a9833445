package resolve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The row side of composition: a row's own releases (its mechanism,
// compositions times) composed with its extra_stages into one curve
// (curve.Compose). dpsgd rows compose theirs in resolveDPSGD.

// composeExtra replaces the curve of a row that has extra_stages (and a
// mechanism other than dpsgd) by the composition of its own stage with
// them. The family parameters that described the row's own mechanism
// (pure ε, μ, ρ, RDP) no longer describe the whole release and are
// cleared, but for the pure ε of a composition of pure stages (the sum of
// their ε) and the μ of Gaussian stages alone. The (ε, δ) view is the
// composition's ε at the row's delta (at compositions·delta for approx
// rows and gaussian rows stated by ε and δ, as without extra_stages), or
// the pure ε.
func (b *Header) composeExtra(r *Release, in *Inputs, problems *RowError) bool {
	column, text := b.Name(release.FieldExtraStages), in.Text[release.FieldExtraStages]
	stages, ok := r.Stages()
	if !ok {
		problems.Add(column, text, "filled, but mechanism %s has no privacy-loss distribution to compose the stages with; clear extra_stages, or state the row as one of its stages", r.Mechanism)
		return false
	}
	comp, err := curve.Compose(stages, b.plds.Accountant)
	if err != nil {
		problems.AddErr(column, text, err)
		return false
	}
	r.comp = comp
	r.Curve, r.epsilonAt = comp, comp.EpsilonAt
	r.pureParams, r.renyiParams = pureParams{}, renyiParams{}
	r.Mu, r.HasMu, r.Sensitivity, r.Sigma = 0, false, 0, 0
	// A row whose δ is per step (approx, a gaussian row stated by ε and δ)
	// reads the composed view at compositions·δ, as reportPerStep set it,
	// and where that reaches 1 stays vacuous, as without extra_stages (more
	// stages certify no smaller ε); the others read it at delta (setPure
	// may have cleared it).
	perStep := r.Mechanism == release.MechanismApprox || r.Mechanism == release.MechanismGaussian && in.Has(release.FieldEpsilon)
	if !perStep || r.EpsState != -1 {
		r.EpsState, r.epsWhy, r.Epsilon = 0, "", 0
	}
	if !perStep {
		r.Delta = in.Num[release.FieldDelta]
	}
	if mu, ok := comp.Mu(); ok { // Gaussian stages alone: G_μ, (μ²/2)-zCDP
		r.Mu, r.HasMu, r.Rho, r.HasRho = mu, true, gaussianRho(mu), true
	}
	if eps, ok := pureTotal(stages); ok {
		r.PureEps, r.HasPure = eps, true
		if r.Delta == 0 {
			r.Epsilon, r.EpsState = eps, 1
		}
	}
	return true
}

// setOwnStage records the row's own stage (ownStage) for Stages, which
// makes the row's stages from it when they are first asked for: most rows
// never compose, and need not allocate them.
func (b *Header) setOwnStage(r *Release, in *Inputs) {
	if r.Mechanism == release.MechanismDPSGD {
		r.ownState = ownDPSGD
		return
	}
	own, ok, none := b.ownStage(r, in)
	switch {
	case !ok:
		r.ownState = ownAbsent
	case none:
		r.ownState = ownNone
	default:
		r.own, r.ownState = own, ownStaged
	}
}

// Stages returns the row's releases as stages that curve.Compose composes:
// its own stage (ownStage), then its extra_stages; a dpsgd row's stages
// (curve.DPSGDStages); false for a mechanism without a privacy-loss
// distribution (zcdp, rdp). Composing the stages of several rows composes
// their releases. The slice is the row's; do not modify it.
func (r *Release) Stages() ([]pld.Stage, bool) {
	if !r.stagesMade {
		switch r.ownState {
		case ownDPSGD:
			r.stages = curve.DPSGDStages(r.DPSGD, r.ExtraStages)
		case ownNone:
			r.stages = append([]pld.Stage{}, r.ExtraStages...)
		case ownStaged:
			r.stages = append([]pld.Stage{r.own}, r.ExtraStages...)
		}
		r.stagesMade = true
	}
	return r.stages, r.stages != nil
}

// Mixed reports whether the row composes its own releases with
// extra_stages of other mechanisms (not a dpsgd row): the output columns of
// one family of mechanisms (those with Applies.Mechanisms), whose
// parameters describe the row's own mechanism alone, do not apply to it;
// the columns of its composed curve and (ε, δ) view do.
func (r *Release) Mixed() bool { return r.comp != nil && len(r.ExtraStages) > 0 }

// ownStage returns the stage of the row's own mechanism, composed over its
// compositions; ok is false for a mechanism without a privacy-loss
// distribution (zcdp, rdp), none true for a release that reveals nothing
// (μ = 0).
func (b *Header) ownStage(r *Release, in *Inputs) (st pld.Stage, ok, none bool) {
	c := r.Compositions
	switch r.Mechanism {
	case release.MechanismPure, release.MechanismExponential:
		return pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: in.Num[release.FieldEpsilon], Steps: c}, true, false
	case release.MechanismApprox:
		return pld.Stage{Mechanism: pld.EpsilonDelta, Epsilon: in.Num[release.FieldEpsilon], Delta: in.Num[release.FieldDelta], Steps: c}, true, false
	case release.MechanismLaplace:
		eps := in.Num[release.FieldEpsilon] // a row stated by ε (laplaceEpsilon: b = Δ/ε)
		if in.Has(release.FieldLaplaceScale) {
			eps = in.NumOr(release.FieldSensitivity, 1) / in.Num[release.FieldLaplaceScale]
		}
		return pld.Stage{Mechanism: pld.Laplace, Epsilon: eps, Steps: c}, true, false
	case release.MechanismRR:
		return release.RRStage(in.Num[release.FieldEpsilon], in.Num[release.FieldRRCategories], c), true, false
	case release.MechanismGaussian, release.MechanismGDP, release.MechanismMarginals:
		if !(r.Mu > 0) {
			return pld.Stage{}, true, true
		}
		// One release's noise multiplier σ/Δ = 1/μ, as gaussian(σ, Δ)
		// and gdp(μ) stages write it (r.mu is composed: μ√c).
		// A gaussian row stated by ε and δ has neither sigma nor mu: its
		// μ comes from the calibrated σ (stated.go).
		nm := math.Sqrt(float64(c)) / r.Mu
		switch {
		case in.Has(release.FieldSigma) && r.Mechanism == release.MechanismGaussian:
			nm = in.Num[release.FieldSigma] / in.NumOr(release.FieldSensitivity, 1)
		case in.Has(release.FieldMu) && r.Mechanism != release.MechanismMarginals:
			nm = 1 / in.Num[release.FieldMu]
		}
		return pld.Stage{NoiseMultiplier: nm, SampleRate: 1, Steps: c}, true, false
	}
	return pld.Stage{}, false, false
}

// pureTotal returns Σ n_i·ε_i when every stage is pure ε-DP (Laplace,
// randomized response, (ε, 0)): the composition is then pure (Σ n_i·ε_i)-DP.
// Every product and sum is rounded up (numeric.MulUp, AddUp), so the total
// is never below the exact one.
func pureTotal(stages []pld.Stage) (float64, bool) {
	var eps float64
	for _, st := range stages {
		switch {
		case st.Mechanism == pld.Laplace || st.Mechanism == pld.RandomizedResponse,
			st.Mechanism == pld.EpsilonDelta && st.Delta == 0:
			eps = numeric.AddUp(eps, numeric.MulUp(float64(st.Steps), st.Epsilon))
		default:
			return 0, false
		}
	}
	return eps, !math.IsInf(eps, 0)
}

// CompositionError returns the fdp_composition_error of a row: the error
// bound of its composed curve (Composition.Error), that of its PLD
// accountant for a dpsgd row, 0 for the other compositions (closed forms
// and the optimal composition theorem, exact up to upward rounding), and
// nothing for a single release.
func (r *Release) CompositionError() (float64, Skip) {
	switch {
	case r.comp != nil:
		e, err := r.comp.Error()
		if err != nil {
			return 0, Skip{Why: err.Error()}
		}
		return e, Skip{}
	case r.Mechanism == release.MechanismDPSGD && r.PLD == nil:
		return 0, Skip{Why: r.PLDWhy}
	case r.Mechanism == release.MechanismDPSGD:
		e, err := r.PLD.Errors()
		if err != nil {
			return 0, Skip{Why: "the PLD error estimate failed: " + err.Error()}
		}
		return e.Delta(), Skip{}
	case r.Compositions > 1:
		return 0, Skip{}
	}
	return 0, Skip{Silent: true}
}
