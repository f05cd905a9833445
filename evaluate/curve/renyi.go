package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

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
	return numeric.IncreasingRoot(ex, start, gapTMin, gapTMax)
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
	s := numeric.IncreasingRoot(ex, from, fixedLogLMin, fixedLogLMax)
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
