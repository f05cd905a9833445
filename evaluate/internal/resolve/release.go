package resolve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/priors"
)

// Release is one row resolved into the quantities the bounds need: its
// mechanism and trade-off curve, the parameters of its family of
// mechanisms (one struct per family, parsed once), what it says of the
// attack, and the results several columns share.
type Release struct {
	Mechanism release.Mechanism
	Curve     curve.Curve
	// Compositions is k of the compositions column (1 without).
	Compositions int

	epsDeltaView
	pureParams
	GaussianParams
	renyiParams
	dpsgdParams
	composeParams
	pmpParams
	derivedParams
	Attack
	rowResults
	// Audit is the audit of an audit row (Mechanism MechanismAudit), nil
	// on release rows.
	Audit *AuditRow
}

// PriorDistributions returns the distributions of the row's prior over
// its attribute's values (a prior table with its frequency table), or nil.
func (r *Release) PriorDistributions() *priors.Distributions {
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

// Advantage returns 1 − f(baseline) − baseline, computed once per row:
// several columns need it, and for numerical curves (zCDP, RDP) it is the
// costly part of the row.
func (r *Release) Advantage() float64 {
	if !r.HasAdv {
		r.adv, r.HasAdv = r.Curve.Advantage(r.Baseline), true
	}
	return r.adv
}

// RowDelta is the δ of the row's own (ε, δ) guarantee (0 for pure rows).
func (r *Release) RowDelta() float64 { return r.Delta }

// maxTailTargets bounds n for the tail bounds: the dominating distribution
// costs O(n log² n) time and O(n) memory.
const maxTailTargets = 10_000_000

// Tail returns the dominating Poisson-binomial of Swanberg et al. for the
// row's targets at its (ε, δ), building it on first use, or the reason the
// row has none. A row without targets has none, silently.
func (r *Release) Tail() (*bound.OneRunTail, Skip) {
	if r.tail != nil {
		return r.tail, Skip{}
	}
	if r.tailWhy != "" {
		return nil, Skip{Why: r.tailWhy}
	}
	if r.Targets == 0 {
		return nil, Skip{Silent: true}
	}
	if !r.HasBaseline {
		return nil, Skip{Need: NeedBaseline}
	}
	eps, delta, s := r.EpsDelta()
	if !s.OK() {
		return nil, s
	}
	if r.Targets > maxTailTargets {
		r.tailWhy = fmt.Sprintf("targets: %d is more than the %d the tail bounds evaluate", r.Targets, maxTailTargets)
		if r.HasPrior {
			r.tailWhy = fmt.Sprintf("prior %q has %d targets, more than the %d the tail bounds evaluate", r.Prior.Key(), r.Targets, maxTailTargets)
		}
		return nil, Skip{Why: r.tailWhy}
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
		return nil, Skip{Why: r.tailWhy}
	}
	r.tail = t
	return t, Skip{}
}

// EpsilonDelta returns the (ε, δ) guarantee the ε-based bounds use, or a
// reason why the row has none.
func (r *Release) EpsilonDelta() (eps, delta float64, why string) {
	switch r.EpsState {
	case 1:
		return r.Epsilon, r.Delta, ""
	case -1:
		return 0, 0, r.epsWhy
	}
	if !r.HasDelta || r.Delta <= 0 {
		r.EpsState, r.epsWhy, r.noDelta = -1, "no delta: fill delta (e.g. 1e-5) to convert mechanism "+string(r.Mechanism)+" to (ε, δ)-DP", true
		return 0, 0, r.epsWhy
	}
	r.Epsilon = r.EpsilonAtDelta(r.Delta)
	if math.IsNaN(r.Epsilon) || math.IsInf(r.Epsilon, 1) {
		r.EpsState, r.epsWhy = -1, "no finite ε at this delta: the mechanism is not (ε, δ)-DP for any ε at δ = "+FormatNumber(r.Delta)
		return 0, 0, r.epsWhy
	}
	r.EpsState = 1
	return r.Epsilon, r.Delta, ""
}

// EpsilonAtDelta converts the mechanism to (ε, δ) at δ: epsilonAt, or the
// ε(δ) of its Gaussian curve through the run's cache (gaussianEps).
func (r *Release) EpsilonAtDelta(delta float64) float64 {
	if r.epsilonAt == nil && r.gaussianEps != nil {
		return r.gaussianEps.GaussianEpsilonAt(r.Mu, delta)
	}
	return r.epsilonAt(delta)
}

// EpsDelta is EpsilonDelta for the output columns: a row of a mechanism
// without a native ε that has no δ > 0 lacks an input (NeedDelta); any
// other reason is the row's values'.
func (r *Release) EpsDelta() (eps, delta float64, s Skip) {
	eps, delta, why := r.EpsilonDelta()
	switch {
	case why == "":
		return eps, delta, Skip{}
	case r.noDelta:
		return 0, 0, Skip{Need: NeedDelta}
	}
	return 0, 0, Skip{Why: why}
}

// FormatNumber prints a value in a message.
func FormatNumber(v float64) string { return release.FormatNumber(v) }
