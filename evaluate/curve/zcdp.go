package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// ZCDP is ρ-zero-concentrated differential privacy (Bun & Steinke 2016,
// "Concentrated Differential Privacy: Simplifications, Extensions, and Lower
// Bounds", Def. 1.1): (α, ρα)-RDP for every order α > 1, for every ordered
// pair of neighbours under the relation the guarantee was stated for. Its
// curve is sup_{α>1} f_α with ε_α = ρα (see RDP), the tightest curve the
// zCDP guarantee implies (riskcal's get_beta_from_zcdp maximizes over an
// order grid with a bounded refinement; its docstring values lie slightly
// beyond the supremum, see the tests). ρ-zCDP alone does not imply the Gaussian curve
// G_{√(2ρ)}; that holds only for the Gaussian mechanism (Kulynych et al. 2025),
// and this curve lies below it.
//
// Accuracy and conservativeness. Every order α gives a valid curve f_α ≤ f,
// so any finite set of orders gives a valid, more conservative curve. At
// each point the Kullback–Leibler limit α = 1 (D₁ ≤ ρ, the limit of the
// guarantees as α → 1) and the orders α = 1 + 10^{k/8}, k = −40…48 (α − 1
// from 1e-5 to 1e6) are evaluated, and the best order is refined by
// golden-section search over ln(α − 1) between its grid neighbours to a
// bracket of 1e-7 (near the optimum f moves with the square of the step).
// The result is the best order evaluated, so it is never above the
// supremum; the tests compare it with a dense order scan and with mpmath.
// ρ = 0 gives f(α) = 1 − α; a negative, NaN or infinite ρ gives f ≡ 0.
type ZCDP struct {
	Rho float64 // ρ ≥ 0
}

// zcdpGridLo and zcdpGridHi bound k in the order grid α = 1 + 10^{k/8}.
const (
	zcdpGridLo        = -40
	zcdpGridHi        = 48
	zcdpGridPerDecade = 8
)

func zcdpGridOrder(k int) float64 { return 1 + math.Pow(10, float64(k)/zcdpGridPerDecade) }

// vacuous reports whether ρ carries no guarantee.
func (c ZCDP) vacuous() bool { return !(c.Rho >= 0) || math.IsInf(c.Rho, 1) }

// order returns the RDP guarantee of order a, ε = ρa rounded up.
func (c ZCDP) order(a float64) (renyiOrder, bool) {
	e := c.Rho * a
	if e > 0 {
		e = math.Nextafter(e, math.Inf(1))
	}
	return newRenyiOrder(a, e)
}

// TradeOff returns f(α) = sup_{β>1} f_β(α) with ε_β = ρβ (see ZCDP), rounded
// down.
func (c ZCDP) TradeOff(alpha float64) float64 {
	if math.IsNaN(alpha) {
		return alpha
	}
	if f, ok := tradeOffAtEdges(alpha, c.vacuous()); ok {
		return f
	}
	if c.Rho == 0 {
		return 1 - alpha
	}
	g := newGapGeometry(alpha)
	return g.clampedTradeOff(c.gap(g), c.WorstAdvantage)
}

// Advantage returns 1 − f(b) − b for the zCDP curve (Kulynych et al. 2025,
// Thm 3.3), rounded up.
func (c ZCDP) Advantage(b float64) float64 {
	if adv, ok := advantageAtEdges(b, c.vacuous(), c.Rho == 0); ok {
		return adv
	}
	g := newGapGeometry(b)
	return g.clampedAdvantage(c.gap(g), c.WorstAdvantage)
}

// WorstAdvantage returns η = min_{α>1} η_α (see RDP.WorstAdvantage for why
// the minimum over orders of the per-order fixed points gives η), with the
// orders searched as for TradeOff; rounded up. For ρ = 0.5 it is
// 0.47910 (riskcal's get_advantage_from_zcdp docstring: 0.47).
func (c ZCDP) WorstAdvantage() float64 {
	switch {
	case c.vacuous():
		return 1
	case c.Rho == 0:
		return 0
	}
	l := c.minOverOrders(
		func(o renyiOrder, start float64) float64 { return o.fixedPoint(start) },
		symmetricPoint)
	return worstFromL(l)
}

// gap is RDP.gap over the order grid, refined (see ZCDP).
func (c ZCDP) gap(g gapGeometry) float64 {
	return c.minOverOrders(
		func(o renyiOrder, start float64) float64 { return o.gapRoot(g, start) },
		g.point)
}

