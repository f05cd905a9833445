package bound

import "math"

// largestFeasible returns the smallest float64 v ∈ (0, 1] such that
// d(v) ≤ c fails at v and holds at the float64 below it, for d(0) = 0 ≤ c
// and d increasing on [0, 1] (the predicate d(v) ≤ c true on an interval
// [0, v*]), or 1 when d(1) ≤ c. guesses are estimates of v* (those
// outside (0, 1) are ignored).
//
// It is the answer of a bisection of the bit patterns of [0, 1] (which are
// ordered like the values, so that bisection resolves v to one ulp whether
// v is 1e-300 or 0.5), found with far fewer evaluations of d: secant steps
// on √d(v) − √c, which is nearly linear in v (d is quadratic near 0),
// locate v*; two or three evaluations a few ulps either side of it bracket
// the answer; bisection of the bit patterns of that small bracket finishes.
// Every evaluation only narrows a bracket [lo, hi] with d(lo) ≤ c < d(hi)
// (lo = 0 at the start, without evaluating d there), and the answer is hi
// once lo and hi are adjacent floats, so a poor step costs evaluations,
// never correctness. Where the predicate is monotone the answer is unique,
// the same bits as the full bisection's; where rounding makes it flicker
// within a few ulps of v* the two may stop at different adjacent pairs,
// each with d(lo) ≤ c < d(hi). Given guesses, d(1) is not evaluated: the
// answer is 1 when the bracket closes on it, whatever d(1) is (the
// bisection looked at d(1) first, which only differs where d(1) ≤ c
// although d(v) > c for some v < 1, i.e. c within rounding of d(1)).
func largestFeasible(d func(float64) float64, c float64, guesses ...float64) float64 {
	b := feasibleBracket{d: d, c: c, hi: 1}
	sc := math.Sqrt(c)
	// The secant's two last points, on φ(v) = √d(v) − √c: the two of 0
	// and the guesses where |φ| is smallest, the closer last.
	x0, f0 := 0.0, -sc
	x1, f1 := math.NaN(), math.NaN()
	for _, g := range guesses {
		if !(g > b.lo && g < b.hi) {
			continue
		}
		f := math.Sqrt(b.eval(g)) - sc
		switch {
		case math.IsNaN(x1):
			x1, f1 = g, f
		case math.Abs(f) < math.Abs(f1):
			x0, f0, x1, f1 = x1, f1, g, f
		case math.Abs(f) < math.Abs(f0):
			x0, f0 = g, f
		}
	}
	if math.IsNaN(x1) { // no guess: the secant from the ends
		d1 := d(1)
		if d1 <= c {
			return 1
		}
		x1, f1 = 1, math.Sqrt(d1)-sc
	}
	for i := 0; i < feasibleSecantSteps && b.open(); i++ {
		x := x1 - f1*(x1-x0)/(f1-f0)
		if !(x > b.lo && x < b.hi) {
			if math.Abs(x-x1) <= feasibleNear*x1 {
				break // converged onto an end of the bracket
			}
			x = b.mid()
		}
		step := math.Abs(x - x1)
		x0, f0 = x1, f1
		x1, f1 = x, math.Sqrt(b.eval(x))-sc
		if step <= feasibleConverged*x {
			break
		}
	}
	return b.close(x1)
}

// largestFeasibleNear is largestFeasible given v, an estimate of the
// answer to a few ulps (Newton's method's): d is evaluated at v and the
// bracket closed from there as largestFeasible closes it after its secant
// steps, 2 to 4 evaluations where v is within a few ulps.
func largestFeasibleNear(d func(float64) float64, c, v float64) float64 {
	b := feasibleBracket{d: d, c: c, hi: 1}
	if !(v > 0 && v < 1) {
		return largestFeasible(d, c, v)
	}
	b.eval(v)
	return b.close(v)
}

// close returns largestFeasible's answer from the bracket and x1, the
// last point evaluated.
func (b *feasibleBracket) close(x1 float64) float64 {
	// Bracket the secant's answer from the end it landed on: one ulp
	// beyond it, then four times as far while the bracket does not close
	// on that side.
	if math.Abs(x1-b.lo) < math.Abs(x1-b.hi) {
		x1 = b.lo
	} else {
		x1 = b.hi
	}
	for s := math.Max(ulp(x1), math.SmallestNonzeroFloat64); b.open() && s < b.hi-b.lo; s *= 4 {
		x := b.hi - s
		if x1 == b.lo {
			x = b.lo + s
		}
		if !(x > b.lo && x < b.hi) {
			break
		}
		b.eval(x)
		x1 = x
	}
	for b.open() {
		b.eval(b.mid())
	}
	return b.hi
}

// Secant settings of largestFeasible: at most feasibleSecantSteps steps,
// stopping once a step moves v by at most feasibleConverged relative, or
// once a step of at most feasibleNear relative points outside the
// bracket (the secant has converged onto one of its ends).
const (
	feasibleSecantSteps = 12
	feasibleConverged   = 0x1p-48
	feasibleNear        = 0x1p-30
)

// ulp returns the gap between x ≥ 0 and the next float64 above it.
func ulp(x float64) float64 {
	return math.Nextafter(x, math.Inf(1)) - x
}

// feasibleBracket is largestFeasible's bracket: d(lo) ≤ c < d(hi), lo < hi.
type feasibleBracket struct {
	d      func(float64) float64
	c      float64
	lo, hi float64
}

// open reports whether lo and hi are not yet adjacent floats.
func (b *feasibleBracket) open() bool {
	return math.Float64bits(b.hi)-math.Float64bits(b.lo) > 1
}

// mid returns the float whose bit pattern is halfway between lo's and hi's.
func (b *feasibleBracket) mid() float64 {
	lo, hi := math.Float64bits(b.lo), math.Float64bits(b.hi)
	return math.Float64frombits(lo + (hi-lo)/2)
}

// eval returns d(x) and narrows the bracket with it where x is inside.
func (b *feasibleBracket) eval(x float64) float64 {
	y := b.d(x)
	switch {
	case !(x > b.lo && x < b.hi):
	case y <= b.c:
		b.lo = x
	default:
		b.hi = x
	}
	return y
}

// feasibleGuesses returns two estimates of the largest v with
// D_α(Ber(P) ‖ Ber(1/M)) ≤ c (P = (1 + (M − 1)v)/M) for largestFeasible:
// for α = ∞ the exact v of D_∞ = ln(1 + (M − 1)v); otherwise the v where
// the second-order term α·χ²/2 = α(M − 1)v²/2 of D_α at v = 0 equals c
// (close for small α·c), and the v where the lower bound
// (α·ln(1 + (M − 1)v) − ln M)/(α − 1) of D_α (its first term alone) equals
// c, an upper bound on the answer and close to it for large α.
func (pr fanoPrior) feasibleGuesses(alpha, c float64) (near0, large float64) {
	large = math.Expm1(c) / (pr.m - 1)
	if math.IsInf(alpha, 1) {
		return large, large
	}
	near0 = math.Sqrt(2 * c / (alpha * (pr.m - 1)))
	if alpha > 1 {
		large = math.Expm1((c*(alpha-1)+pr.logM)/alpha) / (pr.m - 1)
	}
	if large >= 0.99*near0 && large <= 1.01*near0 {
		large = near0 // one evaluation is enough
	}
	return near0, large
}
