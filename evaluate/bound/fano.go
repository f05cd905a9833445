package bound

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Fano bounds on reconstruction of a discrete attribute (Guo, Sablayrolles &
// Sanjabi 2022, "Analyzing Privacy Leakage in Machine Learning via Multiple
// Hypothesis Testing: A Lesson From Fano", ICML; cited as
// Guo et al. 2023).
//
// Game (paper §3, eq. 1): a private attribute takes one of M candidate
// values u_1, …, u_M; the index X is drawn from a prior p, the mechanism
// releases Y = M(D ∪ {z_X}), and an adversary guesses X̂ from Y. The
// baseline is p* = max_m p_m (the best guess without Y) and the advantage is
//
//	Adv = (P(X̂ = X) − p*)/(1 − p*).
//
// The bounds below hold for every adversary. All logarithms are natural:
// mutual information, entropies and RDP ε are in nats (RDP's ε is defined
// with the natural log, §2; the paper never states a base).
//
// Neighbouring relation: Theorem 1 and Theorem 2 compare the outputs on any
// two hypotheses D ∪ {z_x} and D ∪ {z_x'}, so every privacy parameter fed
// in here must be for replace-one (substitution) adjacency. Add/remove
// accountants (Opacus, TF-Privacy) understate it: for the Gaussian
// mechanism and DP-SGD the substitution sensitivity is 2C, four times the
// add/remove RDP ε (§6.3 prints both αT/2σ² and, at α = 1, 2T/σ²: the
// latter is the replace-one value, Δ = 2C). The caller converts.
//
// Prior conventions (chosen here where the paper is silent): M ≥ 2. A nil or empty prior is
// uniform over M candidates and is never expanded, so M up to 1e9 and beyond
// costs O(1). A probability vector must have finite non-negative entries
// that sum to 1 within 1e-6; it is renormalised exactly, and its length is
// the nominal M (zero entries are kept as candidates, the paper's
// convention, which is looser than using the support size). A vector with
// all entries equal is treated as uniform. A delta prior (p* = 1) leaves
// nothing to guess: the success bound is 1 and the advantage 0/0 is NaN.
//
// Numerics. With the success probability written as P = (1 + (M − 1)v)/M,
// v ∈ [0, 1] (v is the advantage over the uniform baseline 1/M), Fano's
// condition becomes a Rényi divergence between Bernoulli distributions
// (Algorithms 1 and 2 of §4 and App. A.1 rewritten, derived here),
//
//	D_α(Ber(P) ‖ Ber(1/M)) ≤ c_α := μ + D_α(p ‖ U_M) = μ + ln M − H_α(p),
//
// and both divergences are evaluated as weighted sums of the non-negative
// generator ψ_α(r) = (r^α − 1 − α(r − 1))/(α(α − 1)) (ψ₁(r) = r ln r − r + 1)
// at the likelihood ratios r: the first-order terms cancel exactly, so there
// is no cancellation of ln M against H(p) or of 1 − 1/M against 1, and near
// r = 1 ψ_α is summed from its Taylor series. The largest feasible v is
// resolved to one ulp, whether v is 1e-300 or 0.5, deterministically
// (largestFeasible): secant steps on √D_α locate it, and a bracket of a
// few ulps around that is bisected on the bit patterns of float64 values,
// 6 to 8 evaluations of D_α where a bisection of all of [0, 1] took 63,
// with the same answer wherever the computed D_α is monotone. The end that violates the
// condition is returned (the conservative end, never under-reporting), c_α is
// enlarged by a relative 2⁻⁴⁴ plus the rounding error of D_α(p‖U) before the
// comparison, and the results are rounded up (rounding.go).

// FanoBound is an upper bound from Fano's inequality.
type FanoBound struct {
	// Success is the upper bound on P(X̂ = X), in [p*, 1], rounded up.
	Success float64
	// Advantage is (Success − p*)/(1 − p*), in [0, 1], rounded up; NaN
	// for a delta prior (p* = 1).
	Advantage float64
	// PStar is the baseline p* = max_m p_m.
	PStar float64
	// Order is the order α of the Arimoto information bound used (1 for
	// Algorithm 1, +Inf for pure ε-DP).
	Order float64
	// MI is the bound μ on the (Arimoto) mutual information I_α(X;Y) used.
	MI float64
	// Trivial reports μ ≥ H_α(p) (or a delta prior): Fano's inequality
	// allows certain success and Success = 1.
	Trivial bool
}

// fanoNaN is the result reported with an error.
func fanoNaN() FanoBound {
	n := math.NaN()
	return FanoBound{Success: n, Advantage: n, PStar: n, Order: n, MI: n}
}

// fanoPriorTol is how far a probability vector may sum from 1.
const fanoPriorTol = 1e-6

// fanoRelMargin enlarges c_α before the bisection compares against it. It
// covers the few-ulp rounding error of the divergences (each a sum of
// non-negative terms, at most ~20 ulps where ψ_α is evaluated in closed form
// next to the series region) and moves no bound by more than ~1e-13
// relative.
const fanoRelMargin = 0x1p-44

// fanoLogSwitch is the value of α·ln r beyond which the Rényi sums are
// formed in log space (r^α would otherwise overflow).
const fanoLogSwitch = 500

// fanoPrior is a validated prior.
type fanoPrior struct {
	m       float64   // M
	logM    float64   // ln M
	uniform bool      // p = 1/M
	p       []float64 // normalised probabilities (nil if uniform)
	pStar   float64   // max p
	s1      float64   // Σp − 1 after normalisation (compensated)
	evals   *int      // counts binaryDivergence evaluations where not nil (tests)
}

// fanoSum returns start + Σ xs with Neumaier's compensated summation.
func fanoSum(start float64, xs []float64, f func(float64) float64) float64 {
	var s numeric.Sum
	s.Add(start)
	for _, x := range xs {
		s.Add(f(x))
	}
	return s.Value()
}

func fanoIdentity(x float64) float64 { return x }

// newFanoPrior validates M and the prior (see the conventions above). A
// non-empty prior fixes M = len(prior); m must then be 0 or equal to it.
func newFanoPrior(m int, prior []float64) (fanoPrior, error) {
	if len(prior) == 0 {
		if m < 2 {
			return fanoPrior{}, fmt.Errorf("fano: M = %d, need at least 2 candidates", m)
		}
		mf := float64(m)
		return fanoPrior{m: mf, logM: math.Log(mf), uniform: true, pStar: 1 / mf}, nil
	}
	if m != 0 && m != len(prior) {
		return fanoPrior{}, fmt.Errorf("fano: M = %d but the prior has %d entries", m, len(prior))
	}
	if len(prior) < 2 {
		return fanoPrior{}, errors.New("fano: the prior needs at least 2 candidates")
	}
	equal := true
	for _, x := range prior {
		if !(x >= 0) || math.IsInf(x, 1) {
			return fanoPrior{}, fmt.Errorf("fano: prior entry %v is not a finite probability", x)
		}
		equal = equal && x == prior[0]
	}
	sum := fanoSum(0, prior, fanoIdentity)
	if !(math.Abs(sum-1) <= fanoPriorTol) {
		return fanoPrior{}, fmt.Errorf("fano: prior sums to %v, not 1", sum)
	}
	mf := float64(len(prior))
	if equal {
		return fanoPrior{m: mf, logM: math.Log(mf), uniform: true, pStar: 1 / mf}, nil
	}
	p := make([]float64, len(prior))
	pStar := 0.0
	for i, x := range prior {
		p[i] = x / sum
		pStar = math.Max(pStar, p[i])
	}
	return fanoPrior{
		m: mf, logM: math.Log(mf), p: p, pStar: pStar,
		s1: fanoSum(-1, p, fanoIdentity),
	}, nil
}

// fanoPsi returns ψ_α(r) = (r^α − 1 − α(r − 1))/(α(α − 1)) ≥ 0 for α > 1
// and ψ₁(r) = r ln r − r + 1, given r ≥ 0 and x = r − 1 (both passed so
// that neither loses precision). Near r = 1 (|x|·max(α, 2) ≤ ½) it sums
// the Taylor series Σ_{n≥2} c_n xⁿ, c₂ = ½, c_{n+1} = c_n(α − n)/(n + 1),
// whose terms shrink by at least ½ per step; elsewhere the closed form
// (r·expm1((α−1)ln r)/(α−1) − x)/α, which cancels at most one digit there.
func fanoPsi(alpha, r, x float64) float64 {
	if r == 0 {
		return 1 / alpha
	}
	if math.Abs(x)*math.Max(alpha, 2) <= 0.5 {
		term := 0.5 * x * x
		sum := term
		for n := 2; n < 120 && term != 0; n++ {
			term *= (alpha - float64(n)) * x / float64(n+1)
			sum += term
			if math.Abs(term) <= 1e-18*sum {
				break
			}
		}
		return sum
	}
	var l float64
	if math.Abs(x) < 0.5 {
		l = math.Log1p(x)
	} else {
		l = numeric.LogPos(r)
	}
	e := l
	if alpha != 1 {
		am1 := alpha - 1
		e = math.Expm1(am1*l) / am1
	}
	return math.Max((r*e-x)/alpha, 0)
}

// gap returns D_α(p ‖ U_M) = ln M − H_α(p) ≥ 0, the Rényi divergence of the
// prior from the uniform distribution (H_α is eq. 14 of the paper,
// H_∞ = −ln p*), and a bound on its absolute rounding error. With
// r_i = M·p_i and s = Σp − 1 (the rounding of the normalised floats,
// |s| ≲ 1e-16): D₁ = ((1/M)Σψ₁(r_i) + s)/(1 + s) − ln(1 + s) and, for α > 1,
// D_α = (ln(1 + α(α − 1)(1/M)Σψ_α(r_i) + αs) − α·ln(1 + s))/(α − 1), or the
// log-sum-exp of α ln r_i when r^α would overflow: the divergence of p/Σp,
// a probability vector. (Without the terms in ln(1 + s), the divergence
// of the floats p as they are, the first-order terms α·s/(α − 1) did not
// cancel: an error up to 1e-16/(α − 1), 1e-11 at α = 1 + 10⁻⁵.)
func (pr fanoPrior) gap(alpha float64) (g, errAbs float64) {
	switch {
	case pr.uniform:
		return 0, 0
	case math.IsInf(alpha, 1):
		g = math.Max(numeric.LogPos(pr.m*pr.pStar)-math.Log1p(pr.s1), 0)
		return g, 4 * numeric.MachineEpsilon * (g + 1)
	}
	if lmax := numeric.LogPos(pr.m * pr.pStar); alpha*lmax > fanoLogSwitch {
		top := alpha * lmax
		s := fanoSum(0, pr.p, func(x float64) float64 {
			if x == 0 {
				return 0
			}
			return math.Exp(alpha*numeric.LogPos(pr.m*x) - top)
		})
		g = (top + math.Log(s) - pr.logM - alpha*math.Log1p(pr.s1)) / (alpha - 1)
		return math.Max(g, 0), 64 * numeric.MachineEpsilon * (math.Abs(top) + pr.logM + 1) / (alpha - 1)
	}
	psi := fanoSum(0, pr.p, func(x float64) float64 {
		return fanoPsi(alpha, pr.m*x, math.FMA(pr.m, x, -1))
	}) / pr.m
	if alpha == 1 {
		g = psi/(1+pr.s1) + (pr.s1/(1+pr.s1) - math.Log1p(pr.s1))
	} else {
		g = (math.Log1p(alpha*(alpha-1)*psi+alpha*pr.s1) - alpha*math.Log1p(pr.s1)) / (alpha - 1)
	}
	return math.Max(g, 0), 16 * numeric.MachineEpsilon * (math.Abs(g) + alpha*(math.Abs(pr.s1)+numeric.MachineEpsilon))
}

// binaryDivergence returns D_α(Ber(P) ‖ Ber(1/M)) at P = (1 + (M − 1)v)/M,
// v ∈ [0, 1], the left side of the generalised Fano inequality (paper eq.
// 17 with t = 1 − P; d(1−a‖1−b) = d(a‖b)). The likelihood ratios are
// r₁ = 1 + (M − 1)v (weight 1/M) and r₂ = 1 − v (weight (M − 1)/M), so
// D₁ = (ψ₁(r₁) + (M − 1)ψ₁(r₂))/M and D_α = ln(1 + α(α−1)·that)/(α − 1);
// D_∞ = ln r₁.
func (pr fanoPrior) binaryDivergence(alpha, v float64) float64 {
	if pr.evals != nil {
		*pr.evals++
	}
	m := pr.m
	u := (m - 1) * v
	l1 := math.Log1p(u)
	if math.IsInf(alpha, 1) {
		return l1
	}
	if alpha*l1 > fanoLogSwitch {
		a := alpha*l1 - pr.logM
		b := math.Log1p(-1/m) + alpha*math.Log1p(-v)
		return numeric.LogSumExp(a, b) / (alpha - 1)
	}
	psi := (fanoPsi(alpha, 1+u, u) + (m-1)*fanoPsi(alpha, 1-v, -v)) / m
	if alpha == 1 {
		return psi
	}
	return math.Log1p(alpha*(alpha-1)*psi) / (alpha - 1)
}

// solve runs Algorithm 1 (α = 1) or Algorithm 2 (α > 1) for a validated
// prior and a valid μ ≥ 0 (see FanoAlgorithm2).
func (pr fanoPrior) solve(alpha, mi float64) FanoBound {
	b, _ := pr.solveFrom(alpha, mi, 0)
	return b
}

// solveFrom is solve, given an estimate hint ∈ (0, 1) of the answer v (the
// v of a nearby order, which a search over orders has; anything else for
// none), and returning v.
func (pr fanoPrior) solveFrom(alpha, mi, hint float64) (b FanoBound, v float64) {
	return pr.solveBy(alpha, mi, func(d func(float64) float64, c float64) float64 {
		if hint > 0 && hint < 1 {
			return largestFeasible(d, c, hint)
		}
		near0, large := pr.feasibleGuesses(alpha, c)
		return largestFeasible(d, c, near0, large)
	})
}

// solveNear is solve given v, the answer to a few ulps (largestFeasibleNear).
func (pr fanoPrior) solveNear(alpha, mi, v float64) FanoBound {
	b, _ := pr.solveBy(alpha, mi, func(d func(float64) float64, c float64) float64 {
		return largestFeasibleNear(d, c, v)
	})
	return b
}

// solveBy is solve with the largest feasible v found by find(d, c).
func (pr fanoPrior) solveBy(alpha, mi float64, find func(d func(float64) float64, c float64) float64) (b FanoBound, v float64) {
	b = FanoBound{PStar: pr.pStar, Order: alpha, MI: mi}
	if pr.pStar >= 1 {
		b.Success, b.Advantage, b.Trivial = 1, math.NaN(), true
		return b, 1
	}
	g, gErr := pr.gap(alpha)
	c := mi + g
	if c >= pr.logM { // μ ≥ H_α(p): lines 3–4 of Algorithms 1 and 2
		b.Success, b.Advantage, b.Trivial = 1, 1, true
		return b, 1
	}
	cUsed := c*(1+fanoRelMargin) + gErr
	if cUsed > 0 {
		v = find(func(v float64) float64 { return pr.binaryDivergence(alpha, v) }, cUsed)
	}
	m := pr.m
	b.Success = numeric.RoundUp((1+(m-1)*v)/m, pr.pStar, 1)
	if pr.uniform {
		b.Advantage = numeric.RoundUp(v, 0, 1)
	} else {
		// (P − p*)/(1 − p*) = ((M − 1)v − (M p* − 1))/(M(1 − p*)), with an
		// allowance for the rounding of the two terms of the difference.
		uv, mp := (m-1)*v, math.FMA(m, pr.pStar, -1)
		adv := (uv - mp + 4*numeric.MachineEpsilon*(uv+math.Abs(mp))) / (m * (1 - pr.pStar))
		b.Advantage = numeric.RoundUp(adv, 0, 1)
	}
	b.Trivial = v >= 1
	return b, v
}

// FanoAlgorithm1 returns the bound of Algorithm 1 of Guo, Sablayrolles &
// Sanjabi (2022) (classical Fano inequality eq. 3, relaxed with
// I(X;Y) ≤ μ, eqs. 4–7): the largest success probability P with
//
//	H(p) − μ ≤ h(1 − P) + (1 − P)·ln(M − 1),
//
// equivalently (eq. 6 rewritten, derived here) the largest P ∈ [1/M, 1] with
// KL(Ber(P) ‖ Ber(1/M)) ≤ ln M − H(p) + μ, and the advantage
// (P − p*)/(1 − p*). It is 1 when μ ≥ H(p); for a uniform prior it is 0 at
// μ = 0 and ≈ √(2μ/(M − 1)) for μ ≪ 1/M (a Taylor expansion of eq. 6 at
// t = 1 − 1/M); a non-uniform prior
// leaves Fano slack, a positive advantage at μ = 0 (0.01502 for the §6.2 IWPC prior).
//
// μ is an upper bound, in nats, on the Shannon mutual information between
// the candidate index and the release: exact (FanoMIRandomizedResponse), the
// Gaussian bound of Theorem 2 (FanoMIGaussian), or ε at order 1 of an RDP
// curve under replace-one adjacency (Theorem 1, FanoMIFromRDP); an
// (ε, δ)-DP ε is not one. The prior convention is described above
// (nil = uniform over m). Invalid M or prior, or μ NaN or negative, give an
// error and NaN fields; μ = +Inf gives the trivial bound 1.
func FanoAlgorithm1(mi float64, m int, prior []float64) (FanoBound, error) {
	return FanoAlgorithm2(1, mi, m, prior)
}

// FanoAlgorithm2 returns the bound of Algorithm 2 of Guo, Sablayrolles &
// Sanjabi (2022) (App. A.1): the generalised Arimoto–Rényi Fano inequality
// of eq. 17 (Sason & Verdú 2018), relaxed with I_α(X;Y) ≤ μ,
//
//	H_α(p) − μ ≤ ln M − D_α(Ber(1 − P) ‖ Ber(1 − 1/M)),
//
// solved for the largest success probability P (equivalently the largest
// P ∈ [1/M, 1] with D_α(Ber(P) ‖ Ber(1/M)) ≤ ln M − H_α(p) + μ), with the
// advantage (P − p*)/(1 − p*). H_α is the Rényi entropy of the prior (eq.
// 14) and I_α the Arimoto information (eq. 16). α = 1 is Algorithm 1; α → 1
// is continuous. α = +Inf is pure ε-DP, with the closed form
// P = min(1, p*·e^μ) (the α → ∞ limit of eq. 17, derived here; for M = 2
// it is Yeom et al.'s e^ε − 1 quoted in §2).
//
// μ bounds I_α in nats; by Theorem 1, if the mechanism is (α, ε)-RDP for
// replace-one neighbours (between the outputs on any two candidates), then
// μ = ε. α must be ≥ 1 (Theorem 1 does not cover α < 1). Errors (with NaN
// fields): α NaN or below 1, μ NaN or negative, invalid M or prior.
func FanoAlgorithm2(alpha, mi float64, m int, prior []float64) (FanoBound, error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return fanoNaN(), err
	}
	if !(alpha >= 1) {
		return fanoNaN(), fmt.Errorf("fano: order %v is below 1", alpha)
	}
	if !(mi >= 0) {
		return fanoNaN(), fmt.Errorf("fano: mutual-information bound %v is not ≥ 0", mi)
	}
	return pr.solve(alpha, mi), nil
}

