package evaluate

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Rényi differential privacy (Mironov 2017, "Rényi Differential Privacy",
// Def. 4): a mechanism is (α, ε_α)-RDP if D_α(M(S) ‖ M(S')) ≤ ε_α for every
// ordered pair of neighbours S ≃ S', where
//
//	D_α(P ‖ Q) = 1/(α − 1) · ln Σ P^α Q^{1−α}.
//
// Both orders of every pair are covered (the neighbouring relation is
// symmetric), which the conversion below uses.
//
// The optimal conversion to a trade-off curve (Zhu, Dong & Wang 2022,
// "Optimal Accounting of Differential Privacy via Characteristic Function",
// AISTATS, App. F.1; Riess et al. 2026, arXiv:2602.04562; riskcal's
// get_beta_from_rdp; it rests on the hypothesis-testing reading of RDP of
// Balle, Barthe, Gaboardi, Hsu & Sato 2020, AISTATS). A test with type I error x and type II error y
// post-processes P = M(S), Q = M(S') into the Bernoulli pair
// P' = (x, 1 − x), Q' = (1 − y, y) (reject, accept), and the data-processing
// inequality for D_α gives both
//
//	g₁ = x^α (1−y)^{1−α} + (1−x)^α y^{1−α} ≤ e^{(α−1)ε_α}   (D_α(P'‖Q'))
//	g₂ = (1−y)^α x^{1−α} + y^α (1−x)^{1−α} ≤ e^{(α−1)ε_α}   (D_α(Q'‖P')).
//
// f_α(x) is the smallest y ∈ [0, 1 − x] satisfying both. It is a valid
// trade-off function: (x, y) ↦ a^α b^{1−α} is jointly convex for α > 1 (a
// perspective of t^α), so the feasible set is convex and f_α, its lower
// boundary, is convex; (x, 1 − x) is feasible (P' = Q'), so f_α ≤ 1 − x;
// f_α(0) = 1, f_α(1) = 0, and a convex function with its minimum at 1 is
// non-increasing. The feasible set is symmetric under x ↔ y, so f_α is
// symmetric. It is also the tightest curve the constraint implies: the
// Bernoulli pair (Bern(x), Bern(1 − f_α(x))) itself satisfies the
// constraint and has type II error f_α(x) at type I error x.
//
// Several guarantees (α_i, ε_i) hold together, so the mechanism is f-DP for
// f = max_i f_{α_i}: a maximum of convex, symmetric, non-increasing curves
// below 1 − x is again one (no convex hull is needed), and by the same
// Bernoulli argument it is the tightest curve the set of guarantees implies.
//
// Numerics. A point below the diagonal is written as y = (1 − x)·σ(−t),
// gap d = 1 − x − y = (1 − x)·σ(t) (σ the logistic function), so that
// both y and d keep their relative precision; 1 − f(b) − b is d itself. With
// R₁ = ln((1 − y)/x) and R₂ = ln((1 − x)/y),
//
//	g₁ = x·e^{−(α−1)R₁} + (1 − x)·e^{(α−1)R₂},
//	g₂ = (1 − y)·e^{(α−1)R₁} + y·e^{−(α−1)R₂},
//
// compared as g − 1 = Σ w·expm1(·) ≤ expm1((α−1)ε) when (α−1)ε ≤ 1 (no
// cancellation near the diagonal) and as ln g ≤ (α−1)ε otherwise (no
// overflow). Every comparison carries a bound on its own rounding error and
// a point counts as violating a constraint only when it does so by more
// than that bound; the root t is bracketed and narrowed (Illinois steps
// with bisection) to a relative width of 2⁻⁵⁰, and the end that surely
// violates is returned. So the curve is rounded down and 1 − f − b up.
//
// Orders may also be 1, the Kullback–Leibler limit D₁ (RDP at order 1 by
// continuity, Kulynych et al. 2025, Def. A.4), with the constraints KL(P'‖Q') ≤ ε and KL(Q'‖P') ≤ ε, and +Inf, pure
// ε-DP, whose constraints are y ≥ 1 − e^ε·x and y ≥ e^{−ε}(1 − x).
type RDP struct {
	Orders   []float64 // α_i > 1; 1 (KL) and +Inf (pure DP) allowed
	Epsilons []float64 // ε_i ≥ 0, same length as Orders
}

// Validate reports the first problem with the guarantees: different
// lengths, no pairs, an order below 1 (or NaN), or an ε that is negative
// or NaN. The curve methods ignore such pairs (and pairs with ε = +Inf),
// which can only lower the curve, so an invalid RDP is never reported as
// more private.
func (c RDP) Validate() error {
	if len(c.Orders) != len(c.Epsilons) {
		return fmt.Errorf("rdp: %d orders but %d epsilons", len(c.Orders), len(c.Epsilons))
	}
	if len(c.Orders) == 0 {
		return errors.New("rdp: no (order, epsilon) pairs")
	}
	for i, a := range c.Orders {
		e := c.Epsilons[i]
		switch {
		case !(a >= 1):
			return fmt.Errorf("rdp: order %v is below 1", a)
		case !(e >= 0):
			return fmt.Errorf("rdp: epsilon %v at order %v is not ≥ 0", e, a)
		}
	}
	return nil
}

// TradeOff returns f(α) = max_i f_{α_i}(α), the optimal conversion of the
// RDP guarantees to a trade-off curve (see RDP), rounded down. With no
// usable guarantee it is 0 (no privacy).
func (c RDP) TradeOff(alpha float64) float64 {
	switch {
	case math.IsNaN(alpha):
		return alpha
	case alpha >= 1:
		return 0
	case alpha <= 0:
		if c.usable() {
			return 1
		}
		return 0
	}
	g := newGapGeometry(alpha)
	return g.clampedTradeOff(c.gap(g), c.WorstAdvantage)
}

// Advantage returns 1 − f(b) − b for the RDP curve (Kulynych et al. 2025,
// Thm 3.3, Eq. 11), solved for directly as the gap below the diagonal, so
// that it keeps its relative precision for tiny b and tiny ε. It is rounded
// up (never understates the risk), and capped by η.
func (c RDP) Advantage(b float64) float64 {
	switch {
	case math.IsNaN(b):
		return b
	case b >= 1:
		return 0
	case b <= 0:
		if c.usable() {
			return 0
		}
		return 1
	}
	g := newGapGeometry(b)
	return g.clampedAdvantage(c.gap(g), c.WorstAdvantage)
}

// WorstAdvantage returns η = max_α (1 − f(α) − α) (Kulynych et al. 2025,
// Thm 3.4). Each f_{α_i} is convex and symmetric, so 1 − f_i − α is concave
// and symmetric about the fixed point x_i = f_i(x_i), where it is largest:
// η_i = 1 − 2x_i. For f = max_i f_i, f(x) − x is decreasing with root
// max_i x_i, so η = min_i η_i. Each x_i solves g(x) = e^{(α_i−1)ε_i} for
// the pair P' = (x, 1 − x), Q' = (1 − x, x); writing x = σ(−L),
// η_i = tanh(L/2) and g = x·e^{−(α−1)L} + (1 − x)·e^{(α−1)L}. L is rounded
// up, so η is.
func (c RDP) WorstAdvantage() float64 {
	l := c.minRoot(func(o renyiOrder, start float64) float64 { return o.fixedPoint(start) }, symmetricPoint)
	if math.IsInf(l, -1) {
		return 0
	}
	return worstFromL(l)
}

// EpsilonAt returns the smallest ε for which the RDP guarantees imply
// (ε, δ)-DP by the improved conversion (Canonne, Kamath & Steinke 2020,
// "The Discrete Gaussian for Differential Privacy", Prop. 12 (arXiv v4);
// Asoodeh et al., arXiv:2001.05990 v1, Eq. 20; Balle et al. 2020,
// "Hypothesis Testing Interpretations and Rényi Differential Privacy";
// dp_accounting's compute_epsilon):
//
//	ε(δ) = max{0, min_i [ε_i + ln((α_i − 1)/α_i) − (ln δ + ln α_i)/(α_i − 1)]},
//
// and 0 when δ ≥ η (the mechanism is then (0, δ)-DP; this replaces
// dp_accounting's KL test δ² ≥ 1 − e^{−ε_i}, which never gives a smaller
// η). An order +Inf (pure ε_i-DP) contributes the exact ε(δ) of f_{ε_i,0},
// max{0, ε_i + ln(1 − δ(1 + e^{−ε_i}))}. The value is rounded up. δ must be
// in (0, 1); δ ≤ 0 gives +Inf, unless an order has ε_i = 0 (then 0) or is
// +Inf (then its ε_i).
func (c RDP) EpsilonAt(delta float64) float64 {
	if math.IsNaN(delta) {
		return delta
	}
	if delta >= 1 || (delta > 0 && delta >= c.WorstAdvantage()) {
		return 0
	}
	best := math.Inf(1)
	n := min(len(c.Orders), len(c.Epsilons))
	for i := 0; i < n; i++ {
		o, ok := newRenyiOrder(c.Orders[i], c.Epsilons[i])
		if !ok {
			continue
		}
		if o.identity() {
			return 0
		}
		best = math.Min(best, o.epsilonAt(delta))
	}
	if best <= 0 {
		return 0
	}
	return numeric.RoundUp(best, 0, math.Inf(1))
}

// DeltaAt returns the smallest δ the RDP guarantees imply at ε by the same
// conversion (dp_accounting's compute_delta):
//
//	δ(ε) = min{η, min_i exp((α_i − 1)(ε_i − ε + ln(1 − 1/α_i)) − ln α_i)},
//
// with η = WorstAdvantage() = δ(0) bounding it for every ε ≥ 0; an order
// +Inf contributes the profile of f_{ε_i,0}, (e^{ε_i} − e^ε)/(e^{ε_i} + 1)
// for ε < ε_i. Negative ε is treated as 0. The value is rounded up.
func (c RDP) DeltaAt(eps float64) float64 {
	if math.IsNaN(eps) {
		return eps
	}
	eps = math.Max(eps, 0)
	best := math.Inf(1)
	n := min(len(c.Orders), len(c.Epsilons))
	for i := 0; i < n; i++ {
		o, ok := newRenyiOrder(c.Orders[i], c.Epsilons[i])
		if !ok {
			continue
		}
		best = math.Min(best, o.deltaAt(eps))
	}
	if best > 0 {
		best = numeric.RoundUp(best, 0, 1)
	}
	return math.Min(best, c.WorstAdvantage()) // η is already rounded up
}

// usable reports whether at least one guarantee constrains the mechanism.
func (c RDP) usable() bool {
	n := min(len(c.Orders), len(c.Epsilons))
	for i := 0; i < n; i++ {
		if _, ok := newRenyiOrder(c.Orders[i], c.Epsilons[i]); ok {
			return true
		}
	}
	return false
}

// gap returns the parameter t of the curve at g.x: the minimum over the
// orders of each order's root (the curve is the maximum of the per-order
// curves, and a larger y is a smaller t). +Inf means f = 0 (nothing
// usable), −Inf means f = 1 − x (some ε_i = 0).
func (c RDP) gap(g gapGeometry) float64 {
	return c.minRoot(func(o renyiOrder, start float64) float64 { return o.gapRoot(g, start) }, g.point)
}

// minRoot returns the minimum over the usable orders of root(order, start),
// −Inf if some order has ε = 0 and +Inf if none is usable. After the first
// root t, the constraints of the orders not yet solved are evaluated at
// point(t), and the one violated most is solved next, starting from t;
// this repeats until none is violated at the current t (orders that hold
// there cannot lower it). Each root is a valid (conservative) value, so is
// the result.
func (c RDP) minRoot(root func(renyiOrder, float64) float64, point func(float64) gapPoint) float64 {
	n := min(len(c.Orders), len(c.Epsilons))
	orders := make([]renyiOrder, 0, n)
	for i := 0; i < n; i++ {
		o, ok := newRenyiOrder(c.Orders[i], c.Epsilons[i])
		if !ok {
			continue
		}
		if o.identity() {
			return math.Inf(-1)
		}
		orders = append(orders, o)
	}
	// The first order with a finite root starts the search (+Inf means
	// that order allows f = 0 at this point, which another may not).
	done := make([]bool, len(orders))
	t := math.Inf(1)
	for i := 0; i < len(orders) && math.IsInf(t, 1); i++ {
		t, done[i] = root(orders[i], t), true
	}
	for !math.IsInf(t, 0) {
		p := point(t)
		worst, worstEx := -1, 0.0
		for i := range orders {
			if done[i] {
				continue // its root is known, at or above t
			}
			if ex := orders[i].excess(&p); ex > worstEx {
				worst, worstEx = i, ex
			}
		}
		if worst < 0 {
			break
		}
		done[worst] = true
		if next := root(orders[worst], t); next < t {
			t = next
		}
	}
	return t
}

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
	switch {
	case math.IsNaN(alpha):
		return alpha
	case alpha >= 1:
		return 0
	case c.vacuous():
		return 0
	case alpha <= 0:
		return 1
	case c.Rho == 0:
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
	const invPhi = 0.6180339887498949
	s1, s2 := hi-invPhi*(hi-lo), lo+invPhi*(hi-lo)
	v1, v2 := phi(s1), phi(s2)
	for hi-lo > 1e-12 {
		if v1 <= v2 {
			hi, s2, v2 = s2, s1, v1
			s1 = hi - invPhi*(hi-lo)
			v1 = phi(s1)
		} else {
			lo, s1, v1 = s1, s2, v2
			s2 = lo + invPhi*(hi-lo)
			v2 = phi(s2)
		}
	}
	best = math.Min(best, math.Min(v1, v2))
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

// ---------------------------------------------------------------------------
// One RDP guarantee and its constraint at a point.

// renyiOrder is one usable guarantee (α, ε) with α > 1 and 0 ≤ ε < ∞.
type renyiOrder struct {
	a, e   float64
	am1    float64 // α − 1
	budget float64 // (α − 1)·ε, the bound on ln g
	lin    bool    // compare g − 1 with expm1(budget) (budget ≤ 1)
	em1    float64 // expm1(budget)
	pure   bool    // α = +Inf: pure ε-DP
	kl     bool    // α = 1: Kullback–Leibler divergence
}

// newRenyiOrder returns the guarantee, or false when it constrains nothing
// or is invalid (α < 1, ε < 0, NaN, ε = +Inf, or (α − 1)ε = +Inf). α = 1
// is the Kullback–Leibler limit D₁ = lim_{α→1} D_α.
func newRenyiOrder(a, e float64) (renyiOrder, bool) {
	if !(a >= 1) || !(e >= 0) || math.IsInf(e, 1) {
		return renyiOrder{}, false
	}
	if a == 1 {
		return renyiOrder{a: 1, e: e, budget: e, kl: true}, true
	}
	if math.IsInf(a, 1) {
		return renyiOrder{a: a, e: e, am1: a, budget: math.Inf(1), pure: true}, true
	}
	// α − 1 is exact for 1 < α < 2⁵³; the product is rounded up, so that a
	// tiny ε never underflows to a stricter constraint.
	o := renyiOrder{a: a, e: e, am1: a - 1, budget: (a - 1) * e}
	if e > 0 {
		o.budget = math.Nextafter(o.budget, math.Inf(1))
	}
	if math.IsInf(o.budget, 1) {
		return renyiOrder{}, false
	}
	if o.budget <= 1 {
		o.lin, o.em1 = true, math.Expm1(o.budget)
	}
	return o, true
}

// identity reports ε = 0: D_α(P‖Q) = 0 means P = Q, f(x) = 1 − x.
func (o renyiOrder) identity() bool { return o.e == 0 }

// gapPoint is a point (x, y) below the diagonal with everything the
// constraints need and bounds on its rounding errors.
type gapPoint struct {
	x, x1, y, y1     float64 // x, 1 − x, y, 1 − y
	lx, lx1, ly, ly1 float64 // their logarithms
	errW             float64 // relative error of every weight = absolute error of every log
	r1, r2           float64 // R₁ = ln((1 − y)/x) ≥ 0, R₂ = ln((1 − x)/y) ≥ 0
	errR1, errR2     float64 // absolute errors of R₁, R₂
	sym              bool    // x = y (R₁ = R₂ = L exactly)
}

// excess is > 0 when the point surely violates the order's constraint (by
// more than the rounding error of its evaluation) and ≤ 0 otherwise. It
// increases with the distance from the diagonal. (Were it ever NaN, the
// searches would treat the point as allowed, which only lowers the curve.)
func (o renyiOrder) excess(p *gapPoint) float64 {
	if o.pure {
		// ε-DP: y ≥ 1 − e^ε·x and y ≥ e^{−ε}(1 − x), i.e. R₁ ≤ ε and R₂ ≤ ε.
		e1 := p.r1 - o.e - 4*(p.errR1+numeric.MachineEpsilon*(o.e+p.r1))
		e2 := p.r2 - o.e - 4*(p.errR2+numeric.MachineEpsilon*(o.e+p.r2))
		return math.Max(e1, e2)
	}
	if p.sym && o.kl {
		// KL = (1 − 2x)·L = tanh(L/2)·L, without cancellation.
		k := math.Tanh(p.r1/2) * p.r1
		return k - o.e - 16*numeric.MachineEpsilon*(k+o.e)
	}
	if p.sym && o.lin && p.r1 < 30 {
		// With x = σ(−L): g − 1 = (4·sinh²(A/2) + expm1(L)·expm1(A))/(1 + e^L),
		// A = (α − 1)L, a sum of positive terms (the general form below
		// cancels to a relative ulp/η for tiny ε).
		a := o.am1 * p.r1
		if a > 1400 {
			return math.Inf(1) // g ≥ e^{a/2}/2 is far beyond e^{budget} ≤ e
		}
		h := math.Sinh(a / 2)
		gm1 := (4*h*h + math.Expm1(p.r1)*math.Expm1(a)) / (1 + math.Exp(p.r1))
		if math.IsInf(gm1, 1) {
			return gm1
		}
		return gm1 - o.em1 - 16*numeric.MachineEpsilon*(gm1+o.em1)
	}
	if o.kl {
		// KL(P'‖Q') = −x·R₁ + (1 − x)·R₂, KL(Q'‖P') = (1 − y)·R₁ − y·R₂.
		k1 := p.x1*p.r2 - p.x*p.r1
		k2 := p.y1*p.r1 - p.y*p.r2
		u1 := p.x*p.r1 + p.x1*p.r2
		u2 := p.y1*p.r1 + p.y*p.r2
		errR := p.x*p.errR1 + p.x1*p.errR2 + p.y*p.errR2 + p.y1*p.errR1
		e1 := k1 - o.e - 4*(u1*(p.errW+2*numeric.MachineEpsilon)+errR+2*numeric.MachineEpsilon*o.e)
		e2 := k2 - o.e - 4*(u2*(p.errW+2*numeric.MachineEpsilon)+errR+2*numeric.MachineEpsilon*o.e)
		return math.Max(e1, e2)
	}
	a1, a2 := o.am1*p.r1, o.am1*p.r2
	errA1 := o.am1*p.errR1 + 2*numeric.MachineEpsilon*a1
	errA2 := o.am1*p.errR2 + 2*numeric.MachineEpsilon*a2
	if !o.lin {
		// ln g₁ = logaddexp(ln x − A₁, ln(1−x) + A₂), ln g₂ likewise.
		l1 := numeric.LogSumExp(p.lx-a1, p.lx1+a2)
		l2 := numeric.LogSumExp(p.ly1+a1, p.ly-a2)
		common := 2*p.errW + errA1 + errA2 + 4*numeric.MachineEpsilon*(o.budget+1)
		e1 := l1 - o.budget - 4*(common+2*numeric.MachineEpsilon*(math.Abs(p.lx)+math.Abs(p.lx1)+a1+a2+math.Abs(l1)))
		e2 := l2 - o.budget - 4*(common+2*numeric.MachineEpsilon*(math.Abs(p.ly)+math.Abs(p.ly1)+a1+a2+math.Abs(l2)))
		return math.Max(e1, e2)
	}
	// g − 1 = Σ w·expm1(±A) (the weights of each constraint sum to 1).
	t1, r1 := weightedExpm1(p.x, p.lx, -a1, errA1, p.errW)
	t2, r2 := weightedExpm1(p.x1, p.lx1, a2, errA2, p.errW)
	t3, r3 := weightedExpm1(p.y1, p.ly1, a1, errA1, p.errW)
	t4, r4 := weightedExpm1(p.y, p.ly, -a2, errA2, p.errW)
	if math.IsInf(t2, 1) || math.IsInf(t3, 1) {
		return math.Inf(1) // g ≥ e^{709}: far beyond e^{budget} ≤ e
	}
	errE := 4 * numeric.MachineEpsilon * o.em1 // expm1 and the product (α − 1)ε are relatively exact
	e1 := t1 + t2 - o.em1 - 4*(r1+r2+errE)
	e2 := t3 + t4 - o.em1 - 4*(r3+r4+errE)
	return math.Max(e1, e2)
}

// weightedExpm1 returns w·(e^A − 1) and a bound on its rounding error, given
// ln w, the absolute error errA of A and the relative error errW of w (also
// the absolute error of ln w). For A ≤ 1 it is w·expm1(A), whose error is
// proportional to the result and to errA; beyond, e^{ln w + A} − w.
func weightedExpm1(w, lw, a, errA, errW float64) (v, err float64) {
	big := math.Exp(lw + a) // w·e^A
	if a > 1 {
		v = big - w
		err = big*(errW+errA+2*numeric.MachineEpsilon*(math.Abs(lw)+a+1)) + w*(errW+numeric.MachineEpsilon)
	} else {
		v = w * math.Expm1(a)
		err = math.Abs(v)*(errW+2*numeric.MachineEpsilon) + big*errA
	}
	return v, err
}

// gapGeometry holds x and its logarithms for the curve at x.
type gapGeometry struct{ x, x1, lx, lx1 float64 }

func newGapGeometry(x float64) gapGeometry {
	return gapGeometry{x: x, x1: 1 - x, lx: numeric.LogPos(x), lx1: math.Log1p(-x)}
}

// Bounds on the gap parameter t: beyond them y or d underflows.
const (
	gapTMin = -800
	gapTMax = 800
)

// point returns the point with gap parameter t: y = (1 − x)·σ(−t),
// d = (1 − x)·σ(t).
func (g gapGeometry) point(t float64) gapPoint {
	e := math.Exp(-math.Abs(t))
	l := math.Log1p(e)
	r2 := math.Max(t, 0) + l   // softplus(t) = ln((1 − x)/y)
	spm := math.Max(-t, 0) + l // softplus(−t) = ln((1 − x)/d)
	lam := g.lx1 - g.lx - spm  // ln(d/x)
	errLam := 2 * numeric.MachineEpsilon * (math.Abs(g.lx1) + math.Abs(g.lx) + spm + math.Abs(lam) + 1)
	r1 := numeric.Softplus(lam) // ln((x + d)/x) = ln((1 − y)/x)
	p := gapPoint{
		x: g.x, x1: g.x1, lx: g.lx, lx1: g.lx1,
		r1: r1, r2: r2,
		// |d softplus/dλ| = σ(λ) ≤ min(1, softplus(λ)).
		errR1: errLam*math.Min(1, r1) + 2*numeric.MachineEpsilon*r1,
		errR2: 2 * numeric.MachineEpsilon * r2,
	}
	p.ly = g.lx1 - r2
	p.ly1 = g.lx + r1
	p.y, p.y1 = math.Exp(p.ly), math.Exp(p.ly1)
	errLy := numeric.MachineEpsilon*(math.Abs(g.lx1)+math.Abs(p.ly)) + p.errR2
	errLy1 := numeric.MachineEpsilon*(math.Abs(g.lx)+math.Abs(p.ly1)) + p.errR1
	p.errW = math.Max(math.Max(errLy, errLy1), numeric.MachineEpsilon*(math.Max(math.Abs(g.lx), math.Abs(g.lx1))+2)) + 2*numeric.MachineEpsilon
	return p
}

// tradeOff returns y at gap parameter t, moved down by its rounding error.
func (g gapGeometry) tradeOff(t float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	s := numeric.Softplus(t)
	y := math.Exp(g.lx1 - s)
	return y * (1 - 4*numeric.MachineEpsilon*(math.Abs(g.lx1)+s+2))
}

// advantage returns d = 1 − x − y at gap parameter t, moved up by its
// rounding error and clamped to [0, 1 − x].
func (g gapGeometry) advantage(t float64) float64 {
	s := numeric.Softplus(-t)
	d := math.Exp(g.lx1 - s)
	if d == 0 {
		return 0
	}
	return math.Min(d*(1+4*numeric.MachineEpsilon*(math.Abs(g.lx1)+s+2)), g.x1)
}

// tinyGap is the gap below which the curve is checked against η. Near the
// diagonal g − 1 is a difference of terms of size d whose rounding error
// the comparison covers, so for (α − 1)ε below about 1e-26 the computed gap
// is conservative but may exceed the exact one by up to ~x·1e-13; the fixed
// point has an exact, cancellation-free form, and 1 − f(x) − x ≤ η holds
// for every valid curve, so the gap is capped by η there.
const tinyGap = 1e-8

// clampedAdvantage returns the gap at t, capped by eta() when tiny.
func (g gapGeometry) clampedAdvantage(t float64, eta func() float64) float64 {
	d := g.advantage(t)
	if d < tinyGap {
		d = math.Min(d, eta())
	}
	return d
}

// clampedTradeOff returns y at t, raised to (1 − x) − η, rounded down, when
// the gap is tiny (see tinyGap).
func (g gapGeometry) clampedTradeOff(t float64, eta func() float64) float64 {
	y := g.tradeOff(t)
	if g.advantage(t) < tinyGap {
		y = math.Max(y, numeric.RoundDown(g.x1-eta(), 0, 1))
	}
	return y
}

// gapRoot returns the order's root in t at x, as the end of the final
// bracket that surely violates the constraint. start, when finite, is where
// the search begins (the root of another order).
func (o renyiOrder) gapRoot(g gapGeometry, start float64) float64 {
	ex := func(t float64) float64 {
		p := g.point(t)
		return o.excess(&p)
	}
	return increasingRoot(ex, start, gapTMin, gapTMax)
}

// symmetricPoint returns the point x = y = σ(−L) on the anti-diagonal,
// where R₁ = R₂ = L exactly.
func symmetricPoint(l float64) gapPoint {
	lx := -numeric.Softplus(l)
	lx1 := -numeric.Softplus(-l)
	x, x1 := math.Exp(lx), math.Exp(lx1)
	errW := 4*numeric.MachineEpsilon*(math.Abs(l)+2) + 2*numeric.MachineEpsilon
	return gapPoint{x: x, x1: x1, y: x, y1: x1, lx: lx, lx1: lx1, ly: lx, ly1: lx1,
		errW: errW, r1: l, r2: l, sym: true}
}

// Bounds on ln L for the fixed point: L = e^{−700} is η ≈ 0, L = e^{9} is
// η = 1 to double precision.
const (
	fixedLogLMin = -700
	fixedLogLMax = 9
)

// fixedPoint returns the order's L (η = tanh(L/2)) rounded up; start, when
// finite, is where the search begins (another order's L).
func (o renyiOrder) fixedPoint(start float64) float64 {
	if o.pure {
		return o.e * (1 + 8*numeric.MachineEpsilon) // x = 1/(1 + e^ε): η = tanh(ε/2)
	}
	ex := func(s float64) float64 {
		p := symmetricPoint(math.Exp(s))
		return o.excess(&p)
	}
	from := math.Inf(1)
	if !math.IsInf(start, 1) && start > 0 {
		from = numeric.LogPos(start)
	}
	s := increasingRoot(ex, from, fixedLogLMin, fixedLogLMax)
	return math.Exp(s) * (1 + 4*numeric.MachineEpsilon)
}

// worstFromL returns η = tanh(L/2), moved up by its rounding error.
func worstFromL(l float64) float64 {
	if math.IsInf(l, 1) {
		return 1
	}
	return math.Min(math.Tanh(l/2)*(1+8*numeric.MachineEpsilon), 1)
}

// epsilonAt returns the order's ε(δ) of the improved conversion (see
// RDP.EpsilonAt); +Inf for δ ≤ 0.
func (o renyiOrder) epsilonAt(delta float64) float64 {
	switch {
	case o.pure:
		if !(delta > 0) {
			return o.e
		}
		// δ(ε') = σ(ε)·(1 − e^{ε'−ε}) for f_{ε,0}, inverted.
		return math.Max(0, o.e+math.Log1p(-delta/numeric.Logistic(o.e)))
	case o.kl:
		return math.Inf(1) // contributes through η only
	}
	if !(delta > 0) {
		return math.Inf(1)
	}
	return o.e + math.Log1p(-1/o.a) - (numeric.LogPos(delta)+math.Log(o.a))/o.am1
}

// deltaAt returns the order's δ(ε) of the improved conversion (see
// RDP.DeltaAt).
func (o renyiOrder) deltaAt(eps float64) float64 {
	switch {
	case o.pure:
		if eps >= o.e {
			return 0
		}
		return -numeric.Logistic(o.e) * math.Expm1(eps-o.e)
	case o.kl:
		return 1 // contributes through η only
	}
	return math.Min(1, math.Exp(o.am1*(o.e-eps+math.Log1p(-1/o.a))-math.Log(o.a)))
}

// increasingRoot finds where ex changes sign from ≤ 0 to > 0 and returns
// the final bracket's upper end (where ex > 0). start, when finite, is
// where the search begins (typically a root of another order, close to this
// one); otherwise it begins at 0. If ex(tmin) > 0, tmin is returned; if ex
// stays ≤ 0 up to tmax, +Inf is returned.
func increasingRoot(ex func(float64) float64, start, tmin, tmax float64) float64 {
	t, step := 0.0, 1.0
	if !math.IsInf(start, 0) && !math.IsNaN(start) {
		t, step = start, 1e-3*math.Max(1, math.Abs(start))
	}
	t = math.Min(math.Max(t, tmin), tmax)
	f := ex(t)
	var lo, hi, fLo, fHi float64
	if f > 0 {
		hi, fHi = t, f
		lo, fLo = searchDown(ex, hi, step, tmin)
		if math.IsNaN(lo) {
			return tmin
		}
	} else {
		lo, fLo = t, f
		for {
			t = lo + step
			if t > tmax {
				return math.Inf(1)
			}
			if f = ex(t); f > 0 {
				hi, fHi = t, f
				break
			}
			lo, fLo = t, f
			step *= 2
		}
	}
	return illinois(ex, lo, hi, fLo, fHi)
}

// searchDown steps down from hi by doubling steps until ex ≤ 0; NaN if it
// passes tmin first.
func searchDown(ex func(float64) float64, hi, step, tmin float64) (float64, float64) {
	for {
		t := hi - step
		if t < tmin {
			t = tmin
		}
		f := ex(t)
		if !(f > 0) {
			return t, f
		}
		if t == tmin {
			return math.NaN(), 0
		}
		step *= 2
	}
}

// illinois narrows a bracket with ex(lo) ≤ 0 < ex(hi) by the Illinois
// variant of regula falsi, with a bisection whenever a step fails to halve
// the bracket, to a relative width of 2⁻⁵⁰, and returns hi.
func illinois(ex func(float64) float64, lo, hi, fLo, fHi float64) float64 {
	side := 0
	for i := 0; i < 200; i++ {
		w := hi - lo
		if w <= 0x1p-50*math.Max(1, math.Max(math.Abs(lo), math.Abs(hi))) {
			break
		}
		m := lo + w/2
		if i%3 != 2 && fHi > fLo && !math.IsInf(fHi, 0) && !math.IsInf(fLo, 0) {
			if c := hi - fHi*w/(fHi-fLo); c > lo && c < hi {
				m = c
			}
		}
		if m <= lo || m >= hi {
			break
		}
		f := ex(m)
		if f > 0 {
			hi, fHi = m, f
			if side == 1 {
				fLo /= 2
			}
			side = 1
		} else {
			lo, fLo = m, f
			if side == -1 {
				fHi /= 2
			}
			side = -1
		}
	}
	return hi
}
