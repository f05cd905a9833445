package resolve

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// Resolve turns parsed inputs into a Release, or explains why it cannot:
// the mechanism and its columns, then the mechanism's parameters (its
// curve), then what the row says of the attack. A row with audit filled is
// an audit row instead (resolveAudit); a release row must not fill the
// inputs only audits use.
func (b *Header) Resolve(in *Inputs, problems *RowError) *Release {
	return b.ResolveInto(new(Release), in, problems)
}

// ResolveInto is resolve into r, which must be zero: it returns r, or nil
// with the problems. Evaluate resolves into a Release it reuses row after
// row (the evaluator's Binding.releases), a row's largest allocation.
func (b *Header) ResolveInto(r *Release, in *Inputs, problems *RowError) *Release {
	r.fanos = b.fanos
	if in.Has(release.FieldAudit) {
		return b.resolveAudit(r, in, problems)
	}
	if !b.checkAuditOnly(in, problems) {
		return nil
	}
	spec := b.Mechanism(in, problems)
	if spec == nil || !b.checkColumns(spec, in, problems) {
		return nil
	}
	c := in.NumOr(release.FieldCompositions, 1)
	if c > curve.MaxCompositions && release.NativeEpsilon(spec.Name) {
		problems.Add(b.Name(release.FieldCompositions), FormatNumber(c), "%s is more than the %d compositions riskbatch composes for mechanism %s; expected a whole number from 1 to %d",
			FormatNumber(c), curve.MaxCompositions, spec.Name, curve.MaxCompositions)
		return nil
	}
	r.Mechanism, r.Compositions = spec.Name, int(c)
	if in.Has(release.FieldPMPData) && !b.resolvePMP(r, in, problems) {
		return nil
	}
	r.HasDelta = in.Has(release.FieldDelta)
	r.Delta = in.Num[release.FieldDelta]
	if in.Has(release.FieldExtraStages) {
		extra, err := release.ParseStages(in.Text[release.FieldExtraStages], b.specs, b.mechIndex)
		if err != nil {
			problems.AddErr(b.Name(release.FieldExtraStages), in.Text[release.FieldExtraStages], err)
			return nil
		}
		r.ExtraStages = extra
	}
	if !b.resolveCurve(r, in, c, problems) {
		return nil
	}
	b.setOwnStage(r, in)
	if len(r.ExtraStages) > 0 && r.Mechanism != release.MechanismDPSGD && !b.composeExtra(r, in, problems) {
		return nil
	}
	if in.Has(release.FieldReportDelta) {
		b.resolveReport(r, in)
	}
	if !b.resolveAttack(r, in, problems) {
		return nil
	}
	return r
}

// checkColumns checks that every filled parameter column is one the
// mechanism uses, and that it has every column the mechanism requires.
func (b *Header) checkColumns(spec *release.MechanismSpec, in *Inputs, problems *RowError) bool {
	for _, bf := range b.bound { // the fields a row can fill, in field order
		f := bf.field
		if !in.Has(f) {
			continue
		}
		if bf.param && !slices.Contains(spec.Defines, f) && !slices.Contains(spec.Modifiers, f) {
			problems.Add(b.Name(f), in.Value(f), "filled, but mechanism %s does not use it; clear it or correct mechanism", spec.Name)
		}
	}
	for _, f := range spec.Required {
		if !in.Has(f) {
			problems.Add(b.Name(f), "", "empty, but mechanism %s needs it; expected %s", spec.Name, b.vocab.Column(f).Domain)
		}
	}
	return len(*problems) == 0
}

// resolvePMP records the row's pmp_data cell. A cell naming a file that
// cannot be used (refused where it points, missing, not a regular file) is
// an error of the row, as any unusable input.
func (b *Header) resolvePMP(r *Release, in *Inputs, problems *RowError) bool {
	r.PMPPath, r.pmp = strings.TrimSpace(in.Text[release.FieldPMPData]), b.pmpData
	r.pmpFrom = celldata.Source{File: b.source, Loader: b.data}
	if _, err := r.pmp.Table(celldata.Ref{File: b.source, Ref: r.PMPPath}, r.pmpFrom); err != nil {
		if ref, ok := errors.AsType[*celldata.RefError](err); ok {
			problems.AddErr(b.Name(release.FieldPMPData), r.PMPPath, ref.Err)
			return false
		}
	}
	return true
}