// FanoRDP returns two Fano bounds for a mechanism with the Rényi-DP curve
// curve, valid under replace-one adjacency between any two candidates
// (Theorem 1 of Guo, Sablayrolles & Sanjabi 2022):
//
//   - alpha1: Algorithm 1 with μ = FanoMIFromRDP(curve), the smallest ε of
//     the curve (ε at order 1 when the curve has it; a larger order is a
//     valid, looser substitute since D₁ ≤ D_α, paper §5.1);
//   - best: min over the orders α_i of the curve (and over alpha1) of
//     Algorithm 2 with μ = ε_i (every term is a valid bound, so
//     the minimum is one; the paper's §6.3 "close to 0.5 at ε = 6" matches
//     only this optimised bound). Order +Inf (pure ε-DP) is used; pairs with
//     ε = +Inf are skipped. The minimum is over the given orders only;
//     FanoOrders with the curve's step function also searches every order
//     below them, which is tighter for non-uniform priors.
//
// Errors (NaN fields): curve.Validate() fails, or M or the prior is invalid.
func FanoRDP(curve curve.RDP, m int, prior []float64) (alpha1, best FanoBound, err error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return fanoNaN(), fanoNaN(), err
	}
	mi, err := FanoMIFromRDP(curve)
	if err != nil {
		return fanoNaN(), fanoNaN(), err
	}
	alpha1 = pr.solve(1, mi)
	best = alpha1
	for i, a := range curve.Orders {
		e := curve.Epsilons[i]
		if math.IsInf(e, 1) {
			continue
		}
		if r := pr.solve(a, e); r.Success < best.Success {
			best = r
		}
	}
	return alpha1, best, nil
}

