package curve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Composition is the trade-off curve of the (adaptive) composition of a
// list of stages, each a number of releases of one mechanism
// (pld.Stage: the Gaussian and the Poisson-subsampled Gaussian mechanism,
// the Laplace mechanism, k-ary randomized response, and any pure or
// approximate DP mechanism), computed as tightly as the mechanisms allow:
//
//   - Gaussian stages only: G_μ with μ = √(Σ_i n_i·μ_i²), exact (Dong,
//     Roth & Su 2022, Cor. 3.3).
//   - (ε, δ) stages of a single (ε, δ) (pure at δ = 0, and binary
//     randomized response, whose curve is f_{ε,0}): the optimal composition
//     theorem of Kairouz, Oh & Viswanath 2015, Thm 3.3 (ComposedApprox),
//     exact for the class.
//   - Anything else: the privacy-loss distribution accountant of package
//     pld (pessimistic connect-the-dots discretisation, FFT composition,
//     every numerical error added to δ; exact for randomized response of
//     one ε, whose loss takes the values −ε, 0 and ε only). When every
//     stage is (ε, δ)-DP for one (ε, δ) (Laplace and randomized response
//     are (ε, 0)-DP), the optimal composition theorem's curve is computed
//     too and the tighter of the two bounds is taken at every point.
//
// Every curve taken is a valid lower bound on the composition's type II
// errors, so their pointwise maximum is one too (a maximum of convex
// functions is convex), and every δ(ε), ε(δ) and advantage is the smaller
// of the upper bounds: the result is never looser than the (ε, δ) route
// of Kairouz et al. where that applies. Error bounds how far above the
// exact values the reported ones may be.
//
// The neighbouring relation is whichever each stage's parameters were
// stated for; the subsampled Gaussian is under add/remove neighbours, and
// randomized response under replace-one (see pld).
type Composition struct {
	parts  []profiled
	method string
	pld    *pld.PLD // nil when the curve is a closed form
}

// profiled is a trade-off curve with its privacy profile, both bounding
// the risk from above.
type profiled interface {
	Curve
	DeltaAt(eps float64) float64
	EpsilonAt(delta float64) float64
}

// Accountant builds (or looks up) the PLD accountant of a list of stages;
// nil in Compose selects NewPLD without shared chains.
type Accountant func(stages []pld.Stage) (*pld.PLD, error)

// The methods Composition.Method reports.
const (
	MethodGaussian = "closed form (Gaussian: μ = √(Σ n·μ²))"
	MethodKairouz  = "optimal composition theorem (Kairouz, Oh & Viswanath 2015)"
	MethodPLD      = "privacy-loss distribution (pessimistic, connect-the-dots)"
	MethodPLDOrKOV = "privacy-loss distribution, or the optimal composition theorem where tighter"
)

// Compose returns the curve of the composition of the stages (see
// Composition). Invalid stages are a *pld.StageError; an accountant that
// fails is an error unless the optimal composition theorem applies
// without it.
func Compose(stages []pld.Stage, accountant Accountant) (*Composition, error) {
	if accountant == nil {
		accountant = func(stages []pld.Stage) (*pld.PLD, error) { return NewPLD(stages, nil) }
	}
	if len(stages) == 0 {
		return nil, pld.ErrNoStages
	}
	if mu, ok := gaussianTotal(stages); ok {
		return &Composition{parts: []profiled{Gaussian{Mu: mu}}, method: MethodGaussian}, nil
	}
	var kov *ComposedApprox
	if eps, delta, n, ok := commonEpsDelta(stages); ok && n <= MaxCompositions {
		c, err := NewComposedApprox(eps, delta, n)
		if err != nil {
			return nil, err
		}
		if exactByKOV(stages) {
			return &Composition{parts: []profiled{c}, method: MethodKairouz}, nil
		}
		kov = c
	}
	p, err := accountant(stages)
	switch {
	case err != nil && kov != nil:
		return &Composition{parts: []profiled{kov}, method: MethodKairouz}, nil
	case err != nil:
		return nil, err
	case kov != nil:
		return &Composition{parts: []profiled{PLDCurve{PLD: p}, kov}, method: MethodPLDOrKOV, pld: p}, nil
	}
	return &Composition{parts: []profiled{PLDCurve{PLD: p}}, method: MethodPLD, pld: p}, nil
}

// gaussianTotal returns μ = √(Σ n_i/σ_i²), rounded up, when every stage is a plain
// Gaussian (sample rate 1).
func gaussianTotal(stages []pld.Stage) (float64, bool) {
	var sum float64
	for _, st := range stages {
		if st.Mechanism != pld.SubsampledGaussian || st.SampleRate != 1 || !(st.NoiseMultiplier > 0) || st.Steps < 1 {
			return 0, false
		}
		// μ bounds the privacy loss from above: each quotient, the sum
		// and the root are rounded up.
		sum = numeric.AddUp(sum, numeric.DivUp(numeric.DivUp(float64(st.Steps), st.NoiseMultiplier), st.NoiseMultiplier))
	}
	return numeric.SqrtUp(sum), !math.IsInf(sum, 0) && !math.IsNaN(sum)
}