// resolveCurve reads the parameters of the row's mechanism, composed c
// times, into its curve and its family's parameters.
func (b *Header) resolveCurve(r *Release, in *Inputs, c float64, problems *RowError) bool {
	sens := in.NumOr(release.FieldSensitivity, 1)
	switch r.Mechanism {
	case release.MechanismPure, release.MechanismExponential:
		// With extra_stages, δ is where the mixture's (ε, δ) view is read.
		if r.Delta != 0 && len(r.ExtraStages) == 0 {
			problems.Add(b.Name(release.FieldDelta), FormatNumber(r.Delta), "%s, but mechanism %s means δ = 0; expected empty or 0, or mechanism approx", FormatNumber(r.Delta), r.Mechanism)
			return false
		}
		eps := in.Num[release.FieldEpsilon]
		r.Curve = b.composedPure(r, curve.EpsDelta{Epsilon: eps}, eps, problems)
		r.setPure(eps, c)
		if r.Mechanism == release.MechanismExponential {
			r.Sensitivity = sens // of the loss (Prop. 9's Δ_ℓ)
		}
	case release.MechanismApprox:
		return b.resolveApprox(r, in.Num[release.FieldEpsilon], c, problems)
	case release.MechanismGaussian, release.MechanismGDP:
		return b.resolveGaussian(r, in, sens, c, problems)
	case release.MechanismMarginals:
		return b.resolveMarginals(r, in, c, problems)
	case release.MechanismLaplace:
		eps, ok := b.laplaceEpsilon(r, in, sens, problems)
		if !ok {
			return false
		}
		r.Curve = b.composedExactly(r, curve.Laplace{Epsilon: eps}, pld.Stage{Mechanism: pld.Laplace, Epsilon: eps, Steps: r.Compositions}, problems)
		r.setPure(eps, c)
	case release.MechanismRR:
		if kf := in.Num[release.FieldRRCategories]; kf > release.MaxStageCategories {
			problems.Add(b.Name(release.FieldRRCategories), FormatNumber(kf), "%s", release.TooManyCategories(kf))
			return false
		}
		eps, k := in.Num[release.FieldEpsilon], int(in.Num[release.FieldRRCategories])
		one := curve.RandomizedResponse{Epsilon: eps, Categories: k}
		if k == 2 { // f_{ε,0}: the optimal composition theorem is exact
			r.Curve = b.composedPure(r, one, eps, problems)
		} else {
			r.Curve = b.composedExactly(r, one, release.RRStage(eps, in.Num[release.FieldRRCategories], r.Compositions), problems)
		}
		r.setPure(eps, c)
	case release.MechanismZCDP:
		z := curve.ZCDP{Rho: c * in.Num[release.FieldRho]}
		r.Curve, r.epsilonAt = z, z.EpsilonAt
		r.Rho, r.HasRho = z.Rho, true
	case release.MechanismRDP:
		rdp := curve.RDP{Orders: []float64{in.Num[release.FieldRDPOrder]}, Epsilons: []float64{c * in.Num[release.FieldRDPEpsilon]}}
		if err := rdp.Validate(); err != nil {
			problems.AddErr(b.Name(release.FieldRDPOrder)+", "+b.Name(release.FieldRDPEpsilon), "", err)
			return false
		}
		r.Curve, r.epsilonAt = rdp, rdp.EpsilonAt
		r.RDP, r.HasRDP = rdp, true
	case release.MechanismDPSGD:
		return b.resolveDPSGD(r, in, problems)
	}
	return r.Curve != nil
}

// composedPure is the curve of k compositions of a pure ε-DP mechanism
// whose single curve is one: the optimal composition theorem (Kairouz, Oh
// & Viswanath 2015) for k > 1; nil, with the problem, where it fails.
func (b *Header) composedPure(r *Release, one curve.Curve, eps float64, problems *RowError) curve.Curve {
	if r.Compositions == 1 {
		return one
	}
	c, err := curve.ComposeApprox(eps, 0, r.Compositions)
	if err != nil {
		problems.AddErr(b.Name(release.FieldCompositions), strconv.Itoa(r.Compositions), err)
		return nil
	}
	return c
}