// FanoZCDP returns the Fano bounds for a ρ-zCDP mechanism, whose RDP curve
// is ε(α) = ρα for every α ≥ 1 (Bun & Steinke 2016; the Gaussian mechanism
// with sensitivity Δ and noise σ has ρ = Δ²/(2σ²) = μ²/2, paper App. B
// citing Mironov 2017; full-batch DP-SGD over T steps has ρ = T·Δ²/(2σ²C²)
// with Δ = 2C for replace-one, paper §3/§6.3). Adjacency: replace-one, as
// in Theorem 1.
//
//   - alpha1: Algorithm 1 with μ = ρ (Theorem 1 at α = 1);
//   - best: min over α ≥ 1 of Algorithm 2 with μ = ρα (App. A.1 gives
//     Algorithm 2 for one α; the minimum over α is ours), the order and
//     the bound solved for together (fano_zcdp.go): Newton's method on the
//     two equations of a stationary order, from their large-order
//     asymptote α ≈ √(H_∞(p)/ρ), then Algorithm 2 solved exactly at the
//     order found (any order gives a valid bound); α = 1 where the bound
//     rises from there. Adv(α) was unimodal in every case tried (on a grid
//     of sixteen orders a decade), which a stationary order relies on;
//     where Newton's method does not converge, the grid
//     α ∈ {1} ∪ {1 + 10^j : j = −5…4} refined by Brent's method
//     (fanoZCDPGrid) is searched instead. best.Order is the minimiser.
//
// Errors (NaN fields): ρ NaN or negative, invalid M or prior. ρ = +Inf
// gives the trivial bound.
func FanoZCDP(z curve.ZCDP, m int, prior []float64) (alpha1, best FanoBound, err error) {
	pr, rho, err := newZCDPFano(z, m, prior)
	if err != nil {
		return fanoNaN(), fanoNaN(), err
	}
	alpha1, best = pr.zcdp(rho)
	return alpha1, best, nil
}

