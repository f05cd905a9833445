package pld

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// The trade-off curve of the accounted mechanism, as the convex dual of its
// symmetrised privacy profile.
//
// For one direction, the Neyman–Pearson tests between the discrete pair
// reject above a grid loss ε_k (randomising at it), and their (α, β) pairs
// are the vertices of T(α) = sup_k max(0, 1 − δ(ε_k) − e^{ε_k}·α), the upper
// envelope of the supporting lines of slope −e^{ε_k} (Dong, Roth & Su 2022,
// Prop. 2.12; this is the direct method of Kulynych et al. 2024, Alg. 1,
// written over the loss grid instead of over α).
//
// Under add/remove neighbours the two orders give f = T(remove) and
// T(add) = f⁻¹ (up to discretisation). A bound valid for every ordered pair
// of neighbours is min{f, f⁻¹}, and since every trade-off function is
// convex, its convex hull min{f, f⁻¹}** (Dong, Roth & Su 2022, Def. F.1,
// first case). Its profile at ε ≥ 0 is δ(ε) = max(δ_remove(ε), δ_add(ε)),
// and the symmetric curve is the envelope of the lines from δ at ε ≥ 0 and
// of their reflections across β = α:
//
//	f(α) = sup_{ε ≥ 0} max{0, 1 − δ(ε) − e^ε·α, e^{−ε}·(1 − δ(ε) − α)}.
//
// Every line comes from an (ε, δ(ε)) guarantee that holds in both orders,
// so f is a valid lower bound on β whatever the shape of the two curves
// (Def. F.1's second case, max{f, f⁻¹}, is not used: it is not a lower
// bound on both orders). Taking the sup over the grid points only (not over
// the crossing points of δ_remove and δ_add between them) can only lower f.
//
// The objective of each family is unimodal along the grid (δ is convex in
// e^ε, and its perspective concave), so the best line is found by a binary
// search; any other line would still be a valid bound.

// bestLine returns the entry minimising obj, assumed unimodal, by binary
// search on its forward differences.
func bestLine(n int, obj func(i int) float64) int {
	lo, hi := 0, n-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if obj(mid+1) < obj(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// lines returns the best line of each family at α and their advantages
// 1 − α − line(α), written without cancellation:
//
//	steep:   δ_i + (e^{ε_i} − 1)·α,
//	shallow: (1 − e^{−ε_i})·(1 − α) + e^{−ε_i}·δ_i.
func (p *profile) lines(alpha float64) (steep, shallow int, advSteep, advShallow float64) {
	n := len(p.sym)
	a1 := func(i int) float64 { return p.sym[i] + math.Expm1(p.eps(i))*alpha }
	a2 := func(i int) float64 {
		e := p.eps(i)
		return -math.Expm1(-e)*(1-alpha) + math.Exp(-e)*p.sym[i]
	}
	steep = bestLine(n, a1)
	shallow = bestLine(n, a2)
	return steep, shallow, a1(steep), a2(shallow)
}

// tradeOff returns f(α) (see above), rounded down, in [0, 1 − α].
func (p *profile) tradeOff(alpha float64) float64 {
	switch {
	case math.IsNaN(alpha):
		return alpha
	case alpha <= 0:
		return nudgeDown(1-p.tailDelta(), 2)
	case alpha >= 1:
		return 0
	}
	i, j, _, _ := p.lines(alpha)
	// Each line is lowered by a bound on its absolute rounding error (a
	// few u of its terms' magnitudes): β near 0 is a small difference of
	// numbers near 1.
	ea := math.Exp(p.eps(i)) * alpha
	b1 := 1 - p.sym[i] - ea
	b1 -= 4 * numeric.UnitRoundoff * (1 + p.sym[i] + ea)
	e := math.Exp(-p.eps(j))
	b2 := e * (1 - p.sym[j] - alpha)
	b2 -= 4 * numeric.UnitRoundoff * e * (1 + p.sym[j] + alpha)
	beta := nudgeDown(math.Max(math.Max(b1, b2), 0), 8)
	return math.Min(beta, 1-alpha)
}

// advantage returns 1 − f(b) − b, the largest advantage over the baseline
// b that f allows, from the same lines as tradeOff.
func (p *profile) advantage(b float64) float64 {
	switch {
	case math.IsNaN(b):
		return b
	case b <= 0:
		return p.tailDelta()
	case b >= 1:
		return 0
	}
	_, _, a1, a2 := p.lines(b)
	adv := nudgeUp(math.Max(math.Min(a1, a2), 0), 8)
	return math.Min(adv, math.Min(1-b, p.sym[0]))
}