// composedExactly is the curve of the row's compositions of a mechanism
// whose single curve is one and whose stage is st: its exact composition
// (curve.Compose: the PLD accountant, tightened by the optimal composition
// theorem where that is tighter); nil, with the problem, where it fails.
func (b *Header) composedExactly(r *Release, one curve.Curve, st pld.Stage, problems *RowError) curve.Curve {
	if r.Compositions == 1 {
		return one
	}
	c, err := curve.Compose([]pld.Stage{st}, b.plds.Accountant)
	if err != nil {
		problems.AddErr(b.Name(release.FieldCompositions), strconv.Itoa(r.Compositions), err)
		return nil
	}
	r.comp = c
	return c
}

// setPure records a pure ε-DP guarantee (c-fold: cε, exact for the ε of
// pure DP, the product rounded up). A row that also gives δ > 0 reads the curve's own (ε, δ)
// profile at that δ, which is smaller.
func (r *Release) setPure(eps, c float64) {
	total := numeric.MulUp(c, eps) // an upper bound: rounded up, not to nearest
	r.PureEps, r.HasPure = total, true
	if p, ok := r.Curve.(interface{ EpsilonAt(float64) float64 }); ok && r.Delta > 0 {
		r.epsilonAt = p.EpsilonAt
		return
	}
	r.Epsilon, r.Delta, r.EpsState = total, 0, 1
}

// resolveApprox reads an (ε, δ) row of c compositions: the optimal
// composition theorem, read at δ_total = c·δ.
func (b *Header) resolveApprox(r *Release, eps, c float64, problems *RowError) bool {
	delta := r.Delta
	r.StepDelta = delta
	if r.Compositions == 1 {
		r.Curve = curve.EpsDelta{Epsilon: eps, Delta: delta}
		r.Epsilon, r.EpsState = eps, 1
		if delta == 0 {
			r.PureEps, r.HasPure = eps, true
		}
		return true
	}
	composed, err := curve.NewComposedApprox(eps, delta, r.Compositions)
	if err != nil {
		problems.AddErr(b.Name(release.FieldCompositions), strconv.Itoa(r.Compositions), err)
		return false
	}
	r.Curve = composed
	// The composed guarantee is read at δ_total = k·δ (what basic
	// composition would claim); the optimal theorem gives a smaller ε.
	if !r.reportPerStep(c) {
		return true
	}
	e := composed.EpsilonAt(r.Delta)
	r.Epsilon, r.EpsState = e, 1
	if math.IsInf(e, 1) || math.IsNaN(e) {
		r.EpsState, r.epsWhy = -1, "no finite ε for the composed mechanism at δ_total = compositions·δ"
	}
	return true
}

// reportPerStep sets the δ at which a row whose δ is per step (approx, a
// gaussian row stated by ε and δ) reports the ε of its c compositions:
// δ_total = c·δ, what basic composition would claim, rounded to nearest,
// or up where nearest fell below what curve.BasicComposes certifies cε at
// (the row's own δ_total must not lose the basic guarantee to rounding).
// false when c·δ reaches 1, where the guarantee is vacuous (and the row
// says so).
func (r *Release) reportPerStep(c float64) bool {
	dt := c * r.Delta
	if !curve.BasicComposes(r.Compositions, r.Delta, dt) { // only for δ below about 1e-16
		dt = numeric.MulUp(c, r.Delta)
	}
	r.Delta = math.Min(dt, 1)
	if dt >= 1 {
		r.EpsState, r.epsWhy = -1, "compositions·delta reaches 1: the composed (ε, δ) guarantee is vacuous"
		return false
	}
	return true
}

