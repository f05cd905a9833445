package evaluate

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/priors"
)

// inputs holds one row's parsed input cells.
type inputs struct {
	num  [numFields]float64
	text [numFields]string
	set  [numFields]bool
}

func (in *inputs) has(f Field) bool { return in.set[f] }

// Release is one row resolved into the quantities the bounds need.
type Release struct {
	Mechanism Mechanism
	Curve     curve.Curve

	// The (ε, δ) view of the mechanism, used by the ε-based families.
	// For pure and approx rows it is the row's own; for Gaussian rows it is
	// computed from μ at the row's δ when a column first asks for it.
	epsilon, delta float64
	epsState       int8   // 0 not computed, 1 known, -1 unavailable
	epsWhy         string // why it is unavailable
	noDelta        bool   // unavailable for want of a δ > 0
	hasDelta       bool
	// epsilonAt converts the mechanism to (ε, δ) at the row's δ; nil when
	// the row's own ε (pure, approx, laplace and rr at δ = 0) is used.
	epsilonAt func(delta float64) float64

	// Rényi views for the comparators of Balle et al.: the zCDP ρ (zcdp,
	// and gaussian/gdp with ρ = μ²/2), or the RDP curve (rdp, dpsgd).
	rho    float64
	hasRho bool
	rdp    curve.RDP
	hasRDP bool
	dpsgd  curve.DPSGD // the parameters of a dpsgd row
	// The extra stages of a dpsgd row, its PLD accountant (nil when the
	// accountant failed, with the reason in pldWhy) and the run's cache of
	// noise calibrations.
	extraStages []pld.Stage
	extraRDP    curve.RDP // the extra stages' composed RDP (empty without them)
	pld         *pld.PLD
	pldWhy      string
	noise       *noiseCache
	pureEps     float64 // ε of a pure ε-DP guarantee (pure, laplace, rr)
	hasPure     bool
	mu          float64 // μ of a Gaussian curve (gaussian, gdp, marginals)
	hasMu       bool
	sensitiv    float64 // sensitivity for σ calibration (gaussian)
	sigma       float64 // σ of a gaussian row
	lapScale    bool    // a Laplace row (for ε calibration)

	Baseline    float64
	HasBaseline bool
	// Prior is the row's prior from a prior table or an inline prior: the
	// per-target p_i; Baseline is its largest p (single-target bounds).
	Prior     priors.Prior
	HasPrior  bool
	Target    float64 // target_advantage
	HasTarget bool
	Records   int // n for predicate singling out (0 if absent)
	// Candidates is M of a uniform prior (candidates, or uniform(M)); 0
	// when the row's prior is not uniform over a known number of values.
	Candidates int64
	Weight     float64 // predicate weight w
	HasWeight  bool

	// The multi-target one-run request: n targets (from targets with a
	// homogeneous baseline, or from the prior's p_i), v successes, and the
	// confidence of the success upper bound.
	Targets      int
	Successes    int
	HasSuccesses bool
	Confidence   float64
	tail         *bound.OneRunTail
	tailWhy      string
	adv          float64 // 1 − f(baseline) − baseline, once computed
	hasAdv       bool
	fanoDone     bool
	fanoA1       bound.FanoBound
	fanoBest     bound.FanoBound
	fanoWhy      string

	compositions int // k of the compositions column (1 without)
	// The pmp_data table of the row (its path as written), the run's
	// cache of such tables and results, and this row's result.
	pmpPath  string
	pmp      *pmpCache
	pmpFrom  pmpSource // the table the row comes from, and who opens files
	pmpDone  bool
	pmpEps   float64
	pmpDelta float64
	pmpWhy   string
	pmpNote  string // a warning about the data, shown with the values
}

// maxFanoCandidates bounds M for the Fano columns (the uniform prior is a
// formula, so this is only the range of an int).
const maxFanoCandidates = 1 << 53

// maxFanoDistributions is the largest number of distinct prior
// distributions (cells of a conditional prior) for which the Fano columns
// are computed: each costs one order optimisation, about a millisecond.
const maxFanoDistributions = 256

