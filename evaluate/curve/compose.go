package curve

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// ComposedApprox is the exact trade-off curve of the k-fold (adaptive)
// composition of mechanisms that are each (ε, δ)-DP, the optimal
// homogeneous composition of Kairouz, Oh & Viswanath, "The Composition
// Theorem for Differential Privacy" (ICML 2015), Thm 3.3: the composition
// is ((k − 2i)ε, δ_tot,i)-DP for every i = 0, …, ⌊k/2⌋ with
//
//	δ_tot,i = 1 − (1 − δ)^k·(1 − δ_i),
//	δ_i     = Σ_{l=0}^{i−1} C(k, l)·(e^{(k−l)ε} − e^{(k−2i+l)ε}) / (1 + e^ε)^k,
//
// and nothing better holds for the class, so the curve is
//
//	f(α) = max_i f_{(k−2i)ε, δ_tot,i}(α)
//
// (Kulynych et al. 2025, Eq. 2 for each f_{ε,δ}; a maximum of trade-off
// curves is convex, so f is a valid trade-off function as Thm 3.1 of Kulynych
// et al. 2025 requires). The neighbouring relation is whichever the per-mechanism
// (ε, δ) guarantee was stated for; the mechanisms may be chosen adaptively.
//
// It is computed from the dominating pair of the proof of Thm 3.3
// (supplementary §5.1, with their Thm 2.5): every (ε, δ)-DP mechanism is a
// post-processing of the four-outcome mechanism
//
//	P = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0),   Q = (0, (1−δ)/(1+e^ε), (1−δ)e^ε/(1+e^ε), δ),
//
// so the composition's curve is T(P^k, Q^k). Among the outcomes with no
// δ-coordinate, the number l of "bad" coordinates is Binomial(k, 1/(1+e^ε))
// under P, with privacy loss (k − 2l)ε, and the Neyman–Pearson curve is
// piecewise linear through the vertices
//
//	(α_j, β_j) = (c·T(k + 1 − j), c·T(j)),   j = 0, …, k + 1,
//
// where c = (1 − δ)^k and T(m) = Pr[l ≥ m]; segment j has slope
// −e^{(k−2j)ε}. The advantage at vertex j is
// 1 − α_j − β_j = (1 − c) + c·Σ_{l<j} Pr[l]·(1 − e^{−(k−2l)ε}) (j ≤ ⌈k/2⌉,
// mirrored beyond), a sum of positive terms, and the privacy profile is
// δ(x) = (1 − c) + c·Σ_{(k−2l)ε > x} Pr[l]·(1 − e^{x−(k−2l)ε}).
//
// Numerics. Everything is carried in logarithms, so ε up to 700, δ down to
// 1e-300 and k up to 2^24 neither overflow nor cancel. The binomial masses
// come from the ratio recurrence Pr[l+1]/Pr[l] = (k − l)/(l + 1)·e^{−ε},
// summed in log space (Neumaier) outward from the mode and normalised by
// their total, so a mass's error grows with its distance from the mode, not
// with ln k!; masses below e^{−800} relative to the mode are dropped (their
// total is below e^{−780}, far under the smallest float64). Each tail T(m)
// is taken from the smaller side (1 − Pr[l < m] when it exceeds ½), so
// values near 1 keep their absolute precision. Every method then moves its
// result towards more risk by a bound on the accumulated rounding error
// (relative, about 2^-51 times the number of masses kept plus the walk's
// length: 7e-15 for k = 1, 3e-14 for k = 10, 2e-13 for k = 100, 6e-12 for
// k = 10^4, 2e-10 for k = 2^24): TradeOff is never above the exact curve,
// Advantage, WorstAdvantage, DeltaAt and EpsilonAt never below theirs.
type ComposedApprox struct {
	eps, delta float64
	k          int
	lnC        float64   // ln (1 − δ)^k
	ln1mC      float64   // ln(1 − (1 − δ)^k)
	floorPad   float64   // error bound of ln1mC (0 for k = 1, where it is ln δ exactly)
	lo, hi     int       // kept range of l
	lpmf       []float64 // ln Pr[l], l = lo..hi
	lnHead     []float64 // ln Σ_{l'=lo}^{l} Pr[l'], l = lo..hi
	lnTail     []float64 // ln Σ_{l'=l}^{hi} Pr[l'], l = lo..hi
	lnAdvSum   []float64 // ln Σ_{l'=lo}^{l} Pr[l']·(1 − e^{−(k−2l')ε}), l = lo..min(hi, ⌈k/2⌉ − 1)
	slack      float64   // bound on the absolute error of the stored logarithms, beyond 4 ulps of their size
}