// resolveGaussian reads a gaussian row (σ and sensitivity, or μ) or a gdp
// row (μ); a row with both μ and σ must agree.
func (b *Header) resolveGaussian(r *Release, in *Inputs, sens, c float64, problems *RowError) bool {
	mu := in.Num[release.FieldMu]
	if r.Mechanism == release.MechanismGDP {
		b.setGaussian(r, mu, c)
		return true
	}
	sigma, ok := b.gaussianSigma(r, in, sens, problems)
	if !ok {
		return false
	}
	if sigma > 0 {
		fromSigma := sens / sigma
		if in.Has(release.FieldMu) && math.Abs(mu-fromSigma) > 1e-9*math.Max(mu, fromSigma) {
			problems.Add(b.Name(release.FieldMu), FormatNumber(mu), "%s disagrees with sensitivity/sigma = %s; fill one or the other", FormatNumber(mu), FormatNumber(fromSigma))
			return false
		}
		mu = fromSigma
		r.Sensitivity, r.Sigma = sens, sigma
	}
	b.setGaussian(r, mu, c)
	if in.Has(release.FieldEpsilon) && r.Compositions > 1 {
		// Stated by (ε, δ): the guarantee is per step, like approx's,
		// and the composed release reports its ε at δ_total = c·δ.
		r.reportPerStep(c)
	}
	return true
}

// resolveMarginals reads a marginals row: K = C(d, k) − C(d − d′, k)
// marginals on an unknown column, each of L2 sensitivity √2 (one count
// down, one up): μ₁ = √2/σ, and K compositions give √K·μ₁ (Swanberg et
// al. App. A).
func (b *Header) resolveMarginals(r *Release, in *Inputs, c float64, problems *RowError) bool {
	d, kw, du := in.Num[release.FieldColumnsTotal], in.Num[release.FieldMarginalK], in.Num[release.FieldColumnsUnknown]
	total := b.Name(release.FieldColumnsTotal)
	for _, f := range []release.Field{release.FieldMarginalK, release.FieldColumnsUnknown} {
		if v := in.Num[f]; v > d {
			problems.Add(b.Name(f), FormatNumber(v), "%s is more than %s = %s; expected a whole number from 1 to %s", FormatNumber(v), total, FormatNumber(d), total)
		}
	}
	if len(*problems) > 0 {
		return false
	}
	queries := curve.MarginalQueries(int(d), int(kw), int(du))
	if queries == 0 {
		// K is 0 only for d′ = 0.
		problems.Add(b.Name(release.FieldColumnsUnknown), FormatNumber(du), "%s leaves no marginal on an unknown column (K = 0), so there is nothing to bound; expected a whole number from 1 to %s = %s",
			FormatNumber(du), total, FormatNumber(d))
		return false
	}
	b.setGaussian(r, math.Sqrt(queries)*math.Sqrt2/in.Num[release.FieldSigma], c)
	return true
}

// setGaussian records the Gaussian curve G_μ composed c times (G_{μ√c}),
// which is also (μ²/2)-zCDP. μ√c and μ²/2 bound the release's privacy
// loss from above, so they are rounded up, not to nearest.
func (b *Header) setGaussian(r *Release, mu, c float64) {
	mu = numeric.MulUp(mu, numeric.SqrtUp(c))
	r.Curve = curve.Gaussian{Mu: mu}
	r.gaussianEps = b.epsilons // ε(δ) of G_μ through the run's cache: see EpsilonAtDelta
	r.Mu, r.HasMu = mu, true
	r.Rho, r.HasRho = gaussianRho(mu), true
}

// gaussianRho is the ρ of (ρ)-zCDP that G_μ satisfies, μ²/2 (Bun &
// Steinke 2016, Prop. 1.6, with μ = Δ/σ), rounded up.
func gaussianRho(mu float64) float64 { return numeric.DivUp(numeric.MulUp(mu, mu), 2) }

// resolveDPSGD reads a dpsgd row: its steps and extra stages, accounted by
// a PLD accountant, or by RDP where the PLD cannot represent them.
func (b *Header) resolveDPSGD(r *Release, in *Inputs, problems *RowError) bool {
	stages, ok := b.DPSGDStages(r, in, problems)
	if !ok {
		return false
	}
	r.stages, r.stagesMade = stages, true // the row's releases (Stages), built once
	r.extraRDP = b.stagesRDP(r.ExtraStages)
	r.RDP, r.HasRDP = b.stagesRDP(stages), true
	r.RDPWhy = noRDPWhy(r.ExtraStages)
	r.noise = b.noise
	if p, err := b.plds.Accountant(stages); err == nil {
		c := curve.DPSGDCurve{PLD: curve.PLDCurve{PLD: p}, RDP: r.RDP}
		r.PLD, r.Curve, r.epsilonAt = p, c, c.EpsilonAt
	} else {
		// A configuration the PLD cannot represent (a loss range too
		// wide for its grid): the RDP accountant still bounds it.
		r.PLDWhy = fmt.Sprintf("the PLD accountant cannot account this row (%v), so the f-DP and ε columns use the RDP accountant", err)
		r.Curve, r.epsilonAt = r.RDP, r.RDP.EpsilonAt
	}
	return true
}

