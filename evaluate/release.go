package evaluate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
)

// Curve is a trade-off function f (Dong, Roth & Su 2022): f(α) is the
// smallest type II error of any test with type I error α between the outputs
// on neighbouring datasets. Every bound of Kulynych et al. (seed 003) is
// computed from it.
type Curve interface {
	// TradeOff returns f(α).
	TradeOff(alpha float64) float64
	// Advantage returns 1 − f(b) − b, exactly (not rounded).
	Advantage(b float64) float64
	// WorstAdvantage returns η = max_α (1 − f(α) − α).
	WorstAdvantage() float64
}

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
	Curve     Curve

	// The (ε, δ) view of the mechanism, used by the ε-based families.
	// For pure and approx rows it is the row's own; for Gaussian rows it is
	// computed from μ at the row's δ when a column first asks for it.
	epsilon, delta float64
	epsState       int8   // 0 not computed, 1 known, -1 unavailable
	epsWhy         string // why it is unavailable
	gaussian       Gaussian
	hasDelta       bool

	Baseline    float64
	HasBaseline bool
	// Prior is the row's prior from a prior table or an inline prior: the
	// per-target p_i; Baseline is its largest p (single-target bounds).
	Prior     priors.Prior
	HasPrior  bool
	Target    float64 // target_advantage
	HasTarget bool
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
		r.epsState, r.epsWhy = -1, "no delta: fill delta (e.g. 1e-5) to convert the Gaussian mechanism to (ε, δ)-DP"
		return 0, 0, r.epsWhy
	}
	r.epsilon = r.gaussian.EpsilonAt(r.delta)
	r.epsState = 1
	return r.epsilon, r.delta, ""
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
			problems.add("%s: empty, but mechanism %s needs it", name(f), spec.name)
		}
	}
	if len(*problems) > 0 {
		return nil
	}
	if !spec.supported {
		problems.add("%s: %s is not supported by this version of riskbatch; supported: pure, approx, gaussian, gdp", name(FieldMechanism), spec.name)
		return nil
	}
	compositions := 1.0
	if in.has(FieldCompositions) {
		compositions = in.num[FieldCompositions]
	}
	r := &Release{Mechanism: spec.name}
	r.hasDelta = in.has(FieldDelta)
	r.delta = in.num[FieldDelta]

	switch spec.name {
	case MechanismPure:
		if r.delta != 0 {
			problems.add("%s: %s, but mechanism pure means δ = 0; use approx", name(FieldDelta), formatNumber(r.delta))
			return nil
		}
		r.epsilon = compositions * in.num[FieldEpsilon] // basic composition is exact for pure ε-DP
		r.epsState = 1
		r.Curve = EpsDelta{Epsilon: r.epsilon}
	case MechanismApprox:
		if compositions != 1 {
			problems.add("%s: composing (ε, δ) guarantees needs the optimal composition theorem, which this version does not implement; enter the composed (ε, δ)", name(FieldCompositions))
			return nil
		}
		r.epsilon = in.num[FieldEpsilon]
		r.epsState = 1
		r.Curve = EpsDelta{Epsilon: r.epsilon, Delta: r.delta}
	case MechanismGaussian, MechanismGDP:
		mu := in.num[FieldMu]
		if in.has(FieldSigma) {
			sens := 1.0
			if in.has(FieldSensitivity) {
				sens = in.num[FieldSensitivity]
			}
			fromSigma := sens / in.num[FieldSigma]
			if in.has(FieldMu) && math.Abs(mu-fromSigma) > 1e-9*math.Max(mu, fromSigma) {
				problems.add("%s: %s disagrees with sensitivity/sigma = %s; fill one or the other", name(FieldMu), formatNumber(mu), formatNumber(fromSigma))
				return nil
			}
			mu = fromSigma
		}
		mu *= math.Sqrt(compositions) // G_μ composed c times is G_{μ√c}
		r.gaussian = Gaussian{Mu: mu}
		r.Curve = r.gaussian
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
	return r
}

// joinPrior resolves the row's prior cell (a key of a loaded prior table or
// an inline prior) and checks it against baseline, candidates and targets
// typed in the same row, which must agree with it.
func (b *Binding) joinPrior(r *Release, in *inputs, problems *rowError) bool {
	name := b.name
	p, err := b.priors.Resolve(in.text[FieldPrior])
	if err != nil {
		// The prior package's messages start with `prior "KEY"`: they
		// already name the column when it is called prior.
		msg := err.Error()
		if !strings.HasPrefix(msg, name(FieldPrior)+" ") {
			msg = name(FieldPrior) + ": " + msg
		}
		problems.add("%s", msg)
		return false
	}
	if p.Targets() == 0 {
		problems.add("%s: %q describes no targets", name(FieldPrior), in.text[FieldPrior])
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
		problems.add("%s: %s disagrees with prior %q, which has %d targets", name(FieldTargets), formatNumber(in.num[FieldTargets]), in.text[FieldPrior], p.Targets())
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
		spec, err := lookupMechanism(specs, in.text[FieldMechanism])
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