// newZCDPFano checks the arguments FanoZCDP and FanoZCDPMI share: the
// prior over M candidates and ρ ≥ 0.
func newZCDPFano(z curve.ZCDP, m int, prior []float64) (fanoPrior, float64, error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return fanoPrior{}, 0, err
	}
	if !(z.Rho >= 0) {
		return fanoPrior{}, 0, fmt.Errorf("fano: zCDP ρ = %v is not ≥ 0", z.Rho)
	}
	return pr, z.Rho, nil
}

// zcdp returns FanoZCDP's bounds for ρ ≥ 0.
func (pr fanoPrior) zcdp(rho float64) (alpha1, best FanoBound) {
	alpha1, v1 := pr.solveFrom(1, rho, 0)
	// ε(α) = ρα ≥ ρ ≥ H(p) ≥ H_α(p) keeps every order trivial; ρ = 0 gives
	// the same value at every order.
	if alpha1.Trivial || rho == 0 {
		return alpha1, alpha1
	}
	return alpha1, pr.zcdpOrders(rho, alpha1, v1)
}

// zcdpOrders returns the best of start and Algorithm 2's bounds with
// μ = ρα over α > 1, given v1 ≈ the bound v at α = 1 with μ = ρ: the
// order solved for (zcdpTangent), or searched for where that fails.
func (pr fanoPrior) zcdpOrders(rho float64, start FanoBound, v1 float64) FanoBound {
	b, ok, interior := pr.zcdpTangent(rho, v1)
	if !ok {
		return pr.zcdpSearch(rho, start)
	}
	if interior && b.Success < start.Success {
		return b
	}
	return start
}

