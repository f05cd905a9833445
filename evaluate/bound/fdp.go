package bound

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Prior-work bounds that Kulynych et al. 2025 ("Unifying Re-Identification,
// Attribute Inference, and Data Reconstruction Risks in Differential
// Privacy", App. B; Kulynych et al. 2025) compare their f-DP bounds with, and the
// PSO bound of their Thm F.2. Every function returns an upper bound on an
// attack's success probability (or a normalised advantage), rounded up by
// roundUp, or NaN when an argument is outside its domain (NaN, a negative
// privacy parameter, a baseline outside [0, 1]). None of them panics.

// ReRoPure returns the reconstruction-robustness bound of Balle, Cherubin &
// Hayes 2022 for a pure ε-DP mechanism,
//
//	succ ≤ min(1, e^ε·base),
//
// the t → ∞ limit of Kulynych et al. Thm B.2 (ε-DP implies (t, ε)-RDP for
// every t; Kulynych et al. 2025). It holds under add/remove and replace-one
// neighbours alike and needs pure DP (δ = 0). The product is formed as
// exp(ε + ln base), so ε up to 700 and more and baselines down to 1e-300
// neither overflow nor underflow early. base = 0 gives 0 (1 when ε = +Inf).
func ReRoPure(eps, base float64) float64 {
	if v, ok := reroEdge(eps, base); ok {
		return v
	}
	l := eps + numeric.LogPos(base)
	if l >= 0 {
		return 1
	}
	return numeric.RoundUp(math.Exp(l), base, 1)
}

// reroEdge returns a reconstruction-robustness bound where it does not
// depend on the mechanism: NaN for a privacy parameter (ε or ρ) below 0 or
// NaN or a baseline outside [0, 1], and at base = 0 the value 0 (a target
// nobody can guess a priori stays unguessed), or 1 when the parameter is
// +Inf (no privacy). ok is false when the bound must be computed.
func reroEdge(param, base float64) (v float64, ok bool) {
	switch {
	case !(param >= 0) || !numeric.IsProbability(base):
		return math.NaN(), true
	case base == 0 && math.IsInf(param, 1):
		return 1, true
	case base == 0:
		return 0, true
	}
	return 0, false
}

// ReRoRDP returns the reconstruction-robustness bound of Balle et al. 2022
// for a (t, ε)-RDP mechanism, Kulynych et al. Thm B.2, Eq. (23):
//
//	succ ≤ min(1, (base·e^ε)^{(t−1)/t}),   t > 1,
//
// under add/remove or replace-one neighbours. It is computed as
// exp((1 − 1/t)·(ln base + ε)), so nothing overflows; t = +Inf gives the
// pure-DP bound ReRoPure. t = 1 carries no information and gives 1
// (Kulynych et al. 2025); t < 1 is outside the theorem and gives NaN.
func ReRoRDP(order, epsRDP, base float64) float64 {
	if !(order >= 1) || !(epsRDP >= 0) || !numeric.IsProbability(base) {
		return math.NaN()
	}
	if order == 1 {
		return 1
	}
	if v, ok := reroEdge(epsRDP, base); ok {
		return v
	}
	l := (1 - 1/order) * (numeric.LogPos(base) + epsRDP)
	if !(l < 0) {
		return 1
	}
	return numeric.RoundUp(math.Exp(l), base, 1)
}

// ReRoRDPCurve returns the bound of Balle et al. 2022 for a mechanism that
// is (t_i, ε_i)-RDP for each of the given orders, Kulynych et al. Cor. B.2,
// Eq. (25), restricted to the given pairs (Kulynych et al. 2025):
//
//	succ ≤ min_i min(1, (base·e^{ε_i})^{(t_i−1)/t_i}).
//
// Either neighbouring relation. orders and eps must have the same, non-zero
// length; any invalid pair (see ReRoRDP) makes the result NaN.
func ReRoRDPCurve(orders, eps []float64, base float64) float64 {
	if len(orders) == 0 || len(orders) != len(eps) {
		return math.NaN()
	}
	best := 1.0
	for i := range orders {
		v := ReRoRDP(orders[i], eps[i], base)
		if math.IsNaN(v) {
			return v
		}
		best = math.Min(best, v)
	}
	return best
}

// ReRoZCDP returns the reconstruction-robustness bound of Balle et al. 2022
// for a ρ-zCDP mechanism, Kulynych et al. Cor. B.1, Eq. (24), with its
// validity guard (Kulynych et al. 2025):
//
//	succ ≤ exp{−(√ln(1/base) − √ρ)²}   if ρ < ln(1/base),   1 otherwise.
//
// The closed form is Thm B.2 at the optimal order t* = √(ln(1/base)/ρ),
// which must exceed 1; for ρ ≥ ln(1/base) the best order tends to 1 and the
// bound is vacuous (the literal formula would wrongly decrease again). The
// difference of square roots is formed as (L − ρ)/(√L + √ρ), L = ln(1/base),
// so it does not cancel. Either neighbouring relation. base = 0 gives 0.
func ReRoZCDP(rho, base float64) float64 {
	if v, ok := reroEdge(rho, base); ok {
		return v
	}
	L := -numeric.LogPos(base)
	if rho >= L {
		return 1
	}
	d := (L - rho) / (math.Sqrt(L) + math.Sqrt(rho))
	return numeric.RoundUp(math.Exp(-d*d), base, 1)
}

// PSOBaseline returns the baseline of predicate singling out (Cohen &
// Nissim 2020; Kulynych et al. Eq. (5), App. B, §3.2 and §4.1):
//
//	base_PSO = n·w·(1 − w)^{n−1},
//
// the probability that a predicate of weight w, chosen without seeing the
// release, isolates exactly one of n i.i.d. records. It is the supremum over
// predicates of weight ≤ w only when w ≤ 1/n, so w must lie in [0, 1/n] and
// n ≥ 1 (NaN otherwise). It is computed as exp(ln n + ln w + (n−1)·log1p(−w)),
// exact to a few ulps for w down to 1e-300 and n up to 2^62. It is a
// baseline, not a bound, and is not rounded.
func PSOBaseline(n int, w float64) float64 {
	if !validPSO(n, w) {
		return math.NaN()
	}
	if w == 0 {
		return 0
	}
	fn := float64(n)
	return math.Exp(math.Log(fn) + numeric.LogPos(w) + (fn-1)*math.Log1p(-w))
}

// PSOCohenNissim returns the bound of Cohen & Nissim 2020 on the success of
// predicate singling out, Kulynych et al. Thm B.1, Eq. (21):
//
//	succ_PSO ≤ min(1, n·(e^ε·w + δ)),
//
// for an (ε, δ)-DP mechanism under replace-one neighbours, n > 1 i.i.d.
// records and predicates of weight at most w ∈ [0, 1/n]. The sum is formed
// in log space, ln n + ln(e^{ε + ln w} + e^{ln δ}), so ε up to 700 does not
// overflow before the clip at 1 (Kulynych et al. 2025). The paper's
// figures plot min(n(e^ε w + δ) − base_PSO, 1), which can exceed 1 − base;
// this function clips the success probability itself at 1.
func PSOCohenNissim(eps, delta float64, n int, w float64) float64 {
	if !(eps >= 0) || !numeric.IsProbability(delta) || n < 2 || !validPSO(n, w) {
		return math.NaN()
	}
	lw := math.Inf(-1)
	if w > 0 {
		lw = eps + numeric.LogPos(w)
	}
	l := math.Log(float64(n)) + numeric.LogSumExp(lw, numeric.LogPos(delta))
	if l >= 0 || math.IsNaN(l) {
		return 1
	}
	return numeric.RoundUp(math.Exp(l), 0, 1)
}

// PSOFDP returns the f-DP bound on the success of predicate singling out,
// Kulynych et al. Thm F.2, Eq. (48):
//
//	succ_PSO ≤ min(1, n·(1 − f(w))),
//
// for an f-DP mechanism under replace-one neighbours, n > 1 i.i.d. records
// and predicates of weight exactly w ∈ [0, 1/n]. 1 − f(w) is formed as
// w + Advantage(w), which the curves compute without cancellation.
func PSOFDP(tradeOff curve.Curve, n int, w float64) float64 {
	if tradeOff == nil || n < 2 || !validPSO(n, w) {
		return math.NaN()
	}
	s := float64(n) * (w + tradeOff.Advantage(w))
	if math.IsNaN(s) {
		return s
	}
	return numeric.RoundUp(s, 0, 1)
}

// NormalizedAdvantage returns the advantage normalised by what is left to
// gain over the baseline, the Guo et al. 2023 normalisation that Kulynych et
// al. say Thm 3.3 "trivially extends" to (§3.3, after Eq. (11); Kulynych et al. 2025):
//
//	(succ − base)/(1 − base) ≤ (1 − f(base) − base)/(1 − base),
//
// given an upper bound adv ≥ 0 on succ − base. Any neighbouring relation,
// pure or approximate DP: it only rescales the bound. The result is rounded
// up and clipped to [0, 1]. base must be in [0, 1) (at base = 1 the ratio is
// 0/0) and adv ≥ 0; otherwise NaN.
func NormalizedAdvantage(adv, base float64) float64 {
	if !(adv >= 0) || !(base >= 0 && base < 1) {
		return math.NaN()
	}
	return numeric.RoundUp(adv/(1-base), 0, 1)
}

// MaxAdvantageOverBaseline returns the true worst case over baselines of a
// prior-work success bound, max_{b∈[0,1]} (success(b) − b), and the baseline
// where it is attained (Kulynych et al. 2025: the paper's figures instead
// evaluate every method at the f-DP worst-case baseline α_w = (1 − η)/2; the
// two differ, e.g. 0.7304 vs 0.7229 for the Census state level of §1, computed here).
//
// success must be concave and non-decreasing on [0, 1], as every bound of
// App. B is in b (each is a minimum over orders of b ↦ (b·e^ε)^{(t−1)/t},
// concave, clipped at 1). The maximum is located by golden-section search in
// the logit of b, which reaches baselines down to 1e-300; the reported
// value is an upper bound on the maximum: from the four final points, the
// chords of the concave b ↦ success(b) − b extended outside their interval
// lie above it, and the largest value those chords allow on the final
// bracket is returned, rounded up and clipped to [0, 1]. A NaN from success
// gives NaN.
func MaxAdvantageOverBaseline(success func(b float64) float64) (adv, at float64) {
	if success == nil {
		return math.NaN(), math.NaN()
	}
	upper, at := goldenConcaveMax(func(b float64) float64 { return success(b) - b })
	if math.IsNaN(upper) {
		return upper, at
	}
	return numeric.RoundUp(upper, 0, 1), at
}

// validPSO reports whether n ≥ 1 and w ∈ [0, 1/n], the domain of the PSO
// baseline (a relative slack of 4 ulps lets w = 1/n computed in float64 in).
func validPSO(n int, w float64) bool {
	return n >= 1 && w >= 0 && w <= (1/float64(n))*(1+4*numeric.UnitRoundoff)
}

// goldenConcaveMax locates the maximum of a function g that is concave on
// [0, 1] by searching in t = logit(x), x = σ(t), over t ∈ [−746, 38] (whose
// ends map to exactly 0 and 1), so that a maximiser as small as 1e-300 or
// as close to 1 as 1e-16 is resolved to a relative width of ~1e-14. It
// returns an upper bound on max g and the point with the largest evaluated
// value.
//
// A concave g is unimodal in t, but over so wide a range it is flat in
// float64 near x = 0 and x = 1, where a plain golden-section search can
// discard the side that holds the maximum. So g is first evaluated on a
// grid of 99 values of t; the maximiser lies between the neighbours of the
// best grid point, and golden-section search refines that bracket.
//
// The bound: with final bracket points x_a ≤ x_c ≤ x_d ≤ x_b, the line
// through (x_c, g_c), (x_d, g_d) lies above g outside [x_c, x_d], and on
// [x_c, x_d] g lies below both the line through a, c and the one through
// d, b. The largest value these lines allow is returned, together with the
// evaluated values themselves. Any NaN evaluation gives NaN.
func goldenConcaveMax(g func(x float64) float64) (upper, at float64) {
	const (
		tLo, tHi   = -746.0, 38.0
		gridPoints = 98
	)
	phi := func(t float64) float64 { return g(numeric.Logistic(t)) }
	step := (tHi - tLo) / gridPoints
	best, bestT, bestI := math.Inf(-1), tLo, 0
	for i := 0; i <= gridPoints; i++ {
		t := tLo + float64(i)*step
		v := phi(t)
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
		if v > best {
			best, bestT, bestI = v, t, i
		}
	}
	a, b := math.Max(tLo, bestT-step), math.Min(tHi, bestT+step)
	if bestI == gridPoints {
		b = tHi
	}
	neg := func(t float64) float64 { return -phi(t) } // the search minimises
	gs := numeric.Golden{A: a, B: b, FA: neg(a), FB: neg(b)}
	gs.C, gs.D = numeric.GoldenPoints(a, b)
	gs.FC, gs.FD = neg(gs.C), neg(gs.D)
	nan := math.IsNaN(gs.FA) || math.IsNaN(gs.FB) || math.IsNaN(gs.FC) || math.IsNaN(gs.FD)
	for i := 0; i < 300 && !nan; i++ {
		if gs.B-gs.A <= 4e-15*math.Max(1, math.Max(math.Abs(gs.A), math.Abs(gs.B))) {
			break
		}
		nan = math.IsNaN(gs.Step(neg))
	}
	if nan {
		return math.NaN(), math.NaN()
	}
	a, c, d, b := gs.A, gs.C, gs.D, gs.B
	ga, gc, gd, gb := -gs.FA, -gs.FC, -gs.FD, -gs.FB
	xa, xc, xd, xb := numeric.Logistic(a), numeric.Logistic(c), numeric.Logistic(d), numeric.Logistic(b)
	upper, at = best, numeric.Logistic(bestT)
	for _, p := range [...]struct{ x, y float64 }{{xa, ga}, {xc, gc}, {xd, gd}, {xb, gb}} {
		if p.y > upper {
			upper, at = p.y, p.x
		}
	}
	if xd > xc {
		// Outside [x_c, x_d]: the chord c–d extended.
		upper = math.Max(upper, lineThrough(xc, gc, xd, gd, xa))
		upper = math.Max(upper, lineThrough(xc, gc, xd, gd, xb))
		// Inside: below min(chord a–c extended, chord d–b extended).
		upper = math.Max(upper, maxOfMinLines(xa, ga, xc, gc, xd, gd, xb, gb))
	}
	return upper, at
}

// lineThrough returns the value at x of the line through (x1, y1), (x2, y2),
// x1 ≠ x2.
func lineThrough(x1, y1, x2, y2, x float64) float64 {
	return y1 + (y2-y1)*((x-x1)/(x2-x1))
}

// maxOfMinLines returns max over x ∈ [xc, xd] of min(L1(x), L2(x)), where L1
// is the line through a and c (+Inf when xa = xc) and L2 the line through d
// and b (+Inf when xd = xb). Both are linear, so the maximum is at an end or
// where they cross.
func maxOfMinLines(xa, ga, xc, gc, xd, gd, xb, gb float64) float64 {
	l1 := func(x float64) float64 {
		if xc > xa {
			return lineThrough(xa, ga, xc, gc, x)
		}
		return math.Inf(1)
	}
	l2 := func(x float64) float64 {
		if xb > xd {
			return lineThrough(xd, gd, xb, gb, x)
		}
		return math.Inf(1)
	}
	best := math.Max(math.Min(l1(xc), l2(xc)), math.Min(l1(xd), l2(xd)))
	if xc > xa && xb > xd {
		s1 := (gc - ga) / (xc - xa)
		s2 := (gb - gd) / (xb - xd)
		if s1 != s2 {
			// l1(x) = gc + s1(x − xc), l2(x) = gd + s2(x − xd).
			x := (gd - gc + s1*xc - s2*xd) / (s1 - s2)
			if x > xc && x < xd {
				best = math.Max(best, math.Min(l1(x), l2(x)))
			}
		}
	}
	if math.IsInf(best, 1) { // neither chord exists: no information beyond the points
		return math.Inf(-1)
	}
	return best
}
