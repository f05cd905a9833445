package resolve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// What δ means, in every family alike: delta is the δ of the (ε, δ)
// statement the row makes. Where the row states a guarantee whose δ is
// part of it (approx; a gaussian row stated by ε and δ, whose σ is
// calibrated to them), that guarantee is per step, like every parameter
// typed in a row, and c compositions report their ε at δ_total = c·δ
// (reportPerStep). Where the row states noise or a pure guarantee, delta is
// the δ at which the whole release reports its ε. report_delta sets that
// reporting δ for every mechanism alike (resolveReport).

// resolveReport reads the row's report_delta: the δ at which its whole
// release reports its ε (eps_at_delta and every column of its (ε, δ)
// view), in place of the default delta gives. A value equal to the
// default changes nothing, bit for bit. Any other value reads the ε from
// the release's own privacy profile at that δ (the inverse of its δ(ε),
// rounded up), so that the printed (ε, δ) pair is always a valid
// guarantee; where the profile certifies no finite ε (below the δ that a
// row's own (ε, δ) steps leave unbounded, or at δ = 0 for a mechanism that
// is not pure), the ε columns are empty and the row says why.
func (b *Header) resolveReport(r *Release, in *Inputs) {
	rd := in.Num[release.FieldReportDelta]
	if r.HasDelta && rd == r.Delta && r.EpsState >= 0 || !r.HasDelta && rd == 0 && r.EpsState == 1 {
		return // the default: the same statement
	}
	at := r.profileEpsilonAt(in)
	r.Delta, r.HasDelta, r.Reported = rd, true, true
	r.Epsilon, r.EpsState, r.epsWhy, r.noDelta = 0, 0, "", false
	r.epsilonAt = at
	name := b.Name(release.FieldReportDelta)
	switch {
	case rd == 0 && r.HasPure:
		r.Epsilon, r.EpsState = r.PureEps, 1 // pure ε-DP: ε at δ = 0
	case rd == 0:
		r.EpsState, r.epsWhy = -1, name+" is 0, but mechanism "+string(r.Mechanism)+" is not pure ε-DP: no finite ε holds at δ = 0; expected a δ > 0 (e.g. 1e-5)"
	case at == nil:
		r.EpsState, r.epsWhy = -1, name+": mechanism "+string(r.Mechanism)+" has no privacy profile to read an ε from at another δ; clear "+name
	default:
		if floor := r.stepFloor(in); rd < floor {
			r.EpsState, r.epsWhy = -1, name+" = "+FormatNumber(rd)+" is below 1 − (1 − δ)^compositions = "+FormatNumber(floor)+
				", the δ the row's own (ε, δ) steps leave unbounded: no ε is certified there; expected "+name+" ≥ "+FormatNumber(floor)
		}
	}
}

// profileEpsilonAt returns the inverse of the whole release's privacy
// profile, ε(δ), rounded up: the row's own conversion where it has one
// (noise mechanisms, compositions through curve.Compose, the optimal
// composition of approx and pure rows of several compositions), else that
// of its curve (laplace, rr), else the optimal composition theorem of its
// (ε, δ) steps (approx and pure rows of one composition: f_{ε,δ} itself).
func (r *Release) profileEpsilonAt(in *Inputs) func(float64) float64 {
	if r.epsilonAt != nil {
		return r.epsilonAt
	}
	if c, mu := r.gaussianEps, r.Mu; c != nil {
		return func(delta float64) float64 { return c.GaussianEpsilonAt(mu, delta) }
	}
	if p, ok := r.Curve.(interface{ EpsilonAt(float64) float64 }); ok {
		return p.EpsilonAt
	}
	switch r.Mechanism {
	case release.MechanismApprox, release.MechanismPure, release.MechanismExponential:
		eps, delta := in.Num[release.FieldEpsilon], 0.0
		if r.Mechanism == release.MechanismApprox {
			delta = in.Num[release.FieldDelta]
		}
		c, err := curve.NewComposedApprox(eps, delta, r.Compositions)
		if err != nil {
			return nil
		}
		return c.EpsilonAt
	}
	return nil
}

// stepFloor is the smallest δ at which an approx row's c steps of (ε, δ)
// certify any ε, 1 − (1 − δ)^c (the mass on which some step's loss is
// unbounded), rounded up; 0 for the other rows, whose profiles certify an
// ε at every δ > 0. A row with extra_stages reads its composed curve,
// which says so itself (no finite ε).
func (r *Release) stepFloor(in *Inputs) float64 {
	if r.Mechanism != release.MechanismApprox || len(r.ExtraStages) > 0 {
		return 0
	}
	floor := -math.Expm1(float64(r.Compositions) * math.Log1p(-in.Num[release.FieldDelta]))
	return math.Nextafter(floor, 1)
}