// FanoZCDPMI is FanoZCDP for a ρ-zCDP mechanism whose mutual information
// I(X;Y) has a bound mi of its own, tighter than Theorem 1's ρ: Theorem 2
// of Guo, Sablayrolles & Sanjabi (2022) for the Gaussian mechanism
// (FanoMIGaussian, ≤ μ²/2 = ρ), or FanoMIKLMixture. alpha1 is Algorithm 1
// with μ = min(mi, ρ), and best the smaller of alpha1 and FanoZCDP's
// order-optimised bound, which it computes without solving Algorithm 1 at
// μ = ρ to the ulp (the order search needs only an estimate of its v).
// Errors (NaN fields): ρ or mi NaN or negative, invalid M or prior.
func FanoZCDPMI(z curve.ZCDP, mi float64, m int, prior []float64) (alpha1, best FanoBound, err error) {
	pr, rho, err := newZCDPFano(z, m, prior)
	if err != nil {
		return fanoNaN(), fanoNaN(), err
	}
	if !(mi >= 0) {
		return fanoNaN(), fanoNaN(), fmt.Errorf("fano: mutual-information bound %v is not ≥ 0", mi)
	}
	alpha1, best = pr.zcdpMI(rho, mi)
	return alpha1, best, nil
}

// zcdpMI returns FanoZCDPMI's bounds for ρ, mi ≥ 0.
func (pr fanoPrior) zcdpMI(rho, mi float64) (alpha1, best FanoBound) {
	if mi >= rho {
		return pr.zcdp(rho)
	}
	alpha1, v := pr.solveFrom(1, mi, 0)
	g1, _ := pr.gap(1)
	if alpha1.Trivial || rho+g1 >= pr.logM { // every order trivial for μ = ρα
		return alpha1, alpha1
	}
	// The order search needs the bound v₁ at α = 1 with μ = ρ only where
	// the slope test at the smaller v of μ = mi does not already put the
	// optimum inside α > 1 (where it is wrong, Newton's method finds no
	// stationary order and the orders are searched instead).
	if rho+pr.newGapTilt().slopeAtOne()-pr.binarySlopeAtOne(v) >= 0 {
		v = pr.klEstimate(rho+g1, v)
	}
	return alpha1, pr.zcdpOrders(rho, alpha1, v)
}

