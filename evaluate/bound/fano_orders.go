package bound

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Fano bounds optimised over the Rényi order for any mechanism with a Rényi
// curve (Guo, Sablayrolles & Sanjabi 2022, Theorem 1 and Algorithm 2, App.
// A.1): if the outputs on any two candidates are within D_α ≤ ε(α), then
// Algorithm 2 at order α with μ = ε(α) bounds the success, for every α ≥ 1,
// so the smallest of these bounds is one. FanoZCDP does this for ε(α) = ρα;
// FanoOrders does it for any curve, which a pure ε-DP, Laplace or
// randomized-response mechanism has in closed form (FanoRenyiRR,
// FanoRenyiLaplace), and a single RDP guarantee (α₀, ε₀) as the step
// ε(α) = ε₀ for α ≤ α₀ (Rényi divergence grows with the order, van Erven &
// Harremoës 2014, Thm 3).

// fanoOrderMargin is the relative allowance added to every closed-form
// Rényi divergence below, for its rounding error (a few ulps).
const fanoOrderMargin = 0x1p-40

// roundDivergenceUp returns d enlarged by fanoOrderMargin and one ulp, so
// that a divergence computed to a few ulps is never below the exact value.
func roundDivergenceUp(d float64) float64 {
	if !(d > 0) {
		return math.Max(d, 0)
	}
	return math.Nextafter(d*(1+fanoOrderMargin), math.Inf(1))
}

// FanoRenyiRR returns an upper bound on the Rényi divergence of order α
// (α ≥ 1, +Inf allowed) between the outputs of k-ary randomized response
// with parameter ε on two different inputs (Warner 1965; the k-ary form of
// Kairouz, Oh & Viswanath 2016). Each output is the true value with
// probability a = e^ε/(e^ε + k − 1) and each other value with b = a·e^{−ε},
// so with Q the second input's output and r = P/Q ∈ {e^ε, e^{−ε}, 1},
//
//	D_α = ln(1 + α(α − 1)(b·ψ_α(e^ε) + a·ψ_α(e^{−ε})))/(α − 1),
//	D₁ = b·ψ₁(e^ε) + a·ψ₁(e^{−ε}),  D_∞ = ε,
//
// with ψ_α as in the package's Fano numerics (derived here from the
// definition of D_α, Mironov 2017 Def. 3). For k = 2 it is the largest
// Rényi divergence of any ε-DP pair: every ε-DP pair of distributions is a
// post-processing of binary randomized response (Kairouz, Oh & Viswanath
// 2015, Thm 2.2), and Rényi divergences do not grow under post-processing.
// Rounded up. NaN for α < 1, ε < 0, k < 2 or NaN.
func FanoRenyiRR(alpha, eps float64, k int) float64 {
	switch {
	case !(alpha >= 1) || !(eps >= 0) || k < 2:
		return math.NaN()
	case eps == 0:
		return 0
	case math.IsInf(alpha, 1) || math.IsInf(eps, 1):
		return eps
	}
	km1 := float64(k - 1)
	la := -math.Log1p(km1 * math.Exp(-eps)) // ln a
	if alpha == 1 {
		// D₁ = Σ P ln(P/Q) = a·ε − b·ε = −a·expm1(−ε)·ε.
		return roundDivergenceUp(-math.Exp(la) * math.Expm1(-eps) * eps)
	}
	if alpha*eps > fanoLogSwitch {
		// (α − 1)D_α = ln(a·e^{(α−1)ε} + b·e^{−(α−1)ε} + (k − 2)b), b = a·e^{−ε}.
		s := numeric.LogSumExp(la+(alpha-1)*eps, la-alpha*eps)
		if k > 2 {
			s = numeric.LogSumExp(s, math.Log(float64(k-2))+la-eps)
		}
		return roundDivergenceUp(math.Min(s/(alpha-1), eps))
	}
	a := math.Exp(la)
	b := a * math.Exp(-eps)
	psi := b*fanoPsi(alpha, math.Exp(eps), math.Expm1(eps)) + a*fanoPsi(alpha, math.Exp(-eps), math.Expm1(-eps))
	d := psi
	if alpha != 1 {
		d = math.Log1p(alpha*(alpha-1)*psi) / (alpha - 1)
	}
	return roundDivergenceUp(math.Min(d, eps))
}