// priorDistributions returns the distributions of the row's prior over
// its attribute's values (a prior table with its frequency table), or nil.
func (r *Release) priorDistributions() *priors.Distributions {
	if !r.HasPrior {
		return nil
	}
	return r.Prior.Distributions()
}

// paddedPrior returns a distribution's probabilities over the whole
// domain: the values a cell never shows are candidates of probability 0.
func paddedPrior(d priors.Distribution, domain int) []float64 {
	p := make([]float64, max(domain, len(d.P)))
	copy(p, d.P)
	return p
}

// fano computes the Fano bounds of Guo et al. once per row: Algorithm 1 and
// the order-optimised Algorithm 2, from the mechanism's Rényi (or
// mutual-information) view, for a uniform prior over the row's candidates
// or, for a prior with distributions, for each distinct distribution of
// its targets over the attribute's domain. Over several distributions each
// bound is the worst (largest) one: the bound of the riskiest target, as
// single-target bounds use the largest p.
func (r *Release) fano() (alpha1, best bound.FanoBound, why string) {
	if r.fanoDone {
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	r.fanoDone = true
	if r.Candidates > 0 {
		r.fanoA1, r.fanoBest, r.fanoWhy = r.fanoFor(int(min(r.Candidates, maxFanoCandidates)), nil)
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	d := r.priorDistributions()
	if d == nil {
		r.fanoWhy = "the Fano bounds need candidates, uniform(M), or a prior key with its frequency table"
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	if len(d.Distinct) > maxFanoDistributions {
		r.fanoWhy = fmt.Sprintf("prior %q has %d distinct distributions (cells); the Fano bounds are computed for at most %d: use fewer known columns or the marginal key", r.Prior.Key(), len(d.Distinct), maxFanoDistributions)
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	r.fanoA1, r.fanoBest = bound.FanoBound{Advantage: math.NaN()}, bound.FanoBound{Advantage: math.NaN()}
	for _, dist := range d.Distinct {
		if dist.P[0] >= 1 {
			// The cell's value is certain a priori: success 1, nothing to bound.
			r.fanoA1.Success, r.fanoBest.Success = 1, 1
			continue
		}
		a1, b, why := r.fanoFor(0, paddedPrior(dist, d.Domain))
		if why != "" {
			r.fanoWhy = why
			return r.fanoA1, r.fanoBest, r.fanoWhy
		}
		r.fanoA1, r.fanoBest = worseFano(r.fanoA1, a1), worseFano(r.fanoBest, b)
	}
	if math.IsNaN(r.fanoA1.Advantage) {
		r.fanoWhy = fmt.Sprintf("every target of prior %q has a value certain a priori (p = 1): there is no advantage to bound", r.Prior.Key())
	}
	return r.fanoA1, r.fanoBest, r.fanoWhy
}

// worseFano returns the worse of two Fano bounds: the largest advantage
// (NaN counts as absent) with its order and information, and the largest
// success and baseline of the two.
func worseFano(a, b bound.FanoBound) bound.FanoBound {
	w := a
	if math.IsNaN(a.Advantage) || b.Advantage > a.Advantage {
		w = b
	}
	w.Success = math.Max(a.Success, b.Success)
	w.PStar = math.Max(a.PStar, b.PStar)
	return w
}

// The reasons a mechanism has no Fano bounds (see fanoMechanisms).
const (
	whyFanoAddRemove = "the Fano bounds need replace-one parameters, and DP-SGD is accounted here under add/remove neighbours"
	whyFanoNoRenyi   = "the Fano bounds need a Rényi or mutual-information view of the mechanism, which (ε, δ)-DP does not give"
	// The mutual information of randomized response is computed for one
	// release only.
	whyFanoComposedRR = "the Fano bounds of rr rows are for one composition"
)

// fanoFor computes the Fano bounds for M candidates with a uniform prior
// (prior nil) or for a prior vector (m 0).
func (r *Release) fanoFor(m int, prior []float64) (alpha1, best bound.FanoBound, why string) {
	var err error
	switch {
	case r.Mechanism == MechanismDPSGD:
		return alpha1, best, whyFanoAddRemove
	case r.Mechanism == MechanismRR:
		rr, ok := r.Curve.(curve.RandomizedResponse)
		if !ok {
			return alpha1, best, whyFanoComposedRR
		}
		var mi float64
		if mi, err = bound.FanoMIRandomizedResponse(rr, prior); err == nil {
			alpha1, err = bound.FanoAlgorithm1(mi, m, prior)
			best = alpha1
		}
	case r.hasRho:
		alpha1, best, err = bound.FanoZCDP(curve.ZCDP{Rho: r.rho}, m, prior)
		if err == nil && r.hasMu {
			// Gaussian-type rows (gaussian, gdp, marginals): Theorem 2
			// (eq. 19) bounds the mutual information by
			// −Σ p_m ln(p_m + (1 − p_m)e^{−μ²/2}) ≤ min(μ²/2, H(p)), never
			// looser than Theorem 1's μ²/2 at α = 1 (catalog B9; for gdp
			// rows through the pairwise KL ≤ μ²/2, B9's extension).
			alpha1, best, err = r.fanoGaussianThm2(m, prior, alpha1, best)
		}
	case r.hasRDP:
		alpha1, best, err = bound.FanoRDP(r.rdp, m, prior)
	case r.hasPure:
		alpha1, best, err = bound.FanoRDP(curve.RDP{Orders: []float64{math.Inf(1)}, Epsilons: []float64{r.pureEps}}, m, prior)
	default:
		return alpha1, best, whyFanoNoRenyi
	}
	if err != nil {
		return alpha1, best, err.Error()
	}
	return alpha1, best, ""
}

// fanoGaussianThm2 tightens the Fano bounds of a Gaussian-type row: the
// α = 1 bound becomes Algorithm 1 with Theorem 2's mutual information when
// that is tighter, and the order-optimised bound is never above it.
func (r *Release) fanoGaussianThm2(m int, prior []float64, alpha1, best bound.FanoBound) (bound.FanoBound, bound.FanoBound, error) {
	mi, err := bound.FanoMIGaussian(r.mu, m, prior)
	if err != nil {
		return alpha1, best, err
	}
	thm2, err := bound.FanoAlgorithm1(mi, m, prior)
	if err != nil {
		return alpha1, best, err
	}
	if thm2.Success < alpha1.Success {
		alpha1 = thm2
	}
	if alpha1.Success < best.Success {
		best = alpha1
	}
	return alpha1, best, nil
}

// advantage returns 1 − f(baseline) − baseline, computed once per row:
// several columns need it, and for numerical curves (zCDP, RDP) it is the
// costly part of the row.
func (r *Release) advantage() float64 {
	if !r.hasAdv {
		r.adv, r.hasAdv = r.Curve.Advantage(r.Baseline), true
	}
	return r.adv
}

// rowDelta is the δ of the row's own (ε, δ) guarantee (0 for pure rows).
func (r *Release) rowDelta() float64 { return r.delta }

// maxTailTargets bounds n for the tail bounds: the dominating distribution
// costs O(n log² n) time and O(n) memory.
const maxTailTargets = 10_000_000

// Tail returns the dominating Poisson-binomial of Swanberg et al. for the
// row's targets at its (ε, δ), building it on first use, or the reason the
// row has none. A row without targets has none, silently.
func (r *Release) Tail() (*bound.OneRunTail, skip) {
	if r.tail != nil {
		return r.tail, skip{}
	}
	if r.tailWhy != "" {
		return nil, skip{why: r.tailWhy}
	}
	if r.Targets == 0 {
		return nil, skip{silent: true}
	}
	if !r.HasBaseline {
		return nil, skip{need: NeedBaseline}
	}
	eps, delta, s := r.epsDelta()
	if !s.ok() {
		return nil, s
	}
	if r.Targets > maxTailTargets {
		r.tailWhy = fmt.Sprintf("targets: %d is more than the %d the tail bounds evaluate", r.Targets, maxTailTargets)
		if r.HasPrior {
			r.tailWhy = fmt.Sprintf("prior %q has %d targets, more than the %d the tail bounds evaluate", r.Prior.Key(), r.Targets, maxTailTargets)
		}
		return nil, skip{why: r.tailWhy}
	}
	var p []float64
	if r.HasPrior {
		p = r.Prior.Ps()
	} else {
		p = make([]float64, r.Targets)
		for i := range p {
			p[i] = r.Baseline
		}
	}
	t, err := bound.NewOneRunTail(eps, delta, p)
	if err != nil {
		r.tailWhy = err.Error()
		return nil, skip{why: r.tailWhy}
	}
	r.tail = t
	return t, skip{}
}

// EpsilonDelta returns the (ε, δ) guarantee the ε-based bounds use, or a
// reason why the row has none.
func (r *Release) EpsilonDelta() (eps, delta float64, why string) {
	switch r.epsState {
	case 1:
		return r.epsilon, r.delta, ""
	case -1:
		return 0, 0, r.epsWhy
	}
	if !r.hasDelta || r.delta <= 0 {
		r.epsState, r.epsWhy, r.noDelta = -1, "no delta: fill delta (e.g. 1e-5) to convert mechanism "+string(r.Mechanism)+" to (ε, δ)-DP", true
		return 0, 0, r.epsWhy
	}
	r.epsilon = r.epsilonAt(r.delta)
	if math.IsNaN(r.epsilon) || math.IsInf(r.epsilon, 1) {
		r.epsState, r.epsWhy = -1, "no finite ε at this delta: the mechanism is not (ε, δ)-DP for any ε at δ = "+formatNumber(r.delta)
		return 0, 0, r.epsWhy
	}
	r.epsState = 1
	return r.epsilon, r.delta, ""
}

// epsDelta is EpsilonDelta for the output columns: a row of a mechanism
// without a native ε that has no δ > 0 lacks an input (NeedDelta); any
// other reason is the row's values'.
func (r *Release) epsDelta() (eps, delta float64, s skip) {
	eps, delta, why := r.EpsilonDelta()
	switch {
	case why == "":
		return eps, delta, skip{}
	case r.noDelta:
		return 0, 0, skip{need: NeedDelta}
	}
	return 0, 0, skip{why: why}
}

// rowError collects the problems of a row; each names its column.
type rowError []string

func (e *rowError) add(format string, args ...any) { *e = append(*e, fmt.Sprintf(format, args...)) }

// formatNumber prints a value in a message.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// resolve turns parsed inputs into a Release, or explains why it cannot.
func (b *Binding) resolve(in *inputs, problems *rowError) *Release {
	spec := b.mechanism(in, problems)
	if spec == nil {
		return nil
	}
	name := b.name
	// Every filled parameter column must be one the mechanism uses.
	for f := Field(0); f < numFields; f++ {
		if !in.has(f) {
			continue
		}
		col := b.vocab.Column(f)
		isParam := col.Defines || f == FieldSensitivity || f == FieldDelta || f == FieldCompositions
		if isParam && !hasField(spec.defines, f) && !hasField(spec.modifiers, f) {
			problems.add("%s: filled, but mechanism %s does not use it; clear it or correct mechanism", name(f), spec.name)
		}
	}
	for _, f := range spec.required {
		if !in.has(f) {
			problems.add("%s: empty, but mechanism %s needs it; expected %s", name(f), spec.name, b.vocab.Column(f).Domain)
		}
	}
	if len(*problems) > 0 {
		return nil
	}
	compositions := 1.0
	if in.has(FieldCompositions) {
		compositions = in.num[FieldCompositions]
	}
	if compositions > curve.MaxCompositions && composesOptimally(spec.name) {
		problems.add("%s: %s is more than the %d compositions riskbatch composes for mechanism %s; expected a whole number from 1 to %d",
			name(FieldCompositions), formatNumber(compositions), curve.MaxCompositions, spec.name, curve.MaxCompositions)
		return nil
	}
	k := int(compositions)
	r := &Release{Mechanism: spec.name, compositions: k}
	if in.has(FieldPMPData) {
		r.pmpPath, r.pmp = strings.TrimSpace(in.text[FieldPMPData]), b.pmpData
		r.pmpFrom = pmpSource{file: b.source, loader: b.data}
		// A cell naming a file that cannot be used (refused where it
		// points, missing, not a regular file) is an error of the row,
		// as any unusable input.
		if _, err := r.pmp.table(pmpRef{file: b.source, ref: r.pmpPath}, r.pmpFrom); err != nil {
			if ref, ok := errors.AsType[*pmpRefError](err); ok {
				problems.add("%s: %v", b.name(FieldPMPData), ref.err)
				return nil
			}
		}
	}
	r.hasDelta = in.has(FieldDelta)
	r.delta = in.num[FieldDelta]
	sens := 1.0
	if in.has(FieldSensitivity) {
		sens = in.num[FieldSensitivity]
	}
	// pureCurve is the curve of k compositions of a pure ε-DP mechanism
	// whose single curve is one: the optimal composition theorem (Kairouz,
	// Oh & Viswanath 2015) for k > 1.
	pureCurve := func(one curve.Curve, eps float64) curve.Curve {
		if k == 1 {
			return one
		}
		c, err := curve.ComposeApprox(eps, 0, k)
		if err != nil {
			problems.add("%s: %v", name(FieldCompositions), err)
			return nil
		}
		return c
	}
	// setPure records a pure ε-DP guarantee (k-fold: kε, exact for the ε
	// of pure DP). A row that also gives δ > 0 reads the curve's own
	// (ε, δ) profile at that δ, which is smaller.
	setPure := func(eps float64) {
		r.pureEps, r.hasPure = compositions*eps, true
		if p, ok := r.Curve.(interface{ EpsilonAt(float64) float64 }); ok && r.delta > 0 {
			r.epsilonAt = p.EpsilonAt
			return
		}
		r.epsilon, r.delta, r.epsState = compositions*eps, 0, 1
	}
	setGaussian := func(mu float64) {
		mu *= math.Sqrt(compositions) // G_μ composed k times is G_{μ√k}
		g := curve.Gaussian{Mu: mu}
		r.Curve = g
		r.epsilonAt = func(delta float64) float64 { return b.epsilons.gaussianEpsilonAt(mu, delta) }
		r.mu, r.hasMu = mu, true
		r.rho, r.hasRho = mu*mu/2, true // the Gaussian mechanism is (μ²/2)-zCDP
	}

	if in.has(FieldExtraStages) && spec.name != MechanismDPSGD {
		problems.add("%s: filled, but mechanism %s does not use it; clear it or correct mechanism", name(FieldExtraStages), spec.name)
		return nil
	}
	switch spec.name {
	case MechanismPure, MechanismExponential:
		if r.delta != 0 {
			problems.add("%s: %s, but mechanism %s means δ = 0; expected empty or 0, or mechanism approx", name(FieldDelta), formatNumber(r.delta), spec.name)
			return nil
		}
		eps := in.num[FieldEpsilon]
		r.Curve = pureCurve(curve.EpsDelta{Epsilon: eps}, eps)
		setPure(eps)
		if spec.name == MechanismExponential {
			r.sensitiv = sens // of the loss (Prop. 9's Δ_ℓ)
		}
	case MechanismApprox:
		eps, delta := in.num[FieldEpsilon], r.delta
		if k == 1 {
			r.Curve = curve.EpsDelta{Epsilon: eps, Delta: delta}
			r.epsilon, r.epsState = eps, 1
			if delta == 0 {
				r.pureEps, r.hasPure = eps, true
			}
			break
		}
		c, err := curve.NewComposedApprox(eps, delta, k)
		if err != nil {
			problems.add("%s: %v", name(FieldCompositions), err)
			return nil
		}
		r.Curve = c
		// The composed guarantee is read at δ_total = k·δ (what basic
		// composition would claim); the optimal theorem gives a smaller ε.
		dt := compositions * delta
		r.delta = math.Min(dt, 1)
		if dt >= 1 {
			r.epsState, r.epsWhy = -1, "compositions·delta reaches 1: the composed (ε, δ) guarantee is vacuous"
			break
		}
		e := c.EpsilonAt(dt)
		r.epsilon, r.epsState = e, 1
		if math.IsInf(e, 1) || math.IsNaN(e) {
			r.epsState, r.epsWhy = -1, "no finite ε for the composed mechanism at δ_total = compositions·δ"
		}
	case MechanismGaussian, MechanismGDP:
		mu := in.num[FieldMu]
		if in.has(FieldSigma) {
			fromSigma := sens / in.num[FieldSigma]
			if in.has(FieldMu) && math.Abs(mu-fromSigma) > 1e-9*math.Max(mu, fromSigma) {
				problems.add("%s: %s disagrees with sensitivity/sigma = %s; fill one or the other", name(FieldMu), formatNumber(mu), formatNumber(fromSigma))
				return nil
			}
			mu = fromSigma
			r.sensitiv, r.sigma = sens, in.num[FieldSigma]
		}
		setGaussian(mu)
	case MechanismMarginals:
		d, kw, du := in.num[FieldColumnsTotal], in.num[FieldMarginalK], in.num[FieldColumnsUnknown]
		for _, f := range []Field{FieldMarginalK, FieldColumnsUnknown} {
			if v := in.num[f]; v > d {
				problems.add("%s: %s is more than %s = %s; expected a whole number from 1 to %s", name(f), formatNumber(v), name(FieldColumnsTotal), formatNumber(d), name(FieldColumnsTotal))
			}
		}
		if len(*problems) > 0 {
			return nil
		}
		queries := curve.MarginalQueries(int(d), int(kw), int(du))
		if queries == 0 {
			// K = C(d, k) − C(d − d′, k) is 0 only for d′ = 0.
			problems.add("%s: %s leaves no marginal on an unknown column (K = 0), so there is nothing to bound; expected a whole number from 1 to %s = %s",
				name(FieldColumnsUnknown), formatNumber(du), name(FieldColumnsTotal), formatNumber(d))
			return nil
		}
		// Each marginal has L2 sensitivity √2 (one count down, one up):
		// μ₁ = √2/σ; K compositions give √K·μ₁ (Swanberg et al. App. A).
		setGaussian(math.Sqrt(queries) * math.Sqrt2 / in.num[FieldSigma])
	case MechanismLaplace:
		eps := sens / in.num[FieldLaplaceScale]
		r.Curve = pureCurve(curve.Laplace{Epsilon: eps}, eps)
		r.lapScale = true
		setPure(eps)
	case MechanismRR:
		eps := in.num[FieldEpsilon]
		r.Curve = pureCurve(curve.RandomizedResponse{Epsilon: eps, Categories: int(in.num[FieldRRCategories])}, eps)
		setPure(eps)
	case MechanismZCDP:
		z := curve.ZCDP{Rho: compositions * in.num[FieldRho]}
		r.Curve, r.epsilonAt = z, z.EpsilonAt
		r.rho, r.hasRho = z.Rho, true
	case MechanismRDP:
		c := curve.RDP{Orders: []float64{in.num[FieldRDPOrder]}, Epsilons: []float64{compositions * in.num[FieldRDPEpsilon]}}
		if err := c.Validate(); err != nil {
			problems.add("%s, %s: %v", name(FieldRDPOrder), name(FieldRDPEpsilon), err)
			return nil
		}
		r.Curve, r.epsilonAt = c, c.EpsilonAt
		r.rdp, r.hasRDP = c, true
	case MechanismDPSGD:
		r.dpsgd = curve.DPSGD{NoiseMultiplier: in.num[FieldNoiseMultiplier], SampleRate: in.num[FieldSampleRate], Steps: int(in.num[FieldSteps])}
		if in.has(FieldExtraStages) {
			extra, err := parseStages(in.text[FieldExtraStages])
			if err != nil {
				problems.add("%s: %v", name(FieldExtraStages), err)
				return nil
			}
			r.extraStages = extra
		}
		stages := curve.DPSGDStages(r.dpsgd, r.extraStages)
		r.extraRDP = b.stagesRDP(r.extraStages)
		r.rdp, r.hasRDP = b.stagesRDP(stages), true
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
	}
	if r.Curve == nil {
		return nil
	}

	switch {
	case in.has(FieldBaseline) && in.has(FieldCandidates):
		base, m := in.num[FieldBaseline], in.num[FieldCandidates]
		if math.Abs(base-1/m) > 1e-12*math.Max(base, 1/m) {
			problems.add("%s: %s disagrees with %s = %s (1/%s = %s); fill one or the other", name(FieldBaseline), formatNumber(base), name(FieldCandidates), formatNumber(m), formatNumber(m), formatNumber(1/m))
			return nil
		}
		r.Baseline, r.HasBaseline = base, true
	case in.has(FieldBaseline):
		r.Baseline, r.HasBaseline = in.num[FieldBaseline], true
	case in.has(FieldCandidates):
		r.Baseline, r.HasBaseline = 1/in.num[FieldCandidates], true
	}
	if in.has(FieldPrior) && !b.joinPrior(r, in, problems) {
		return nil
	}
	r.Target, r.HasTarget = in.num[FieldTargetAdvantage], in.has(FieldTargetAdvantage)
	if in.has(FieldCandidates) {
		r.Candidates = int64(in.num[FieldCandidates])
	} else if m, ok := r.Prior.Candidates(); ok && r.HasPrior {
		r.Candidates = m
	}
	r.Records, r.Weight, r.HasWeight = int(in.num[FieldRecords]), in.num[FieldPredicateWeight], in.has(FieldPredicateWeight)
	if r.HasWeight && r.Records > 0 && r.Weight > 1/float64(r.Records) {
		problems.add("%s: %s is more than 1/%s = %s; expected a singling-out predicate's weight, from 0 to 1/%s", name(FieldPredicateWeight), formatNumber(r.Weight), name(FieldRecords), formatNumber(1/float64(r.Records)), name(FieldRecords))
		return nil
	}
	switch {
	case r.HasPrior:
		r.Targets = r.Prior.Targets()
	case in.has(FieldTargets):
		r.Targets = int(in.num[FieldTargets])
	}
	if in.has(FieldSuccesses) {
		r.Successes, r.HasSuccesses = int(in.num[FieldSuccesses]), true
		if r.Targets == 0 {
			problems.add("%s: filled, but the row has no targets: fill targets (with baseline) or a prior", name(FieldSuccesses))
			return nil
		}
		if r.Successes > r.Targets {
			if r.HasPrior {
				problems.add("%s: %d is more than the %d targets of prior %q; expected 0 ≤ %s ≤ %d", name(FieldSuccesses), r.Successes, r.Targets, r.Prior.Key(), name(FieldSuccesses), r.Targets)
			} else {
				problems.add("%s: %d is more than the %d targets; expected 0 ≤ %s ≤ %s", name(FieldSuccesses), r.Successes, r.Targets, name(FieldSuccesses), name(FieldTargets))
			}
			return nil
		}
	}
	r.Confidence = b.confidence()
	if in.has(FieldConfidence) {
		r.Confidence = in.num[FieldConfidence]
	}
	return r
}

// joinPrior resolves the row's prior cell (a key of a loaded prior table or
// an inline prior) and checks it against baseline, candidates and targets
// typed in the same row, which must agree with it.
func (b *Binding) joinPrior(r *Release, in *inputs, problems *rowError) bool {
	name := b.name
	p, err := b.priors.Resolve(in.text[FieldPrior])
	if err != nil {
		problems.add("%s", priorProblem(name(FieldPrior), err))
		return false
	}
	if p.Targets() == 0 {
		problems.add("%s: %s describes no targets", name(FieldPrior), quoteClipped(in.text[FieldPrior]))
		return false
	}
	base := p.Max()
	if r.HasBaseline && math.Abs(r.Baseline-base) > 1e-12*math.Max(base, r.Baseline) {
		what := name(FieldBaseline)
		if !in.has(FieldBaseline) {
			what = name(FieldCandidates)
		}
		problems.add("%s: %s disagrees with prior %q, whose largest p is %s; fill one or the other", what, formatNumber(r.Baseline), in.text[FieldPrior], formatNumber(base))
		return false
	}
	if in.has(FieldTargets) && int(in.num[FieldTargets]) != p.Targets() {
		problems.add("%s: %s disagrees with prior %q, which has %s; fill one or the other", name(FieldTargets), formatNumber(in.num[FieldTargets]), in.text[FieldPrior], countOf(p.Targets(), "target", "targets"))
		return false
	}
	r.Prior, r.HasPrior = p, true
	r.Baseline, r.HasBaseline = base, true
	return true
}

// mechanism returns the row's mechanism: the one named in its mechanism
// column, or the one its filled columns imply.
func (b *Binding) mechanism(in *inputs, problems *rowError) *mechanismSpec {
	specs := b.specs
	if in.has(FieldMechanism) {
		spec, err := lookupMechanism(specs, b.mechIndex, in.text[FieldMechanism])
		if err != nil {
			problems.add("%s: %v", b.name(FieldMechanism), err)
			return nil
		}
		return spec
	}
	var found []*mechanismSpec
	var filled []string
	for i := range specs {
		s := &specs[i]
		for _, f := range s.signature {
			if in.has(f) {
				found = append(found, s)
				break
			}
		}
	}
	drop := func(name Mechanism) {
		for i, s := range found {
			if s.name == name {
				found = append(found[:i], found[i+1:]...)
				return
			}
		}
	}
	present := func(name Mechanism) bool {
		for _, s := range found {
			if s.name == name {
				return true
			}
		}
		return false
	}
	// Columns that two mechanisms share belong to the more specific one.
	if present(MechanismRR) {
		drop(MechanismPure)
		drop(MechanismApprox)
	}
	if present(MechanismMarginals) {
		drop(MechanismGaussian)
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
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		problems.add("no privacy parameters: fill epsilon (and delta), sigma, mu or another mechanism's columns; see riskbatch columns")
		return nil
	}
	for _, s := range found {
		for _, f := range s.signature {
			if in.has(f) {
				filled = append(filled, b.name(f))
			}
		}
	}
	problems.add("%s: empty, and the filled columns %s describe different mechanisms; fill mechanism to say which one the release uses", b.name(FieldMechanism), strings.Join(filled, ", "))
	return nil
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

// priorProblem is the message of a prior cell that resolves to no prior,
// within a row message's length: the key and what is wrong, the tables
// loaded by file name, and the valid inline forms in brief.
func priorProblem(column string, err error) string {
	var ke *priors.KeyError
	var ie *priors.InlineError
	switch {
	case errors.As(err, &ke) && len(ke.Files) == 0:
		return fmt.Sprintf("%s %s: no prior tables were loaded (pass --priors FILE), and it is not an inline prior: %s", column, quoteClipped(ke.Key), inlineBrief)
	case errors.As(err, &ke):
		files := make([]string, len(ke.Files))
		for i, f := range ke.Files {
			files[i] = filepath.Base(f) // "name (n keys)": the name without its directory
		}
		msg := fmt.Sprintf("%s %s: no such key in the prior tables loaded (%s)", column, quoteClipped(ke.Key), strings.Join(files, "; "))
		if len(ke.Suggestions) > 0 {
			msg += "; did you mean " + quoteClipped(ke.Suggestions[0]) + "?"
		}
		return msg
	case errors.As(err, &ie):
		return fmt.Sprintf("%s: inline prior %s: %s; expected %s", column, quoteClipped(ie.Text), ie.Problem, inlineBrief)
	}
	return column + ": " + err.Error()
}

// inlineBrief lists the inline priors for a message.
const inlineBrief = "uniform(M), zipf(s, N) or zipf(s, N, rank)"

// countOf writes n with the singular or plural noun: "1 target", "3 targets".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
