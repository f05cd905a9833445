package evaluate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// resolve turns parsed inputs into a Release, or explains why it cannot:
// the mechanism and its columns, then the mechanism's parameters (its
// curve), then what the row says of the attack. A row with audit filled is
// an audit row instead (resolveAudit); a release row must not fill the
// inputs only audits use.
func (b *Binding) resolve(in *inputs, problems *rowError) *Release {
	return b.resolveInto(new(Release), in, problems)
}

// resolveInto is resolve into r, which must be zero: it returns r, or nil
// with the problems. Evaluate resolves into a Release it reuses row after
// row (Binding.releases), a row's largest allocation.
func (b *Binding) resolveInto(r *Release, in *inputs, problems *rowError) *Release {
	if in.has(FieldAudit) {
		return b.resolveAudit(r, in, problems)
	}
	if !b.checkAuditOnly(in, problems) {
		return nil
	}
	if !b.checkGoalSeek(in, problems) {
		return nil
	}
	spec := b.mechanism(in, problems)
	if spec == nil || !b.checkColumns(spec, in, problems) {
		return nil
	}
	c := in.numOr(FieldCompositions, 1)
	if c > curve.MaxCompositions && composesOptimally(spec.Name) {
		problems.add(b.name(FieldCompositions), formatNumber(c), "%s is more than the %d compositions riskbatch composes for mechanism %s; expected a whole number from 1 to %d",
			formatNumber(c), curve.MaxCompositions, spec.Name, curve.MaxCompositions)
		return nil
	}
	r.Mechanism, r.compositions = spec.Name, int(c)
	if in.has(FieldPMPData) && !b.resolvePMP(r, in, problems) {
		return nil
	}
	r.hasDelta = in.has(FieldDelta)
	r.delta = in.num[FieldDelta]
	if in.has(FieldExtraStages) {
		extra, err := parseStages(in.text[FieldExtraStages], b.specs, b.mechIndex)
		if err != nil {
			problems.addErr(b.name(FieldExtraStages), in.text[FieldExtraStages], err)
			return nil
		}
		r.extraStages = extra
	}
	if !b.resolveCurve(r, in, c, problems) {
		return nil
	}
	b.setOwnStage(r, in)
	if len(r.extraStages) > 0 && r.Mechanism != MechanismDPSGD && !b.composeExtra(r, in, problems) {
		return nil
	}
	if in.has(FieldReportDelta) {
		b.resolveReport(r, in)
	}
	if !b.resolveAttack(r, in, problems) {
		return nil
	}
	return r
}

// checkColumns checks that every filled parameter column is one the
// mechanism uses, and that it has every column the mechanism requires.
func (b *Binding) checkColumns(spec *mechanismSpec, in *inputs, problems *rowError) bool {
	for _, bf := range b.bound { // the fields a row can fill, in field order
		f := bf.field
		if !in.has(f) {
			continue
		}
		if bf.param && !hasField(spec.Defines, f) && !hasField(spec.Modifiers, f) {
			problems.add(b.name(f), in.value(f), "filled, but mechanism %s does not use it; clear it or correct mechanism", spec.Name)
		}
	}
	for _, f := range spec.Required {
		if !in.has(f) {
			problems.add(b.name(f), "", "empty, but mechanism %s needs it; expected %s", spec.Name, b.vocab.Column(f).Domain)
		}
	}
	return len(*problems) == 0
}

// resolvePMP records the row's pmp_data cell. A cell naming a file that
// cannot be used (refused where it points, missing, not a regular file) is
// an error of the row, as any unusable input.
func (b *Binding) resolvePMP(r *Release, in *inputs, problems *rowError) bool {
	r.pmpPath, r.pmp = strings.TrimSpace(in.text[FieldPMPData]), b.pmpData
	r.pmpFrom = pmpSource{File: b.source, Loader: b.data}
	if _, err := r.pmp.Table(pmpRef{File: b.source, Ref: r.pmpPath}, r.pmpFrom); err != nil {
		if ref, ok := errors.AsType[*pmpRefError](err); ok {
			problems.addErr(b.name(FieldPMPData), r.pmpPath, ref.Err)
			return false
		}
	}
	return true
}

