package resolve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// maxFanoCandidates bounds M for the Fano columns (the uniform prior is a
// formula, so this is only the range of an int).
const maxFanoCandidates = 1 << 53

// maxFanoDistributions is the largest number of distinct prior
// distributions (cells of a conditional prior) for which the Fano columns
// are computed: each costs one order optimisation (microseconds where ε(α) = ρα,
// up to about a millisecond over the grid of other curves).
const maxFanoDistributions = 256

// Fano computes the Fano bounds of Guo et al. once per row: Algorithm 1 and
// the order-optimised Algorithm 2, from the mechanism's Rényi (or
// mutual-information) view, for a uniform prior over the row's candidates
// or, for a prior with distributions, for each distinct distribution of
// its targets over the attribute's domain. Over several distributions each
// bound is the worst (largest) one: the bound of the riskiest target, as
// single-target bounds use the largest p.
func (r *Release) Fano() (alpha1, best bound.FanoBound, why string) {
	if r.fanoDone {
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	r.fanoDone = true
	if r.Candidates > 0 {
		r.fanoA1, r.fanoBest, r.fanoWhy = r.fanoUniform(int(min(r.Candidates, maxFanoCandidates)))
		return r.fanoA1, r.fanoBest, r.fanoWhy
	}
	d := r.PriorDistributions()
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
	WhyFanoAddRemove = "the Fano bounds need replace-one parameters, and DP-SGD is accounted here under add/remove neighbours"
	WhyFanoNoRenyi   = "the Fano bounds need a Rényi or mutual-information view of the mechanism, which (ε, δ)-DP does not give"
	// The mutual information of randomized response is computed for one
	// release only.
	WhyFanoComposedRR = "the Fano bounds of rr rows are for one composition"
)

// fanoFor computes the Fano bounds for M candidates with a uniform prior
// (prior nil) or for a prior vector (m 0).
func (r *Release) fanoFor(m int, prior []float64) (alpha1, best bound.FanoBound, why string) {
	var err error
	switch {
	case r.Mechanism == release.MechanismDPSGD:
		return alpha1, best, WhyFanoAddRemove
	case r.Mechanism == release.MechanismRR:
		rr, ok := r.Curve.(curve.RandomizedResponse)
		if !ok {
			return alpha1, best, WhyFanoComposedRR
		}
		var mi float64
		if mi, err = bound.FanoMIRandomizedResponse(rr, prior); err == nil {
			alpha1, err = bound.FanoAlgorithm1(mi, m, prior)
			best = alpha1
		}
		if err == nil {
			// Algorithm 1 uses the exact mutual information; Algorithm 2
			// the pairwise Rényi divergences of randomized response.
			var orders bound.FanoBound
			if _, orders, err = bound.FanoOrders(func(a float64) float64 { return bound.FanoRenyiRR(a, rr.Epsilon, rr.Categories) }, []float64{math.Inf(1)}, m, prior); err == nil && orders.Success < best.Success {
				best = orders
			}
		}
	case r.HasRho && r.HasMu:
		// Gaussian-type rows (gaussian, gdp, marginals): Theorem 2
		// (eq. 19) bounds the mutual information by
		// −Σ p_m ln(p_m + (1 − p_m)e^{−μ²/2}) ≤ min(μ²/2, H(p)), never
		// looser than Theorem 1's μ²/2 at α = 1 (Guo et al. App. B; for gdp
		// rows through the pairwise KL ≤ μ²/2, Theorem 2's argument
		// extended to any mechanism, see FanoMIKLMixture).
		var mi float64
		if mi, err = bound.FanoMIGaussian(r.Mu, m, prior); err == nil {
			alpha1, best, err = bound.FanoZCDPMI(curve.ZCDP{Rho: r.Rho}, mi, m, prior)
		}
	case r.HasRho:
		alpha1, best, err = bound.FanoZCDP(curve.ZCDP{Rho: r.Rho}, m, prior)
	case r.HasRDP:
		alpha1, best, err = bound.FanoOrders(rdpStep(r.RDP), r.RDP.Orders, m, prior)
	case r.HasPure:
		alpha1, best, err = bound.FanoOrders(r.pureRenyi(), []float64{math.Inf(1)}, m, prior)
	default:
		return alpha1, best, WhyFanoNoRenyi
	}
	if err != nil {
		return alpha1, best, err.Error()
	}
	return alpha1, best, ""
}

// rdpStep is the Rényi curve of an RDP guarantee for the Fano bounds: at
// order α the smallest ε_i of an order α_i ≥ α (Rényi divergence grows with
// the order, van Erven & Harremoës 2014, Thm 3), +Inf above every order.
func rdpStep(c curve.RDP) func(float64) float64 {
	return func(a float64) float64 {
		e := math.Inf(1)
		for i, ai := range c.Orders {
			if ai >= a {
				e = math.Min(e, c.Epsilons[i])
			}
		}
		return e
	}
}

// pureRenyi is the Rényi curve of a row with a pure ε-DP guarantee of c
// compositions of ε each (cε in total): the smaller of c times one step's
// divergence (Rényi DP composes additively, Mironov 2017 Prop. 1) and the
// divergence of the cε-DP whole, one step's being the Laplace mechanism's
// for laplace rows and randomized response's (the largest of any ε-DP pair)
// otherwise.
func (r *Release) pureRenyi() func(float64) float64 {
	c := float64(r.Compositions)
	step := r.PureEps / c
	if step*c < r.PureEps {
		step = math.Nextafter(step, math.Inf(1))
	}
	one := func(a float64) float64 { return bound.FanoRenyiRR(a, step, 2) }
	if r.Mechanism == release.MechanismLaplace {
		one = func(a float64) float64 { return bound.FanoRenyiLaplace(a, step) }
	}
	return func(a float64) float64 {
		d := one(a)
		if c > 1 {
			d = math.Min(numeric.RoundUp(c*d, 0, math.Inf(1)), bound.FanoRenyiRR(a, r.PureEps, 2))
		}
		return d
	}
}