// klEstimate returns an estimate, to about 1e-10 relative, of the v
// where KL(Ber(P) ‖ Ber(1/M)) = c, by Newton's method from v0 ∈ (0, 1]
// with the derivative (M − 1)/M·ln(r₁/r₂), r₁ = 1 + (M − 1)v, r₂ = 1 − v.
// The divergence is convex in v, so from v0 below the answer the first
// step lands above it and the rest descend to it.
func (pr fanoPrior) klEstimate(c, v0 float64) float64 {
	v := math.Min(math.Max(v0, 1e-300), 1)
	m := pr.m
	for i := 0; i < 8; i++ {
		slope := (m - 1) / m * (math.Log1p((m-1)*v) - math.Log1p(-v))
		dv := (pr.binaryDivergence(1, v) - c) / slope
		next := v - dv
		if !(next > 0) {
			next = v / 2
		} else if next >= 1 {
			next = (v + 1) / 2
		}
		if math.Abs(next-v) <= 1e-10*v {
			return next
		}
		v = next
	}
	return v
}

// zcdpSearch returns the best of start and Algorithm 2's bounds with
// μ = ρα over the orders of fanoZCDPGrid, refined by Brent's method: what
// FanoZCDP did before it solved for the order (zcdpTangent), kept where
// that does not converge.
func (pr fanoPrior) zcdpSearch(rho float64, start FanoBound) FanoBound {
	return pr.searchOrders(pr.zcdpAt(rho), start, fanoZCDPGrid())
}

// zcdpAt returns Algorithm 2's bound at α = 1 + 10^t with μ = ε(α) = ρα
// (rounded up). Each call starts the solution of the Fano inequality from
// that of the call before, a close estimate once the search refines.
func (pr fanoPrior) zcdpAt(rho float64) func(t float64) FanoBound {
	hint := 0.0
	return func(t float64) FanoBound {
		a := 1 + math.Pow(10, t)
		e := rho * a
		if e > 0 {
			e = math.Nextafter(e, math.Inf(1))
		}
		b, v := pr.solveFrom(a, e, hint)
		hint = v
		return b
	}
}

// FanoMIFromRDP returns an upper bound μ on the Shannon mutual information
// I(X;Y) from an RDP curve: the smallest ε_i over its orders α_i ≥ 1. By
// Theorem 1 of Guo, Sablayrolles & Sanjabi (2022) (proof App. B: I(X;Y) =
// Σ_x P(x)·KL(Y|x ‖ Y) ≤ max_{x,x'} KL(Y|x ‖ Y|x') by convexity), and since
// KL = D₁ ≤ D_α ≤ ε_α for every α (monotonicity of Rényi divergence, §5.1),
// each ε_i bounds I(X;Y) for every prior. The curve must hold for
// replace-one neighbours (any two candidates); for an add/remove curve of a
// Gaussian-type mechanism scale ε by 4 first (Δ = 2C, not C; §6.3). Errors:
// curve.Validate() fails. Pairs with ε = +Inf give +Inf (no bound).
func FanoMIFromRDP(curve curve.RDP) (float64, error) {
	if err := curve.Validate(); err != nil {
		return math.NaN(), err
	}
	mi := math.Inf(1)
	for _, e := range curve.Epsilons {
		mi = math.Min(mi, e)
	}
	return mi, nil
}