const (
	// MaxCompositions bounds k so that memory and time stay linear and small.
	MaxCompositions = 1 << 24
	// composeCutLn is where the walk from the mode stops: masses below
	// e^{−800}·Pr[mode] are dropped.
	composeCutLn = -800.0
	// composeDropLn bounds the logarithm of the total dropped mass,
	// (k + 1)·e^{−800} < e^{−780} for k ≤ 2^24.
	composeDropLn = -780.0
)

// ComposeApprox returns the exact trade-off curve of the k-fold adaptive
// composition of (ε, δ)-DP mechanisms (Kairouz, Oh & Viswanath 2015,
// Thm 3.3; see ComposedApprox). ε must be finite and ≥ 0, δ in [0, 1] and
// k an integer in [1, 2^24]. The returned Curve is a *ComposedApprox, which
// also has the privacy profile (DeltaAt) and its inverse (EpsilonAt). It is
// built in time and memory proportional to the number of binomial masses
// above e^{−800}·Pr[mode], at most about 40·√k + 40 (k = 10^4: about 4000
// masses, under 1 ms).
func ComposeApprox(eps, delta float64, k int) (Curve, error) {
	c, err := NewComposedApprox(eps, delta, k)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// ComposeApproxEpsilon returns the smallest total ε at which the k-fold
// composition of (ε, δ)-DP mechanisms is (ε_total, δ_total)-DP by the
// optimal composition theorem (Kairouz, Oh & Viswanath 2015, Thm 3.3),
// rounded up; +Inf when δ_total < 1 − (1 − δ)^k, which no ε reaches. See
// ComposedApprox.EpsilonAt.
func ComposeApproxEpsilon(eps, delta float64, k int, deltaTotal float64) (float64, error) {
	c, err := NewComposedApprox(eps, delta, k)
	if err != nil {
		return math.NaN(), err
	}
	if !numeric.IsProbability(deltaTotal) {
		return math.NaN(), fmt.Errorf("total delta %v is not in [0, 1]", deltaTotal)
	}
	return c.EpsilonAt(deltaTotal), nil
}

// NewComposedApprox is ComposeApprox returning the concrete type: the
// trade-off curve of the k-fold adaptive composition of (ε, δ)-DP
// mechanisms by the optimal composition theorem of Kairouz, Oh & Viswanath
// 2015, Thm 3.3 (see ComposedApprox), under the neighbouring relation of
// the per-mechanism guarantee. It fails for ε not finite and ≥ 0, δ outside
// [0, 1], or k outside [1, 2^24].
func NewComposedApprox(eps, delta float64, k int) (*ComposedApprox, error) {
	switch {
	case !(eps >= 0) || math.IsInf(eps, 1):
		return nil, fmt.Errorf("epsilon %v: composition needs a finite ε ≥ 0", eps)
	case !numeric.IsProbability(delta):
		return nil, fmt.Errorf("delta %v: composition needs δ in [0, 1]", delta)
	case k < 1:
		return nil, errors.New("compositions: the number of compositions must be an integer ≥ 1")
	case k > MaxCompositions:
		return nil, fmt.Errorf("compositions: %d is more than the %d this version composes", k, MaxCompositions)
	}
	c := &ComposedApprox{eps: eps, delta: delta, k: k}
	kf := float64(k)
	c.lnC = kf * math.Log1p(-delta)
	if k == 1 {
		c.ln1mC = numeric.LogPos(delta)
	} else {
		c.ln1mC = numeric.Log1mExp(c.lnC)
		if !math.IsInf(c.ln1mC, 0) {
			c.floorPad = 8 * numeric.UnitRoundoff * (math.Abs(c.ln1mC) + 1)
		}
	}

	// Unnormalised log-masses w_l = ln(Pr[l]/Pr[mode]), walked outward from
	// the mode with compensated sums; e_l bounds the error of w_l.
	mode := int(math.Floor((kf + 1) * numeric.Logistic(-eps)))
	mode = max(0, min(mode, k))
	walk := func(from, step int) (ws, es []float64) {
		var sum numeric.Sum
		e := 0.0
		for l := from; ; l += step {
			var r float64
			if step > 0 { // Pr[l+1]/Pr[l] = (k − l)/(l + 1)·e^{−ε}
				if l >= k {
					break
				}
				r = math.Log(float64(k-l) / float64(l+1))
				sum.Add(r - eps)
			} else { // Pr[l−1]/Pr[l] = l/(k − l + 1)·e^{ε}
				if l <= 0 {
					break
				}
				r = math.Log(float64(l) / float64(k-l+1))
				sum.Add(r + eps)
			}
			e += 4 * numeric.UnitRoundoff * (1 + math.Abs(r) + eps)
			w := sum.Value()
			if w < composeCutLn {
				break
			}
			ws = append(ws, w)
			es = append(es, e+4*numeric.UnitRoundoff*math.Abs(w))
		}
		return ws, es
	}
	upW, upE := walk(mode, 1)
	downW, downE := walk(mode, -1)
	c.lo, c.hi = mode-len(downW), mode+len(upW)
	n := c.hi - c.lo + 1
	w := make([]float64, n)
	errLog := 0.0
	for i, v := range downW {
		w[len(downW)-1-i] = v
		errLog = math.Max(errLog, downE[i])
	}
	copy(w[len(downW)+1:], upW)
	for _, e := range upE {
		errLog = math.Max(errLog, e)
	}
	var acc logAccumulator
	for _, v := range w {
		acc.add(v)
	}
	lnZ := acc.value()
	c.lpmf = w
	maxAbs := 0.0
	for i := range c.lpmf {
		c.lpmf[i] -= lnZ
		maxAbs = math.Max(maxAbs, math.Abs(c.lpmf[i]))
	}
	errLog += 4*numeric.UnitRoundoff*float64(n+2) + 4*numeric.UnitRoundoff*(maxAbs+1)

	c.lnHead = make([]float64, n)
	acc = logAccumulator{}
	for i := 0; i < n; i++ {
		acc.add(c.lpmf[i])
		c.lnHead[i] = acc.value()
	}
	c.lnTail = make([]float64, n)
	acc = logAccumulator{}
	for i := n - 1; i >= 0; i-- {
		acc.add(c.lpmf[i])
		c.lnTail[i] = acc.value()
	}
	half := (k + 1) / 2 // ⌈k/2⌉
	if top := min(c.hi, half-1); top >= c.lo {
		c.lnAdvSum = make([]float64, top-c.lo+1)
		acc = logAccumulator{}
		for l := c.lo; l <= top; l++ {
			acc.add(c.lpmf[l-c.lo] + numeric.Log1mExp(-float64(k-2*l)*eps))
			c.lnAdvSum[l-c.lo] = acc.value()
		}
	}
	c.slack = errLog + 4*numeric.UnitRoundoff*float64(n+4)
	return c, nil
}

// Parameters returns the per-mechanism ε, δ and the number k of
// compositions (zeros for a nil curve).
func (c *ComposedApprox) Parameters() (eps, delta float64, k int) {
	if c == nil {
		return 0, 0, 0
	}
	return c.eps, c.delta, c.k
}

// valid reports whether c was built by NewComposedApprox; methods of a nil
// or zero ComposedApprox return NaN instead of panicking.
func (c *ComposedApprox) valid() bool { return c != nil && c.k >= 1 && len(c.lpmf) > 0 }

// TradeOff returns f(α) of the composed curve, never above the exact value.
// On the segment j that contains α it evaluates the segment's line through
// its right vertex, β_{j+1} + e^{(k−2j)ε}·(α_{j+1} − α), a sum of positive
// terms, with every piece bounded from below (a line of a convex curve,
// extended, lies below it, so this is a lower bound wherever α falls). The
// gap α_{j+1} − α is formed as (1 − α) − (1 − α_{j+1}) when α > ½, so that
// α near 1 keeps its precision. f(0) = (1 − δ)^k.
func (c *ComposedApprox) TradeOff(alpha float64) float64 {
	switch {
	case !c.valid() || math.IsNaN(alpha):
		return math.NaN()
	case alpha <= 0:
		return expDown(c.lnCT(0, false))
	case alpha >= 1:
		return 0
	}
	p := c.segment(numeric.LogPos(alpha))
	if p >= c.k+1 || p > c.hi { // β_p = 0: f vanishes from here on
		return 0
	}
	s := float64(c.k-2*p) * c.eps
	f := expDown(c.lnCT(p+1, false)) // β_{p+1}
	switch gap := c.gapAlpha(p+1, alpha, false); {
	case gap > 0:
		f += expDown(s + math.Log(gap))
	case gap < 0:
		f -= expUp(s + math.Log(-gap))
	}
	return math.Min(math.Max(f*(1-2*numeric.UnitRoundoff), 0), 1)
}

// Advantage returns 1 − f(b) − b, the bound of Kulynych et al. 2025
// Thm 3.3 (Eq. 11) for the composed curve, never below the exact value. On
// segment j (slope −e^s, s = (k − 2j)ε) it is formed from the vertex
// advantage and a positive increment, adv_j + (e^s − 1)(b − α_j) when s > 0
// and adv_{j+1} + (1 − e^s)(α_{j+1} − b) when s < 0, so small advantages
// keep their relative precision. Clipped to [0, 1 − b].
func (c *ComposedApprox) Advantage(b float64) float64 {
	switch {
	case !c.valid():
		return math.NaN()
	case math.IsNaN(b):
		return b
	case b >= 1:
		return 0
	case b <= 0:
		return math.Min(1, expUp(c.ln1mC+c.floorPad))
	}
	p := c.segment(numeric.LogPos(b))
	if p >= c.k+1 || p > c.hi {
		return 1 - b
	}
	m := c.k - 2*p
	var adv float64
	switch {
	case m > 0 && c.eps > 0:
		adv = expUp(c.lnAdvUpper(p))
		if gap := -c.gapAlpha(p, b, false); gap > 0 { // b − α_p, bounded above
			adv += expUp(numeric.LogExpm1(float64(m)*c.eps) + math.Log(gap))
		}
	case m < 0 && c.eps > 0:
		adv = expUp(c.lnAdvUpper(p + 1))
		if gap := c.gapAlpha(p+1, b, true); gap > 0 { // α_{p+1} − b, bounded above
			adv += expUp(numeric.Log1mExp(float64(m)*c.eps) + math.Log(gap))
		}
	default: // slope −1: the advantage is constant on the segment
		adv = expUp(c.lnAdvUpper(p))
	}
	return math.Max(0, math.Min(adv*(1+2*numeric.UnitRoundoff), 1-b))
}

// WorstAdvantage returns η = max_α (1 − f(α) − α) (Kulynych et al. Thm 3.4),
// attained at vertex ⌈k/2⌉, where the slopes cross −1:
//
//	η = 1 − (1 − δ)^k·(1 − Σ_{l<⌈k/2⌉} Pr[l]·(1 − e^{−(k−2l)ε})) = δ_tot at ε_total = 0,
//
// rounded up. For k = 1 it is (e^ε − 1 + 2δ)/(e^ε + 1).
func (c *ComposedApprox) WorstAdvantage() float64 {
	if !c.valid() {
		return math.NaN()
	}
	return math.Min(1, expUp(c.lnAdvUpper((c.k+1)/2)))
}

// LogDeltaAt returns ln δ(x), the logarithm of the composition's privacy
// profile (the hockey-stick divergence E_{e^x}(P^k‖Q^k)), rounded up:
//
//	δ(x) = 1 − (1 − δ)^k + (1 − δ)^k·Σ_{l: (k−2l)ε > x} Pr[l]·(1 − e^{x−(k−2l)ε}),
//
// which at x = (k − 2i)ε is δ_tot,i of Kairouz, Oh & Viswanath 2015,
// Thm 3.3. Every term is positive and carried as a logarithm. Any real x is
// allowed; the result is never below −780 (the dropped mass).
func (c *ComposedApprox) LogDeltaAt(x float64) float64 {
	if !c.valid() || math.IsNaN(x) {
		return math.NaN()
	}
	var acc logAccumulator
	for l := c.lo; l <= c.hi; l++ {
		s := float64(c.k-2*l) * c.eps
		if !(s > x) {
			break
		}
		acc.add(c.lpmf[l-c.lo] + numeric.Log1mExp(x-s))
	}
	v := c.ln1mC + c.floorPad
	if sum := acc.value(); !math.IsInf(sum, -1) && !math.IsInf(c.lnC, -1) {
		t := c.lnC + sum
		t += c.pad(sum) + 4*numeric.UnitRoundoff*(math.Abs(c.lnC)+math.Abs(t))
		v = numeric.LogSumExp(v, t)
		v += 4 * numeric.UnitRoundoff * (math.Abs(v) + 1)
	}
	return numeric.LogSumExp(v, composeDropLn)
}

// DeltaAt returns δ(x) of the composition (see LogDeltaAt), rounded up.
func (c *ComposedApprox) DeltaAt(x float64) float64 {
	return math.Min(1, expUp(c.LogDeltaAt(x)))
}

// EpsilonAt returns the smallest total ε ≥ 0 at which the composition is
// (ε, δ_total)-DP, the inverse of the privacy profile of Kairouz, Oh &
// Viswanath 2015, Thm 3.3. δ(x) is non-increasing, so x is bisected over
// the float64 values of [0, kε] until the bracket is two adjacent floats,
// and the upper end, for which δ(x) ≤ δ_total holds with δ rounded up, is
// returned. 0 when δ_total ≥ η; +Inf when δ_total is below the floor
// 1 − (1 − δ)^k that no ε reaches; NaN for δ_total < 0 or NaN.
func (c *ComposedApprox) EpsilonAt(deltaTotal float64) float64 {
	switch {
	case !c.valid() || !(deltaTotal >= 0):
		return math.NaN()
	case deltaTotal >= 1:
		return 0
	}
	lt := numeric.LogPos(deltaTotal)
	infeasible := func(x float64) bool { return !(c.LogDeltaAt(x) <= lt) }
	if !infeasible(0) {
		return 0
	}
	top := float64(c.k) * c.eps
	if infeasible(top) {
		if BasicComposes(c.k, c.delta, deltaTotal) {
			// k (ε, δ) steps are (kε, 1 − (1 − δ)^k)-DP (basic
			// composition: the privacy loss exceeds kε only on the δ
			// mass), decided exactly. LogDeltaAt's padding and its floor
			// for dropped mass (composeDropLn) certify no δ that small, so
			// the search alone finds no ε at δ = 0 for pure steps, nor at
			// the row's own δ_total = k·δ when δ is tiny. kε is an upper
			// bound, so the product is rounded up, not to nearest.
			return numeric.MulUp(float64(c.k), c.eps)
		}
		return math.Inf(1)
	}
	_, hi := numeric.BracketFloats(infeasible, 0, top)
	return hi
}

// lnT returns a bound on ln Pr[l ≥ m], an upper bound if up and a lower
// bound otherwise. A tail above ½ is taken as 1 − Pr[l < m], so that its
// error is relative to the smaller side. Masses outside the kept range
// count as 0 (they total less than e^{−780}).
func (c *ComposedApprox) lnT(m int, up bool) float64 {
	switch {
	case m > c.hi:
		return math.Inf(-1)
	case m <= c.lo:
		return 0
	}
	i := m - c.lo
	if t := c.lnTail[i]; t <= -math.Ln2 {
		return t + sign(up)*c.pad(t)
	}
	h := c.lnHead[i-1]
	return math.Min(0, numeric.Log1mExp(math.Min(0, h-sign(up)*c.pad(h)))+sign(up)*4*numeric.UnitRoundoff)
}

// lnH returns a bound on ln Pr[l ≤ m] = ln(1 − Pr[l ≥ m + 1]), as lnT.
func (c *ComposedApprox) lnH(m int, up bool) float64 {
	switch {
	case m < c.lo:
		return math.Inf(-1)
	case m >= c.hi:
		return 0
	}
	i := m - c.lo
	if h := c.lnHead[i]; h <= -math.Ln2 {
		return h + sign(up)*c.pad(h)
	}
	t := c.lnTail[i+1]
	return math.Min(0, numeric.Log1mExp(math.Min(0, t-sign(up)*c.pad(t)))+sign(up)*4*numeric.UnitRoundoff)
}

// lnCT returns a bound on ln(c·T(m)) = ln((1 − δ)^k·Pr[l ≥ m]): vertex j
// has α_j = c·T(k + 1 − j) and β_j = c·T(j).
func (c *ComposedApprox) lnCT(m int, up bool) float64 {
	lt := c.lnT(m, up)
	v := c.lnC + lt
	if math.IsInf(v, -1) {
		return v
	}
	return math.Min(0, v+sign(up)*4*numeric.UnitRoundoff*(math.Abs(c.lnC)+math.Abs(lt)))
}

// lnOneMinusAlpha returns a bound on ln(1 − α_j) = ln((1 − c) + c·Pr[l ≤ k − j]),
// a sum of positive terms.
func (c *ComposedApprox) lnOneMinusAlpha(j int, up bool) float64 {
	lh := c.lnH(c.k-j, up)
	t := c.lnC + lh
	if !math.IsInf(t, -1) {
		t += sign(up) * 4 * numeric.UnitRoundoff * (math.Abs(c.lnC) + math.Abs(lh))
	}
	v := numeric.LogSumExp(c.ln1mC+sign(up)*c.floorPad, t)
	if math.IsInf(v, -1) {
		return v
	}
	return math.Min(0, v+sign(up)*4*numeric.UnitRoundoff*(math.Abs(v)+1))
}

// gapAlpha returns a bound on α_j − x (an upper bound if up), formed as
// α_j − x for x ≤ ½ and as (1 − x) − (1 − α_j) beyond, where 1 − x is exact.
func (c *ComposedApprox) gapAlpha(j int, x float64, up bool) float64 {
	var g float64
	if x <= 0.5 {
		if up {
			g = expUp(c.lnCT(c.k+1-j, true)) - x
		} else {
			g = expDown(c.lnCT(c.k+1-j, false)) - x
		}
	} else {
		if up {
			g = (1 - x) - expDown(c.lnOneMinusAlpha(j, false))
		} else {
			g = (1 - x) - expUp(c.lnOneMinusAlpha(j, true))
		}
	}
	return g + sign(up)*2*numeric.UnitRoundoff*math.Abs(g)
}

// lnAlpha returns (a lower bound on) ln α_j, for locating α among the
// vertices.
func (c *ComposedApprox) lnAlpha(j int) float64 { return c.lnCT(c.k+1-j, false) }

// lnAdvUpper returns an upper bound on ln(1 − α_j − β_j), using
// adv_j = adv_{k+1−j}.
func (c *ComposedApprox) lnAdvUpper(j int) float64 {
	j = min(j, c.k+1-j)
	v := c.ln1mC + c.floorPad
	if top := min(j-1, c.lo+len(c.lnAdvSum)-1); top >= c.lo && !math.IsInf(c.lnC, -1) && !math.IsInf(c.lnAdvSum[top-c.lo], -1) {
		s := c.lnAdvSum[top-c.lo]
		t := c.lnC + s
		t += c.pad(s) + 4*numeric.UnitRoundoff*(math.Abs(c.lnC)+math.Abs(t))
		v = numeric.LogSumExp(v, t)
		v += 4 * numeric.UnitRoundoff * (math.Abs(v) + 1)
	}
	return v
}

// segment returns the largest vertex j with ln α_j ≤ la. α_j = 0 for every
// j ≤ k − hi, so the search starts there.
func (c *ComposedApprox) segment(la float64) int {
	lo, hi := max(0, c.k-c.hi), c.k+1
	if c.lnAlpha(hi) <= la {
		return hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if c.lnAlpha(mid) <= la {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// pad is the error bound of a stored logarithm v.
func (c *ComposedApprox) pad(v float64) float64 { return c.slack + 4*numeric.UnitRoundoff*math.Abs(v) }

// BayesRisk returns a lower bound on R_f(π) = min_α πα + (1 − π)f(α) for
// π in (0, 1). The objective is piecewise linear, with slope
// π − (1 − π)e^{(k−2j)ε} on segment j, so its minimum is at the first
// vertex j with (k − 2j)ε ≤ λ = ln(π/(1 − π)); the vertex values are sums
// of positive terms. The neighbours of that vertex are included so that
// rounding in the choice cannot pick a higher one.
func (c *ComposedApprox) BayesRisk(pi float64) float64 {
	lam := numeric.Logit(pi)
	var j int
	switch {
	case c.eps == 0 && lam >= 0:
		j = 0
	case c.eps == 0:
		j = c.k + 1
	default:
		jf := math.Ceil((float64(c.k) - lam/c.eps) / 2)
		j = int(math.Max(0, math.Min(jf, float64(c.k+1))))
	}
	lpi, l1pi := numeric.LogPos(pi), math.Log1p(-pi)
	best := math.Inf(1)
	for v := j - 1; v <= j+1; v++ {
		if v < 0 || v > c.k+1 {
			continue
		}
		r := expDown(lpi+c.lnCT(c.k+1-v, false)) + expDown(l1pi+c.lnCT(v, false))
		best = math.Min(best, r*(1-2*numeric.UnitRoundoff))
	}
	return best
}

// sign returns +1 for up and −1 otherwise.
func sign(up bool) float64 {
	if up {
		return 1
	}
	return -1
}

// expUp and expDown return e^v moved by a bound on the rounding of v and of
// exp (a few ulps), upwards and downwards.
func expUp(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return math.Exp(v)
	}
	return math.Exp(v + 2*numeric.UnitRoundoff*(math.Abs(v)+1))
}

func expDown(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return math.Exp(v)
	}
	return math.Exp(v - 2*numeric.UnitRoundoff*(math.Abs(v)+1))
}

// logAccumulator sums exponentials, Σ e^{xᵢ}, as scale + ln(sum) with the
// scale kept at the largest term, so that nothing overflows and each
// addition costs at most a few ulps of the running sum.
type logAccumulator struct{ scale, sum float64 }

func (a *logAccumulator) add(x float64) {
	switch {
	case math.IsInf(x, -1) || math.IsNaN(x):
		return
	case a.sum == 0:
		a.scale, a.sum = x, 1
	case x <= a.scale:
		a.sum += math.Exp(x - a.scale)
	default:
		a.sum = a.sum*math.Exp(a.scale-x) + 1
		a.scale = x
	}
}

// value returns ln Σ e^{xᵢ}, −Inf for an empty sum.
func (a *logAccumulator) value() float64 {
	if a.sum == 0 {
		return math.Inf(-1)
	}
	return a.scale + math.Log(a.sum)
}