// FanoRenyiLaplace returns an upper bound on the Rényi divergence of order α
// (α ≥ 1, +Inf allowed) between the outputs of the Laplace mechanism of
// scale b on two inputs whose query values differ by the sensitivity Δ,
// ε = Δ/b (Mironov 2017, Prop. 6 and Table II):
//
//	D_α = ln((α·e^{(α−1)ε} + (α − 1)·e^{−αε})/(2α − 1))/(α − 1),
//	D₁ = ε + e^{−ε} − 1,  D_∞ = ε.
//
// The sum is evaluated as 1 + (α·expm1((α−1)ε) + (α−1)·expm1(−αε))/(2α − 1),
// whose first-order terms cancel; the rounding error of that cancellation
// is added, so the value is never below the exact one. NaN for α < 1, ε < 0
// or NaN.
func FanoRenyiLaplace(alpha, eps float64) float64 {
	switch {
	case !(alpha >= 1) || !(eps >= 0):
		return math.NaN()
	case eps == 0:
		return 0
	case math.IsInf(alpha, 1) || math.IsInf(eps, 1):
		return eps
	case alpha == 1:
		// ε + expm1(−ε) = Σ_{n≥2} (−ε)ⁿ/n!: the series for small ε.
		if eps < 0.1 {
			term, sum := eps*eps/2, 0.0
			for n := 2; n < 40 && term != 0; n++ {
				sum += term
				term *= -eps / float64(n+1)
			}
			return roundDivergenceUp(sum)
		}
		return roundDivergenceUp(eps + math.Expm1(-eps))
	}
	am1 := alpha - 1
	if alpha*eps > fanoLogSwitch {
		s := numeric.LogSumExp(math.Log(alpha)+am1*eps, math.Log(am1)-alpha*eps) - math.Log(2*alpha-1)
		return roundDivergenceUp(math.Min(s/am1, eps))
	}
	if alpha*eps < 0.1 {
		// The series B = Σ_{n≥2} (α(α−1)ⁿ + (α−1)(−α)ⁿ)·εⁿ/n! of the sum
		// below, without its cancellation; its terms shrink by αε/3 or
		// faster.
		var sum numeric.Sum
		pa, pb, f := am1*am1, alpha*alpha, eps*eps/2
		for n := 2; n < 40; n++ {
			t := (alpha*pa + am1*pb) * f
			sum.Add(t)
			if math.Abs(t) <= 1e-20*math.Abs(sum.Value()) {
				break
			}
			pa, pb, f = pa*am1, -pb*alpha, f*eps/float64(n+1)
		}
		return roundDivergenceUp(math.Log1p(sum.Value()/(2*alpha-1)) / am1)
	}
	up, down := alpha*math.Expm1(am1*eps), am1*math.Expm1(-alpha*eps)
	sum := up + down + 8*numeric.MachineEpsilon*(math.Abs(up)+math.Abs(down))
	d := math.Log1p(math.Max(sum, 0)/(2*alpha-1)) / am1
	return roundDivergenceUp(math.Min(d, eps))
}

// orderGrid is a search over Rényi orders: the grid t = log10(α − 1) =
// j/perDecade for j = lo … hi, then golden-section search (or Brent's
// method, numeric.BrentMin, where brent is set) in t between the grid
// neighbours of the best grid point until the bracket is at most tol
// wide. gonum has no one-dimensional minimiser, hence numeric's.
type orderGrid struct {
	lo, hi, perDecade int
	tol               float64
	brent             bool // Brent's method (numeric.BrentMin) instead of golden-section search
	// fromOne reports that the start of the search is the bound at α = 1
	// and the limit of the bounds at(t) as t → −∞ (ε(α) continuous at 1):
	// then where start is below the grid's first point and that is the
	// grid's best, a bound unimodal in t increases from t = −∞ on, and
	// the refinement, which could not go below start, is skipped.
	fromOne bool
}

// fanoOrdersGrid is FanoOrders' search: α − 1 from 1e-5 to 1e4, 16 orders
// a decade, refined to 1e-9 in t. The curves it serves (steps of an RDP
// guarantee, pure DP, randomized response) are not known to give a
// unimodal bound, so the grid is fine.
func fanoOrdersGrid() orderGrid { return orderGrid{lo: -80, hi: 64, perDecade: 16, tol: 1e-9} }

// fanoZCDPGrid is the search FanoZCDP falls back on where Newton's method
// finds no stationary order (zcdpTangent), and its tests' reference: the
// same span, one order a decade, refined by Brent's method to about 1e-7
// in t. For ε(α) = ρα the bound was unimodal in t on the grid of
// fanoOrdersGrid in each of 5,000 random (ρ ∈ [1e-6, 10], M from 2 to
// 10⁶, uniform and random priors), and this search's success bound was
// within 2e-15 relative of that grid's with its 1e-9 golden-section
// refinement (when it was FanoZCDP's search; TestFanoZCDPSearch now
// compares FanoZCDP with both): 10–23 orders a row instead of about 170.
func fanoZCDPGrid() orderGrid {
	return orderGrid{lo: -5, hi: 4, perDecade: 1, tol: 1e-7, brent: true, fromOne: true}
}