// resolveCurve reads the parameters of the row's mechanism, composed c
// times, into its curve and its family's parameters.
func (b *Binding) resolveCurve(r *Release, in *inputs, c float64, problems *rowError) bool {
	sens := in.numOr(FieldSensitivity, 1)
	switch r.Mechanism {
	case MechanismPure, MechanismExponential:
		// With extra_stages, δ is where the mixture's (ε, δ) view is read.
		if r.delta != 0 && len(r.extraStages) == 0 {
			problems.add(b.name(FieldDelta), formatNumber(r.delta), "%s, but mechanism %s means δ = 0; expected empty or 0, or mechanism approx", formatNumber(r.delta), r.Mechanism)
			return false
		}
		eps := in.num[FieldEpsilon]
		r.Curve = b.composedPure(r, curve.EpsDelta{Epsilon: eps}, eps, problems)
		r.setPure(eps, c)
		if r.Mechanism == MechanismExponential {
			r.sensitiv = sens // of the loss (Prop. 9's Δ_ℓ)
		}
	case MechanismApprox:
		return b.resolveApprox(r, in.num[FieldEpsilon], c, problems)
	case MechanismGaussian, MechanismGDP:
		return b.resolveGaussian(r, in, sens, c, problems)
	case MechanismMarginals:
		return b.resolveMarginals(r, in, c, problems)
	case MechanismLaplace:
		eps, ok := b.laplaceEpsilon(r, in, sens, problems)
		if !ok {
			return false
		}
		r.Curve = b.composedExactly(r, curve.Laplace{Epsilon: eps}, pld.Stage{Mechanism: pld.Laplace, Epsilon: eps, Steps: r.compositions}, problems)
		r.setPure(eps, c)
	case MechanismRR:
		if kf := in.num[FieldRRCategories]; kf > maxStageCategories {
			problems.add(b.name(FieldRRCategories), formatNumber(kf), "%s", tooManyCategories(kf))
			return false
		}
		eps, k := in.num[FieldEpsilon], int(in.num[FieldRRCategories])
		one := curve.RandomizedResponse{Epsilon: eps, Categories: k}
		if k == 2 { // f_{ε,0}: the optimal composition theorem is exact
			r.Curve = b.composedPure(r, one, eps, problems)
		} else {
			r.Curve = b.composedExactly(r, one, rrStage(eps, in.num[FieldRRCategories], r.compositions), problems)
		}
		r.setPure(eps, c)
	case MechanismZCDP:
		z := curve.ZCDP{Rho: c * in.num[FieldRho]}
		r.Curve, r.epsilonAt = z, z.EpsilonAt
		r.rho, r.hasRho = z.Rho, true
	case MechanismRDP:
		rdp := curve.RDP{Orders: []float64{in.num[FieldRDPOrder]}, Epsilons: []float64{c * in.num[FieldRDPEpsilon]}}
		if err := rdp.Validate(); err != nil {
			problems.addErr(b.name(FieldRDPOrder)+", "+b.name(FieldRDPEpsilon), "", err)
			return false
		}
		r.Curve, r.epsilonAt = rdp, rdp.EpsilonAt
		r.rdp, r.hasRDP = rdp, true
	case MechanismDPSGD:
		return b.resolveDPSGD(r, in, problems)
	}
	return r.Curve != nil
}

// composedPure is the curve of k compositions of a pure ε-DP mechanism
// whose single curve is one: the optimal composition theorem (Kairouz, Oh
// & Viswanath 2015) for k > 1; nil, with the problem, where it fails.
func (b *Binding) composedPure(r *Release, one curve.Curve, eps float64, problems *rowError) curve.Curve {
	if r.compositions == 1 {
		return one
	}
	c, err := curve.ComposeApprox(eps, 0, r.compositions)
	if err != nil {
		problems.addErr(b.name(FieldCompositions), strconv.Itoa(r.compositions), err)
		return nil
	}
	return c
}

