package curve

import (
	"errors"
	"fmt"
	"iter"
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
	if f, ok := c.tradeOffOutside(alpha); ok {
		return f
	}
	g := newGapGeometry(alpha)
	return g.clampedTradeOff(c.gap(g), c.WorstAdvantage)
}

// Advantage returns 1 − f(b) − b for the RDP curve (Kulynych et al. 2025,
// Thm 3.3, Eq. 11), solved for directly as the gap below the diagonal, so
// that it keeps its relative precision for tiny b and tiny ε. It is rounded
// up (never understates the risk), and capped by η.
func (c RDP) Advantage(b float64) float64 {
	if f, ok := c.tradeOffOutside(b); ok {
		if b <= 0 {
			return 1 - f // 1 − f(0): b ≤ 0 is taken as 0
		}
		return f // 0 at b ≥ 1, NaN for NaN
	}
	g := newGapGeometry(b)
	return g.clampedAdvantage(c.gap(g), c.WorstAdvantage)
}

// tradeOffOutside returns f(x) where x is not in (0, 1): NaN for NaN,
// f = 0 at x ≥ 1, and at x ≤ 0 f = 1, or 0 when no guarantee is usable (no
// privacy). ok is false for x in (0, 1), where the orders decide.
func (c RDP) tradeOffOutside(x float64) (f float64, ok bool) {
	switch {
	case math.IsNaN(x):
		return x, true
	case x >= 1:
		return 0, true
	case x > 0:
		return 0, false
	case c.usable():
		return 1, true
	}
	return 0, true
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
	for o := range c.orders() {
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
	for o := range c.orders() {
		best = math.Min(best, o.deltaAt(eps))
	}
	if best > 0 {
		best = numeric.RoundUp(best, 0, 1)
	}
	return math.Min(best, c.WorstAdvantage()) // η is already rounded up
}

// usable reports whether at least one guarantee constrains the mechanism.
func (c RDP) usable() bool {
	for range c.orders() {
		return true
	}
	return false
}

// orders yields the guarantees that constrain the mechanism, in the order
// given (see newRenyiOrder); pairs beyond the shorter slice are ignored.
func (c RDP) orders() iter.Seq[renyiOrder] {
	return func(yield func(renyiOrder) bool) {
		n := min(len(c.Orders), len(c.Epsilons))
		for i := 0; i < n; i++ {
			if o, ok := newRenyiOrder(c.Orders[i], c.Epsilons[i]); ok && !yield(o) {
				return
			}
		}
	}
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
	orders := make([]renyiOrder, 0, min(len(c.Orders), len(c.Epsilons)))
	for o := range c.orders() {
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