// stageEpsDelta returns the (ε, δ) guarantee of one release of a stage
// that has one as its native parameters.
func stageEpsDelta(st pld.Stage) (eps, delta float64, ok bool) {
	switch st.Mechanism {
	case pld.Laplace, pld.RandomizedResponse:
		return st.Epsilon, 0, true
	case pld.EpsilonDelta:
		return st.Epsilon, st.Delta, true
	}
	return 0, 0, false
}

// commonEpsDelta returns the (ε, δ) shared by every stage and the total
// number of releases, if every stage has the same one.
func commonEpsDelta(stages []pld.Stage) (eps, delta float64, n int, ok bool) {
	for i, st := range stages {
		e, d, has := stageEpsDelta(st)
		if !has || st.Steps < 1 || (i > 0 && (e != eps || d != delta)) {
			return 0, 0, 0, false
		}
		eps, delta = e, d
		if n > MaxCompositions-st.Steps {
			return 0, 0, 0, false
		}
		n += st.Steps
	}
	return eps, delta, n, true
}

// exactByKOV reports whether the optimal composition theorem is exact for
// the stages: every stage is an (ε, δ) mechanism (whose dominating pair
// the theorem composes) or binary randomized response (whose curve is
// f_{ε,0}).
func exactByKOV(stages []pld.Stage) bool {
	for _, st := range stages {
		if st.Mechanism != pld.EpsilonDelta && (st.Mechanism != pld.RandomizedResponse || st.Categories != 2) {
			return false
		}
	}
	return true
}

// Mu returns μ of the composition of Gaussian stages alone (G_μ), and
// false for any other composition.
func (c *Composition) Mu() (float64, bool) {
	if g, ok := c.parts[0].(Gaussian); ok && c.method == MethodGaussian {
		return g.Mu, true
	}
	return 0, false
}

// Method says how the curve was computed (one of the Method constants).
func (c *Composition) Method() string { return c.method }

// PLD returns the accountant the curve uses, or nil for a closed form.
func (c *Composition) PLD() *pld.PLD { return c.pld }

// Error returns a bound on how far the reported δ(ε), advantages and
// 1 − f(α) may be above the exact values of the composition: the PLD
// accountant's error (discretisation estimate, floating-point bound and
// truncated tails: pld.Errors) when it is used, and 0 for the closed forms
// and the optimal composition theorem, whose only error is floating-point
// rounding, directed towards more risk.
func (c *Composition) Error() (float64, error) {
	if c.pld == nil {
		return 0, nil
	}
	e, err := c.pld.Errors()
	if err != nil {
		return math.NaN(), fmt.Errorf("the PLD error estimate failed: %w", err)
	}
	return e.Delta(), nil
}

// TradeOff returns the largest of the curves' f(α), a lower bound on the
// composition's.
func (c *Composition) TradeOff(alpha float64) float64 {
	f := c.parts[0].TradeOff(alpha)
	for _, p := range c.parts[1:] {
		f = math.Max(f, p.TradeOff(alpha))
	}
	return f
}

// Advantage returns the smallest of the curves' 1 − f(b) − b.
func (c *Composition) Advantage(b float64) float64 {
	return c.least(func(p profiled) float64 { return p.Advantage(b) })
}

// WorstAdvantage returns the smallest of the curves' η, an upper bound on
// the composition's.
func (c *Composition) WorstAdvantage() float64 {
	return c.least(func(p profiled) float64 { return p.WorstAdvantage() })
}

// DeltaAt returns the smallest of the curves' δ(ε) for ε ≥ 0.
func (c *Composition) DeltaAt(eps float64) float64 {
	return c.least(func(p profiled) float64 { return p.DeltaAt(eps) })
}

// EpsilonAt returns the smallest of the curves' ε(δ).
func (c *Composition) EpsilonAt(delta float64) float64 {
	return c.least(func(p profiled) float64 { return p.EpsilonAt(delta) })
}

func (c *Composition) least(f func(profiled) float64) float64 {
	v := f(c.parts[0])
	for _, p := range c.parts[1:] {
		v = math.Min(v, f(p))
	}
	return v
}

// StageRDP returns an RDP guarantee, at the given orders, of a stage of
// another kind than the subsampled Gaussian (for that one, see DPSGD): a
// pure ε-DP release (Laplace, randomized response, (ε, 0)) is
// (α, min(ε, α·ε²/2))-RDP (D_α ≤ D_∞ = ε, and ε-DP implies (ε²/2)-zCDP:
// Bun & Steinke 2016, Prop. 3.3), composed additively over its steps
// (Mironov 2017, Prop. 1); an (ε, δ) stage with δ > 0 has no RDP
// guarantee (+Inf).
func StageRDP(st pld.Stage, orders []float64) RDP {
	r := RDP{Orders: append([]float64(nil), orders...), Epsilons: make([]float64, len(orders))}
	for i, a := range orders {
		e, d, ok := stageEpsDelta(st)
		switch {
		case !ok || d > 0 || !(e >= 0):
			r.Epsilons[i] = math.Inf(1)
		default:
			r.Epsilons[i] = nudgeUp(math.Min(e, a*e*e/2) * float64(st.Steps))
		}
	}
	return r
}