// FanoMIGaussian returns Theorem 2 (eq. 19) of Guo, Sablayrolles & Sanjabi
// (2022), the closed-form bound on the mutual information of the Gaussian
// mechanism Y = e_X + N(0, σ²I) with Δ = max_{m,l} ‖e_m − e_l‖₂:
//
//	I(X;Y) ≤ −Σ_m p_m · ln(p_m + (1 − p_m)·e^{−Δ²/(2σ²)}),
//
// with mu = Δ/σ (the Gaussian-DP μ; pass 1/(σ/Δ) for a noise-to-sensitivity
// ratio), so Δ²/(2σ²) = mu²/2. Δ is the largest distance between the
// encodings of any two candidates (replace-one; for DP-SGD with clipping C
// it is 2C, not C). The bound is ≤ min(mu²/2, H(p)).
// Uniform prior: −ln(1/M + (1 − 1/M)e^{−mu²/2}). Rounded up. Errors: mu NaN
// or negative, invalid M or prior; mu = +Inf (σ = 0) gives H(p).
func FanoMIGaussian(mu float64, m int, prior []float64) (float64, error) {
	if !(mu >= 0) {
		return math.NaN(), fmt.Errorf("fano: Gaussian μ = Δ/σ = %v is not ≥ 0", mu)
	}
	return FanoMIKLMixture(0.5*mu*mu, m, prior)
}

// FanoMIKLMixture returns −Σ_m p_m ln(p_m + (1 − p_m)e^{−ε₁}), an upper
// bound on I(X;Y) for any mechanism whose outputs on any two candidates
// have KL divergence ≤ ε₁ (i.e. (1, ε₁)-RDP under replace-one adjacency).
// This extends Theorem 2 (App. B, eq. 19) by the same argument; it is
// derived here, not in the paper: I = Σ_m p_m KL(P_m ‖ Σ_l p_l P_l) and
// KL(P ‖ Σ_j c_j Q_j) ≤ −ln Σ_j c_j e^{−KL(P‖Q_j)} by Jensen's inequality
// on the concave −log-sum-exp; with ε₁ = Δ²/(2σ²) it is eq. 19. It is never
// above min(ε₁, H(p)), so it improves on Theorem 1 at α = 1. Each term is
// computed as −log1p((1 − p_m)·expm1(−ε₁)) for ε₁ < ln 2 (no cancellation
// for tiny ε₁) and −ln(p_m + (1 − p_m)e^{−ε₁}) beyond. Rounded up.
// Errors: ε₁ NaN or negative, invalid M or prior; ε₁ = +Inf gives H(p).
func FanoMIKLMixture(eps1 float64, m int, prior []float64) (float64, error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return math.NaN(), err
	}
	if !(eps1 >= 0) {
		return math.NaN(), fmt.Errorf("fano: KL bound %v is not ≥ 0", eps1)
	}
	term := func(p float64) float64 {
		if p == 0 {
			return 0
		}
		if eps1 < math.Ln2 {
			return -p * math.Log1p((1-p)*math.Expm1(-eps1))
		}
		return -p * numeric.LogPos(p+(1-p)*math.Exp(-eps1))
	}
	var mi float64
	if pr.uniform {
		// p = 1/M, 1 − p = (M − 1)/M, summed M times.
		if eps1 < math.Ln2 {
			mi = -math.Log1p((pr.m - 1) / pr.m * math.Expm1(-eps1))
		} else {
			mi = -numeric.LogPos((1 + (pr.m-1)*math.Exp(-eps1)) / pr.m)
		}
	} else {
		mi = fanoSum(0, pr.p, term)
	}
	return numeric.RoundUp(mi, 0, math.Inf(1)), nil
}