// composedExactly is the curve of the row's compositions of a mechanism
// whose single curve is one and whose stage is st: its exact composition
// (curve.Compose: the PLD accountant, tightened by the optimal composition
// theorem where that is tighter); nil, with the problem, where it fails.
func (b *Binding) composedExactly(r *Release, one curve.Curve, st pld.Stage, problems *rowError) curve.Curve {
	if r.compositions == 1 {
		return one
	}
	c, err := curve.Compose([]pld.Stage{st}, b.plds.get)
	if err != nil {
		problems.addErr(b.name(FieldCompositions), strconv.Itoa(r.compositions), err)
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
	r.pureEps, r.hasPure = total, true
	if p, ok := r.Curve.(interface{ EpsilonAt(float64) float64 }); ok && r.delta > 0 {
		r.epsilonAt = p.EpsilonAt
		return
	}
	r.epsilon, r.delta, r.epsState = total, 0, 1
}

// resolveApprox reads an (ε, δ) row of c compositions: the optimal
// composition theorem, read at δ_total = c·δ.
func (b *Binding) resolveApprox(r *Release, eps, c float64, problems *rowError) bool {
	delta := r.delta
	r.stepDelta = delta
	if r.compositions == 1 {
		r.Curve = curve.EpsDelta{Epsilon: eps, Delta: delta}
		r.epsilon, r.epsState = eps, 1
		if delta == 0 {
			r.pureEps, r.hasPure = eps, true
		}
		return true
	}
	composed, err := curve.NewComposedApprox(eps, delta, r.compositions)
	if err != nil {
		problems.addErr(b.name(FieldCompositions), strconv.Itoa(r.compositions), err)
		return false
	}
	r.Curve = composed
	// The composed guarantee is read at δ_total = k·δ (what basic
	// composition would claim); the optimal theorem gives a smaller ε.
	if !r.reportPerStep(c) {
		return true
	}
	e := composed.EpsilonAt(r.delta)
	r.epsilon, r.epsState = e, 1
	if math.IsInf(e, 1) || math.IsNaN(e) {
		r.epsState, r.epsWhy = -1, "no finite ε for the composed mechanism at δ_total = compositions·δ"
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
	dt := c * r.delta
	if !curve.BasicComposes(r.compositions, r.delta, dt) { // only for δ below about 1e-16
		dt = numeric.MulUp(c, r.delta)
	}
	r.delta = math.Min(dt, 1)
	if dt >= 1 {
		r.epsState, r.epsWhy = -1, "compositions·delta reaches 1: the composed (ε, δ) guarantee is vacuous"
		return false
	}
	return true
}

// resolveGaussian reads a gaussian row (σ and sensitivity, or μ) or a gdp
// row (μ); a row with both μ and σ must agree.
func (b *Binding) resolveGaussian(r *Release, in *inputs, sens, c float64, problems *rowError) bool {
	mu := in.num[FieldMu]
	if r.Mechanism == MechanismGDP {
		b.setGaussian(r, mu, c)
		return true
	}
	sigma, ok := b.gaussianSigma(r, in, sens, problems)
	if !ok {
		return false
	}
	if sigma > 0 {
		fromSigma := sens / sigma
		if in.has(FieldMu) && math.Abs(mu-fromSigma) > 1e-9*math.Max(mu, fromSigma) {
			problems.add(b.name(FieldMu), formatNumber(mu), "%s disagrees with sensitivity/sigma = %s; fill one or the other", formatNumber(mu), formatNumber(fromSigma))
			return false
		}
		mu = fromSigma
		r.sensitiv, r.sigma = sens, sigma
	}
	b.setGaussian(r, mu, c)
	if in.has(FieldEpsilon) && r.compositions > 1 {
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
func (b *Binding) resolveMarginals(r *Release, in *inputs, c float64, problems *rowError) bool {
	d, kw, du := in.num[FieldColumnsTotal], in.num[FieldMarginalK], in.num[FieldColumnsUnknown]
	total := b.name(FieldColumnsTotal)
	for _, f := range []Field{FieldMarginalK, FieldColumnsUnknown} {
		if v := in.num[f]; v > d {
			problems.add(b.name(f), formatNumber(v), "%s is more than %s = %s; expected a whole number from 1 to %s", formatNumber(v), total, formatNumber(d), total)
		}
	}
	if len(*problems) > 0 {
		return false
	}
	queries := curve.MarginalQueries(int(d), int(kw), int(du))
	if queries == 0 {
		// K is 0 only for d′ = 0.
		problems.add(b.name(FieldColumnsUnknown), formatNumber(du), "%s leaves no marginal on an unknown column (K = 0), so there is nothing to bound; expected a whole number from 1 to %s = %s",
			formatNumber(du), total, formatNumber(d))
		return false
	}
	b.setGaussian(r, math.Sqrt(queries)*math.Sqrt2/in.num[FieldSigma], c)
	return true
}

// setGaussian records the Gaussian curve G_μ composed c times (G_{μ√c}),
// which is also (μ²/2)-zCDP. μ√c and μ²/2 bound the release's privacy
// loss from above, so they are rounded up, not to nearest.
func (b *Binding) setGaussian(r *Release, mu, c float64) {
	mu = numeric.MulUp(mu, numeric.SqrtUp(c))
	r.Curve = curve.Gaussian{Mu: mu}
	r.gaussianEps = b.epsilons // ε(δ) of G_μ through the run's cache: see epsilonAtDelta
	r.mu, r.hasMu = mu, true
	r.rho, r.hasRho = gaussianRho(mu), true
}

// gaussianRho is the ρ of (ρ)-zCDP that G_μ satisfies, μ²/2 (Bun &
// Steinke 2016, Prop. 1.6, with μ = Δ/σ), rounded up.
func gaussianRho(mu float64) float64 { return numeric.DivUp(numeric.MulUp(mu, mu), 2) }

// resolveDPSGD reads a dpsgd row: its steps and extra stages, accounted by
// a PLD accountant, or by RDP where the PLD cannot represent them.
func (b *Binding) resolveDPSGD(r *Release, in *inputs, problems *rowError) bool {
	q, steps, ok := b.dpsgdSchedule(r, in, problems)
	if !ok {
		return false
	}
	r.dpsgd = curve.DPSGD{NoiseMultiplier: in.num[FieldNoiseMultiplier], SampleRate: q, Steps: steps}
	stages := curve.DPSGDStages(r.dpsgd, r.extraStages)
	r.stages, r.stagesMade = stages, true // the row's releases (Stages), built once
	r.extraRDP = b.stagesRDP(r.extraStages)
	r.rdp, r.hasRDP = b.stagesRDP(stages), true
	r.rdpWhy = noRDPWhy(r.extraStages)
	r.noise = b.noise
	if p, err := b.plds.get(stages); err == nil {
		c := curve.DPSGDCurve{PLD: curve.PLDCurve{PLD: p}, RDP: r.rdp}
		r.pld, r.Curve, r.epsilonAt = p, c, c.EpsilonAt
	} else {
		// A configuration the PLD cannot represent (a loss range too
		// wide for its grid): the RDP accountant still bounds it.
		r.pldWhy = fmt.Sprintf("the PLD accountant cannot account this row (%v), so the f-DP and ε columns use the RDP accountant", err)
		r.Curve, r.epsilonAt = r.rdp, r.rdp.EpsilonAt
	}
	return true
}

// mechanism returns the row's mechanism: the one named in its mechanism
// column, or the one its filled columns imply.
func (b *Binding) mechanism(in *inputs, problems *rowError) *mechanismSpec {
	if in.has(FieldMechanism) {
		spec, err := lookupMechanism(b.specs, b.mechIndex, in.text[FieldMechanism])
		if err != nil {
			problems.addErr(b.name(FieldMechanism), in.text[FieldMechanism], err)
			return nil
		}
		return spec
	}
	found := b.impliedMechanisms(in)
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		problems.add("", "", "no privacy parameters: fill epsilon (and delta), sigma, mu or another mechanism's columns; see riskbatch columns")
		return nil
	}
	var filled []string
	for _, s := range found {
		for _, f := range s.Signature {
			if in.has(f) {
				filled = append(filled, b.name(f))
			}
		}
	}
	problems.add(b.name(FieldMechanism), "", "empty, and the filled columns %s describe different mechanisms; fill mechanism to say which one the release uses", strings.Join(filled, ", "))
	return nil
}

// impliedMechanisms returns the mechanisms whose signature columns the row
// fills, less those whose columns belong to a more specific one that is
// also filled (rr over pure and approx, marginals over gaussian, gaussian
// over gdp) and, of pure and approx, the one its delta rules out.
func (b *Binding) impliedMechanisms(in *inputs) []*mechanismSpec {
	var found []*mechanismSpec
	for i := range b.specs {
		if slices.ContainsFunc(b.specs[i].Signature, in.has) {
			found = append(found, &b.specs[i])
		}
	}
	present := func(m Mechanism) bool {
		return slices.ContainsFunc(found, func(s *mechanismSpec) bool { return s.Name == m })
	}
	drop := func(ms ...Mechanism) {
		found = slices.DeleteFunc(found, func(s *mechanismSpec) bool { return slices.Contains(ms, s.Name) })
	}
	if present(MechanismRR) {
		drop(MechanismPure, MechanismApprox)
	}
	if present(MechanismMarginals) {
		drop(MechanismGaussian)
	}
	if present(MechanismLaplace) || present(MechanismGaussian) {
		// epsilon states them as papers do (b = Δ/ε, σ calibrated to
		// (ε, δ)); resolve checks that it agrees with laplace_scale or
		// sigma.
		drop(MechanismPure, MechanismApprox)
	}
	if present(MechanismGaussian) && present(MechanismGDP) {
		drop(MechanismGDP) // resolve checks that μ agrees with Δ/σ
	}
	if present(MechanismPure) {
		if in.num[FieldDelta] > 0 {
			drop(MechanismPure)
		} else {
			drop(MechanismApprox)
		}
	}
	return found
}

// composesOptimally reports whether a mechanism's compositions are
// composed by the optimal composition theorem (ComposeApprox), which takes
// at most composeMaxK of them; the others compose in closed form.
func composesOptimally(m Mechanism) bool {
	switch m {
	case MechanismPure, MechanismApprox, MechanismLaplace, MechanismRR, MechanismExponential:
		return true
	}
	return false
}