// DPSGDStages reads a dpsgd row's schedule (DPSGDSchedule) into r.DPSGD
// and returns its releases as stages: its steps, then r.ExtraStages.
func (b *Header) DPSGDStages(r *Release, in *Inputs, problems *RowError) ([]pld.Stage, bool) {
	q, steps, ok := b.DPSGDSchedule(r, in, problems)
	if !ok {
		return nil, false
	}
	r.DPSGD = curve.DPSGD{NoiseMultiplier: in.Num[release.FieldNoiseMultiplier], SampleRate: q, Steps: steps}
	return curve.DPSGDStages(r.DPSGD, r.ExtraStages), true
}

// Mechanism returns the row's mechanism: the one named in its mechanism
// column, or the one its filled columns imply.
func (b *Header) Mechanism(in *Inputs, problems *RowError) *release.MechanismSpec {
	if in.Has(release.FieldMechanism) {
		spec, err := release.LookupMechanism(b.specs, b.mechIndex, in.Text[release.FieldMechanism])
		if err != nil {
			problems.AddErr(b.Name(release.FieldMechanism), in.Text[release.FieldMechanism], err)
			return nil
		}
		return spec
	}
	found := b.impliedMechanisms(in)
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		problems.Add("", "", "no privacy parameters: fill epsilon (and delta), sigma, mu or another mechanism's columns; see riskbatch columns")
		return nil
	}
	var filled []string
	for _, s := range found {
		for _, f := range s.Signature {
			if in.Has(f) {
				filled = append(filled, b.Name(f))
			}
		}
	}
	problems.Add(b.Name(release.FieldMechanism), "", "empty, and the filled columns %s describe different mechanisms; fill mechanism to say which one the release uses", strings.Join(filled, ", "))
	return nil
}

// impliedMechanisms returns the mechanisms whose signature columns the row
// fills, less those whose columns belong to a more specific one that is
// also filled (rr over pure and approx, marginals over gaussian, gaussian
// over gdp) and, of pure and approx, the one its delta rules out.
func (b *Header) impliedMechanisms(in *Inputs) []*release.MechanismSpec {
	var found []*release.MechanismSpec
	for i := range b.specs {
		if slices.ContainsFunc(b.specs[i].Signature, in.Has) {
			found = append(found, &b.specs[i])
		}
	}
	present := func(m release.Mechanism) bool {
		return slices.ContainsFunc(found, func(s *release.MechanismSpec) bool { return s.Name == m })
	}
	drop := func(ms ...release.Mechanism) {
		found = slices.DeleteFunc(found, func(s *release.MechanismSpec) bool { return slices.Contains(ms, s.Name) })
	}
	if present(release.MechanismRR) {
		drop(release.MechanismPure, release.MechanismApprox)
	}
	if present(release.MechanismMarginals) {
		drop(release.MechanismGaussian)
	}
	if present(release.MechanismLaplace) || present(release.MechanismGaussian) {
		// epsilon states them as papers do (b = Δ/ε, σ calibrated to
		// (ε, δ)); resolve checks that it agrees with laplace_scale or
		// sigma.
		drop(release.MechanismPure, release.MechanismApprox)
	}
	if present(release.MechanismGaussian) && present(release.MechanismGDP) {
		drop(release.MechanismGDP) // resolve checks that μ agrees with Δ/σ
	}
	if present(release.MechanismPure) {
		if in.Num[release.FieldDelta] > 0 {
			drop(release.MechanismPure)
		} else {
			drop(release.MechanismApprox)
		}
	}
	return found
}