// FanoMIRandomizedResponse returns the exact mutual information (paper eq.
// 9) between a value X with prior p over k = rr.Categories values and its
// k-ary randomized response Y, which reports X with probability
// a = e^ε/(e^ε + k − 1) and each other value with probability
// b = 1/(e^ε + k − 1) (this is the paper's eq. 8 with resampling
// probability q = k/(e^ε + k − 1), see RandomizedResponseFromQ). With
// P_Y(y) = b + (a − b)p_y,
//
//	I = Σ_x p_x KL(Y|x ‖ Y) = Σ_x p_x P_Y(x) ψ₁(a/P_Y(x)) + Σ_y (1 − p_y) P_Y(y) ψ₁(b/P_Y(y)),
//
// ψ₁(r) = r ln r − r + 1 ≥ 0, an O(k) regrouping of the double sum in which
// every term is non-negative (no cancellation for tiny I) and
// r − 1 = (a − b)(1 − p_x)/P_Y(x) or −(a − b)p_y/P_Y(y) is formed without
// subtraction. A nil prior is uniform over k and costs O(1):
// I = (ψ₁(ka) + (k − 1)ψ₁(kb))/k. With a uniform prior Fano is tight: Algorithm
// 1 at this I returns exactly the MAP advantage 1 − q (paper App. A.2).
// Neighbours: no adjacency is involved (exact MI, any prior). Rounded up.
// Errors: k < 2, ε NaN or negative, invalid prior (length must be k);
// ε = +Inf gives H(p).
func FanoMIRandomizedResponse(rr curve.RandomizedResponse, prior []float64) (float64, error) {
	k := rr.Categories
	pr, err := newFanoPrior(k, prior)
	if err != nil {
		return math.NaN(), err
	}
	if !(rr.Epsilon >= 0) {
		return math.NaN(), fmt.Errorf("fano: randomized-response ε = %v is not ≥ 0", rr.Epsilon)
	}
	kf := pr.m
	w := math.Exp(-rr.Epsilon) // e^{−ε}
	den := 1 + (kf-1)*w        // (e^ε + k − 1)e^{−ε}
	a, b := 1/den, w/den
	ab := -math.Expm1(-rr.Epsilon) / den // a − b
	var mi float64
	if pr.uniform {
		// P_Y = 1/k: ka − 1 = (k − 1)(a − b), kb − 1 = −(a − b).
		ua := (kf - 1) * ab
		mi = (fanoPsi(1, 1+ua, ua) + (kf-1)*fanoPsi(1, kf*b, -ab)) / kf
	} else {
		next := func(p float64) float64 {
			py := b + ab*p
			if py == 0 {
				return 0
			}
			xa := ab * (1 - p) / py
			xb := -ab * p / py
			return p*py*fanoPsi(1, a/py, xa) + (1-p)*py*fanoPsi(1, b/py, xb)
		}
		mi = fanoSum(0, pr.p, next)
	}
	return numeric.RoundUp(mi, 0, math.Inf(1)), nil
}

// RandomizedResponseFromQ returns the k-ary randomized response of the
// paper's eq. 8 (Y = X with probability 1 − q, else uniform over the k
// values) in the ε parameterisation of RandomizedResponse:
// e^ε = a/b = 1 + k(1 − q)/q, so ε = log1p(k(1 − q)/q) (derived from eq. 8;
// the paper plots this ε in Fig. 3a without a formula). q = 0
// gives ε = +Inf, q = 1 gives 0; q outside [0, 1] or NaN gives ε = NaN.
func RandomizedResponseFromQ(q float64, k int) curve.RandomizedResponse {
	if !(q >= 0 && q <= 1) {
		return curve.RandomizedResponse{Epsilon: math.NaN(), Categories: k}
	}
	return curve.RandomizedResponse{Epsilon: math.Log1p(float64(k) * (1 - q) / q), Categories: k}
}

// FanoEpsilonMax returns the largest μ (in nats) for which Algorithm 2 at
// order α (Algorithm 1 for α = 1) still bounds the advantage by target
// (the inverse of Algorithm 2 in closed form, derived here):
//
//	μ_max = D_α(Ber(P) ‖ Ber(1/M)) − (ln M − H_α(p)),   P = p* + target·(1 − p*).
//
// With μ = ε(α) of a replace-one RDP curve (Theorem 1) it calibrates ε. A
// negative value means the target is below the Fano slack of a non-uniform
// prior and cannot be certified (e.g. target 0.01 under the §6.2 IWPC
// prior). Rounded down. Errors
// (NaN): target outside [0, 1] or NaN, α NaN or below 1, invalid M or
// prior, delta prior. target = 1 gives H_α(p).
func FanoEpsilonMax(target, alpha float64, m int, prior []float64) (float64, error) {
	pr, err := newFanoPrior(m, prior)
	if err != nil {
		return math.NaN(), err
	}
	switch {
	case !(target >= 0 && target <= 1):
		return math.NaN(), fmt.Errorf("fano: target advantage %v is not in [0, 1]", target)
	case !(alpha >= 1):
		return math.NaN(), fmt.Errorf("fano: order %v is below 1", alpha)
	case pr.pStar >= 1:
		return math.NaN(), errors.New("fano: delta prior, the advantage is undefined")
	}
	var v float64
	if pr.uniform {
		v = target
	} else {
		// v = (M P − 1)/(M − 1) with P = p* + target(1 − p*).
		v = (math.FMA(pr.m, pr.pStar, -1) + pr.m*target*(1-pr.pStar)) / (pr.m - 1)
		v = math.Min(math.Max(v, 0), 1)
	}
	g, _ := pr.gap(alpha)
	return numeric.RoundDown(pr.binaryDivergence(alpha, v)-g, math.Inf(-1), math.Inf(1)), nil
}