// minOverOrders minimizes root(order α, warm start) over α > 1: the grid of
// ZCDP, then golden-section search over ln(α − 1) around the best grid
// order. point(t) gives the evaluation point of a root t, used to skip grid
// orders that cannot lower the current best. Every value returned by root
// is a valid (conservative) answer, so is their minimum.
func (c ZCDP) minOverOrders(root func(renyiOrder, float64) float64, point func(float64) gapPoint) float64 {
	best, bestK := math.Inf(1), 0
	var p gapPoint
	for k := zcdpGridLo - 1; k <= zcdpGridHi; k++ {
		a := 1.0 // k = zcdpGridLo − 1 is the Kullback–Leibler limit α = 1
		if k >= zcdpGridLo {
			a = zcdpGridOrder(k)
		}
		o, ok := c.order(a)
		if !ok {
			continue
		}
		if !math.IsInf(best, 1) && o.excess(&p) <= 0 {
			continue
		}
		best, bestK = root(o, best), k
		p = point(best)
	}
	if math.IsInf(best, 0) || bestK < zcdpGridLo {
		return best
	}
	// Golden-section search on s = ln(α − 1) between the neighbours of the
	// best grid order.
	step := math.Ln10 / zcdpGridPerDecade
	lo := float64(max(bestK-1, zcdpGridLo)) * step
	hi := float64(min(bestK+1, zcdpGridHi)) * step
	eval := func(s float64) float64 {
		o, ok := c.order(1 + math.Exp(s))
		if !ok {
			return math.Inf(1)
		}
		return root(o, best)
	}
	g := numeric.Golden{A: lo, B: hi}
	g.C, g.D = numeric.GoldenPoints(lo, hi)
	g.FC, g.FD = eval(g.C), eval(g.D)
	best = math.Min(best, math.Min(g.FC, g.FD))
	for g.B-g.A > 1e-7 {
		best = math.Min(best, g.Step(eval))
	}
	return best
}

// EpsilonAt returns ε(δ) = max{0, min_{α>1} [ρα + ln((α − 1)/α) − (ln δ +
// ln α)/(α − 1)]}, the improved RDP conversion of RDP.EpsilonAt applied to
// every order of ρ-zCDP (any order gives a valid ε, so the minimum found by
// the grid and golden-section search is conservative); 0 when δ ≥ η. Rounded
// up. See ClassicEpsilonAt for the older, larger formula.
func (c ZCDP) EpsilonAt(delta float64) float64 {
	switch {
	case math.IsNaN(delta):
		return delta
	case c.vacuous():
		return math.Inf(1)
	case c.Rho == 0 || delta >= 1:
		return 0
	case delta <= 0:
		return math.Inf(1)
	case delta >= c.WorstAdvantage():
		return 0
	}
	phi := func(s float64) float64 {
		o, ok := c.order(1 + math.Exp(s))
		if !ok {
			return math.Inf(1)
		}
		return o.epsilonAt(delta)
	}
	step := math.Ln10 / zcdpGridPerDecade
	best, bestK := math.Inf(1), 0
	for k := zcdpGridLo; k <= zcdpGridHi; k++ {
		if v := phi(float64(k) * step); v < best {
			best, bestK = v, k
		}
	}
	lo := float64(max(bestK-1, zcdpGridLo)) * step
	hi := float64(min(bestK+1, zcdpGridHi)) * step
	g := numeric.Golden{A: lo, B: hi}
	g.C, g.D = numeric.GoldenPoints(lo, hi)
	g.FC, g.FD = phi(g.C), phi(g.D)
	for g.B-g.A > 1e-12 {
		g.Step(phi)
	}
	best = math.Min(best, math.Min(g.FC, g.FD))
	if best <= 0 {
		return 0
	}
	return numeric.RoundUp(best, 0, math.Inf(1))
}

// ClassicEpsilonAt returns ρ + 2√(ρ·ln(1/δ)), the (ε, δ) guarantee of
// ρ-zCDP by Bun & Steinke 2016, Prop. 1.3 — the "Census formula" of
// Kulynych et al. 2025 (ε = 10.6 at ρ = 1.0001, δ = 1e-10). It is a comparator:
// EpsilonAt is never larger. Rounded up.
func (c ZCDP) ClassicEpsilonAt(delta float64) float64 {
	switch {
	case math.IsNaN(delta):
		return delta
	case c.vacuous() || delta <= 0:
		return math.Inf(1)
	case delta >= 1:
		return c.Rho
	}
	return numeric.RoundUp(c.Rho+2*math.Sqrt(c.Rho*-numeric.LogPos(delta)), 0, math.Inf(1))
}