// FanoOrders returns the Fano bounds of a mechanism whose outputs on any two
// candidates are within the Rényi divergence renyi(α) (an upper bound, in
// nats, for every α ≥ 1 and α = +Inf; +Inf where the mechanism has none),
// under replace-one adjacency (Theorem 1 of Guo, Sablayrolles & Sanjabi
// 2022):
//
//   - alpha1: Algorithm 1 with μ = renyi(1) (Theorem 1 at α = 1);
//   - best: the smallest of alpha1 and Algorithm 2 at every order tried:
//     the orders in extra (e.g. the order of an RDP guarantee and +Inf), the
//     grid α ∈ {1 + 10^{j/16} : j = −80…64}, and a golden-section search in
//     ln(α − 1) between the neighbours of the best grid point. Every order
//     tried gives a valid bound, so the minimum is one whether or not the
//     bound is unimodal in α; best.Order is the minimiser. A curve that is
//     +Inf at α = +Inf is searched up to the largest finite order in extra,
//     on the same grid shifted to end there.
//
// Errors (NaN fields): renyi(1) NaN or negative, invalid M or prior.
func FanoOrders(renyi func(alpha float64) float64, extra []float64, m int, prior []float64) (alpha1, best FanoBound, err error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return fanoNaN(), fanoNaN(), err
	}
	mi := renyi(1)
	if !(mi >= 0) {
		return fanoNaN(), fanoNaN(), fmt.Errorf("fano: Rényi divergence %v at order 1 is not ≥ 0", mi)
	}
	alpha1 = pr.solve(1, mi)
	best = alpha1
	// A curve known only up to a finite order (one RDP guarantee) is
	// searched up to it: above it the bound is trivial, which would
	// mislead the golden-section search at the edge.
	top := math.Inf(1)
	if math.IsInf(renyi(top), 1) {
		top = math.Inf(-1)
		for _, a := range extra {
			if !math.IsInf(a, 1) && a > top {
				top = a
			}
		}
		if math.IsInf(top, -1) {
			top = math.Inf(1)
		}
	}
	at := func(a float64) FanoBound {
		a = math.Min(a, top)
		e := renyi(a)
		if !(e >= 0) { // NaN: the order is not usable
			e = math.Inf(1)
		}
		return pr.solve(a, e)
	}
	for _, a := range extra {
		if r := at(a); r.Success < best.Success {
			best = r
		}
	}
	// The grid spans α − 1 from 1e-5 to 1e4; for a curve known up to a
	// finite order it is shifted to end there, where the best order often is.
	grid := fanoOrdersGrid()
	shift := 0.0
	if !math.IsInf(top, 1) {
		shift = math.Log10(top-1) - float64(grid.hi)/float64(grid.perDecade)
	}
	return alpha1, pr.searchOrders(func(t float64) FanoBound { return at(1 + math.Pow(10, t+shift)) }, best, grid), nil
}

// searchOrders returns the best of start and the Fano bounds at(t) at
// α = 1 + 10^t over the grid of g, refined between the grid neighbours
// of the best grid point as g says.
func (pr fanoPrior) searchOrders(at func(t float64) FanoBound, start FanoBound, g orderGrid) FanoBound {
	best := start
	bestJ, gridBest := g.lo-1, math.Inf(1)
	for j := g.lo; j <= g.hi; j++ {
		r := at(float64(j) / float64(g.perDecade))
		if r.Success < best.Success {
			best = r
		}
		if r.Success < gridBest {
			bestJ, gridBest = j, r.Success
		}
	}
	if bestJ < g.lo || gridBest >= 1 || g.fromOne && bestJ == g.lo && start.Success < gridBest {
		return best
	}
	lo := float64(max(bestJ-1, g.lo)) / float64(g.perDecade)
	hi := float64(min(bestJ+1, g.hi)) / float64(g.perDecade)
	// The refinement between the grid neighbours; every point evaluated
	// is a valid order, so the best of them is kept.
	success := func(t float64) float64 {
		r := at(t)
		if r.Success < best.Success {
			best = r
		}
		return r.Success
	}
	if g.brent {
		numeric.BrentMin(success, lo, hi, g.tol/4, 60)
		return best
	}
	gs := numeric.Golden{A: lo, B: hi}
	gs.C, gs.D = numeric.GoldenPoints(lo, hi)
	gs.FC, gs.FD = success(gs.C), success(gs.D)
	for i := 0; i < 60 && gs.B-gs.A > g.tol; i++ {
		gs.Step(success)
	}
	return best
}
