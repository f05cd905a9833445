package bound

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/poibin"
)

// Single-target bounds of Swanberg, Annamalai, Hayes, Balle & Smith,
// "Beyond the Worst Case: Extending Differential Privacy Guarantees to
// Realistic Adversaries" (2025). They assume an (ε, δ)-DP mechanism under
// replace-one neighbours and an attacker whose a-priori success on the
// target is p (the baseline).

// OneRunPosterior returns β = e^ε/(e^ε − 1 + 1/p), the bound of Swanberg et
// al. Thm 3.2 on the attacker's success probability for one target after
// seeing the output of an ε-DP mechanism. It is computed through the exact
// identity logit β = logit p + ε, which neither overflows for ε up to 700
// nor loses the relative precision of tiny p. p = 0 gives 0 and p = 1 gives
// 1 for every ε.
func OneRunPosterior(eps, p float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	case eps == 0:
		return p
	}
	return numeric.Logistic(numeric.Logit(p) + eps)
}

// OneRunAdvantage returns the generalized advantage (Cherubin 2017) of
// Swanberg et al. Thm 3.5 with one target, an (ε, δ)-DP mechanism and a
// baseline p < 1:
//
//	(min(1, β + (1 − β)·δ) − p)/(1 − p)
//
// With w = ln p + ln(e^ε − 1) it equals σ(w)·(1 − δ) + δ exactly, because
// (β − p)/(1 − p) = σ(w) and (1 − β)/(1 − p) = σ(−w); that form has no
// cancellation at small ε and no overflow at large ε. At δ = 0 it reduces to
// (β − p)/(1 − p). The result is exact (not rounded up).
func OneRunAdvantage(eps, delta, p float64) float64 {
	if p <= 0 || eps <= 0 {
		return delta
	}
	return numeric.Logistic(numeric.LogPos(p)+numeric.LogExpm1(eps))*(1-delta) + delta
}

// OneRunEpsilonProtect returns the largest ε ≥ 0 whose OneRunAdvantage(ε, δ, p)
// stays at or below the target advantage A. Inverting σ(w)(1 − δ) + δ ≤ A:
//
//	s = (A − δ)/(1 − δ),   ε = ln(1 + e^{logit s − ln p})
//
// which is Swanberg et al. §5.3's ε_protect with the Thm 3.5 posterior. The
// second result is false when no ε ≥ 0 meets the target (A < δ); the first
// is +Inf when every ε does (A ≥ 1, or p = 0).
func OneRunEpsilonProtect(target, delta, p float64) (float64, bool) {
	if target < delta {
		return 0, false
	}
	s := (target - delta) / (1 - delta)
	if s >= 1 || p <= 0 {
		return math.Inf(1), true
	}
	if s <= 0 {
		return 0, true
	}
	return numeric.Softplus(numeric.Logit(s) - numeric.LogPos(p)), true
}

// Multi-target one-run bounds of Swanberg, Annamalai, Hayes, Balle & Smith,
// "Beyond the Worst Case: Extending Differential Privacy Guarantees to
// Realistic Adversaries" (2025), §3. n targets have independent priors
// (product distribution D_1⊗…⊗D_n), and p_i is the probability that the
// attacker's guess for target i is right before seeing the release. The
// number L of targets the attacker gets right after seeing the output of an
// (ε, δ)-DP mechanism (replace-one neighbours) is bounded through the
// Poisson-binomial S = Σ_i Bernoulli(β_i) with
//
//	β_i = e^ε/(e^ε − 1 + 1/p_i),  i.e.  logit β_i = logit p_i + ε  (Thm 3.2).
//
// Formulas and conventions follow Swanberg et al. 2025
// (Thm 3.2, Cor 3.4, Thm 3.5 and their proofs in App. B).

// OneRunBound names the bound on Pr[L ≥ v] used for the success upper bound.
type OneRunBound int

const (
	// OneRunPure is Thm 3.2: Pr[L ≥ v] ≤ Pr[S ≥ v], for ε-DP (δ = 0) only.
	OneRunPure OneRunBound = iota
	// OneRunCor34 is Cor 3.4: Pr[L ≥ v] ≤ Pr[S ≥ v] + n·δ, capped at 1.
	OneRunCor34
	// OneRunThm35 is Thm 3.5: Pr[L ≥ v] ≤ Pr[S ≥ v] + α_LP(v)·n·δ, capped
	// at 1, for priors at the a-priori Bayes-optimal guesses.
	OneRunThm35
)

// String returns the bound's name in the paper.
func (b OneRunBound) String() string {
	names := [...]string{"Thm 3.2", "Cor 3.4", "Thm 3.5"} // in the order of the constants
	if b >= 0 && int(b) < len(names) {
		return names[b]
	}
	return fmt.Sprintf("OneRunBound(%d)", int(b))
}

// OneRunFlip returns the flipping probability of Swanberg et al. Thm 3.2,
// β = e^ε/(e^ε − 1 + 1/p), together with 1 − β, both through the exact
// identity logit β = logit p + ε: β = σ(z) and 1 − β = σ(−z) with
// z = ln p − ln(1 − p) + ε, so neither overflows for any ε and 1 − β keeps
// its relative precision when β is close to 1 (Swanberg et al. 2025). Special
// cases: p ≤ 0 gives (0, 1) for every ε, including +Inf; p ≥ 1 gives
// (1, 0); ε = 0 gives (p, 1 − p); ε = +Inf with p > 0 gives (1, 0).
// Assumes ε ≥ 0 and p ∈ [0, 1] (validated by the callers in this file).
func OneRunFlip(eps, p float64) (beta, oneMinusBeta float64) {
	switch {
	case p <= 0:
		return 0, 1
	case p >= 1:
		return 1, 0
	case eps == 0:
		return p, 1 - p
	case math.IsInf(eps, 1):
		return 1, 0
	}
	z := numeric.Logit(p) + eps
	return numeric.Logistic(z), numeric.Logistic(-z)
}

// checkOneRun validates ε ≥ 0 (+Inf allowed), δ ∈ [0, 1] and every
// p_i ∈ [0, 1].
func checkOneRun(eps, delta float64, p []float64) error {
	if !(eps >= 0) {
		return fmt.Errorf("epsilon = %v: must be ≥ 0", eps)
	}
	if !(delta >= 0 && delta <= 1) {
		return fmt.Errorf("delta = %v: must be in [0, 1]", delta)
	}
	for i, pi := range p {
		if !(pi >= 0 && pi <= 1) {
			return fmt.Errorf("prior p[%d] = %v: must be in [0, 1]", i, pi)
		}
	}
	return nil
}

// OneRunExpectedSuccesses returns E[S] = Σ_i β_i, the expected number of
// targets reconstructed by the dominating Poisson-binomial of Swanberg et
// al. Thm 3.2 (an upper bound on E[L] for ε-DP, since L is stochastically
// dominated by S). Compensated sum; error on invalid inputs.
func OneRunExpectedSuccesses(eps float64, p []float64) (float64, error) {
	if err := checkOneRun(eps, 0, p); err != nil {
		return 0, err
	}
	var s numeric.Sum
	for _, pi := range p {
		b, _ := OneRunFlip(eps, pi)
		s.Add(b)
	}
	return s.Value(), nil
}

// OneRunTail is the dominating Poisson-binomial S = Σ Bernoulli(β_i) of
// Swanberg et al. for n targets with priors p_i under an (ε, δ)-DP
// mechanism, with the bounds of Thm 3.2, Cor 3.4 and Thm 3.5 on
// Pr[L ≥ v]. Building it costs one Poisson-binomial product (package
// poibin: under a second for n = 10^6); every method is then cheap. It is
// immutable and safe for concurrent use.
//
// Assumptions (Swanberg et al. 2025): the priors are independent across targets;
// Thm 3.2 and Cor 3.4 take each p_i at the guess the attacker actually
// makes, Thm 3.5 at the a-priori Bayes-optimal guess; substituting any
// p̄_i ≥ p_i keeps every bound valid (β increases in p, and so do all
// tails). n counts targets only, never fixed or known records.
type OneRunTail struct {
	eps, delta float64
	n          int
	dist       *poibin.Dist
	// homogeneous reports whether the β_i strictly between 0 and 1 are
	// all equal (then poibin takes its binomial path; see LogDual).
	homogeneous bool
}

// NewOneRunTail builds the dominating distribution for priors p at privacy
// loss ε (≥ 0, +Inf allowed) and failure probability δ ∈ [0, 1], with
// β_i and 1 − β_i from OneRunFlip. It returns an error for invalid inputs.
func NewOneRunTail(eps, delta float64, p []float64) (*OneRunTail, error) {
	if err := checkOneRun(eps, delta, p); err != nil {
		return nil, err
	}
	beta := make([]float64, len(p))
	q := make([]float64, len(p))
	homogeneous := true
	first := -1.0
	for i, pi := range p {
		beta[i], q[i] = OneRunFlip(eps, pi)
		if beta[i] > 0 && q[i] > 0 {
			if first < 0 {
				first = beta[i]
			}
			homogeneous = homogeneous && beta[i] == first
		}
	}
	d, err := poibin.New(beta, q)
	if err != nil {
		return nil, err
	}
	return &OneRunTail{eps: eps, delta: delta, n: len(p), dist: d, homogeneous: homogeneous}, nil
}

// Len returns n, the number of targets.
func (t *OneRunTail) Len() int { return t.n }

// ExpectedSuccesses returns E[S] = Σ_i β_i (see OneRunExpectedSuccesses).
func (t *OneRunTail) ExpectedSuccesses() float64 { return t.dist.Mean() }

// Tail returns T(v) = Pr[S ≥ v], which is Swanberg et al. Thm 3.2's bound
// on Pr[L ≥ v | M(X) = a] for an ε-DP mechanism (δ = 0 only; with δ > 0
// use Cor34 or Thm35). It is an upper bound on the exact tail, exact to
// 1e-12 absolute (poibin.Dist.Survival): 1 for v ≤ 0, 0 for v > n.
func (t *OneRunTail) Tail(v int) float64 { return t.dist.Survival(v) }

// LogTail returns ln Pr[S ≥ v], exact in log space for tails far below the
// float64 range (poibin.Dist.LogSurvival); 0 for v ≤ 0, −Inf for v > n.
func (t *OneRunTail) LogTail(v int) float64 { return t.dist.LogSurvival(v) }

// Cor34 returns Swanberg et al. Cor 3.4's bound on Pr[L ≥ v] over the data
// and the mechanism's coins, min(1, Pr[S ≥ v] + n·δ) (n = number of
// targets), rounded up by a few ulps; 1 for v ≤ 0 and 0 for v > n (L ≤ n,
// Swanberg et al. 2025). Assumes β_i from the priors at the realized guesses; if
// the guesses depend on the output, the first term must be a mixture of
// tails over runs (Cor 3.4; §3.4: it "must be estimated from multiple
// runs"), which this single tail bounds when the
// p_i dominate every run's priors.
func (t *OneRunTail) Cor34(v int) float64 {
	if v <= 0 {
		return 1
	}
	if v > t.n {
		return 0
	}
	return numeric.RoundUp(t.dist.Survival(v)+float64(t.n)*t.delta, 0, 1)
}

// AlphaLP returns the dual variable of Swanberg et al. Thm 3.5,
//
//	α_LP(v) = max({0} ∪ {(Pr[S ≥ v − j] − Pr[S ≥ v])/j : j = 1..n}),
//
// in the parenthesised form the dual constraint requires (Swanberg et al. 2025
// erratum: the proof of Thm 3.5 in App. B drops the parentheses), with Pr[S ≥ u] = 1
// for u ≤ 0, so only j ≤ v matters. Returns 0 for v ≤ 0 and v > n (no
// spurious α term: L ≤ n). The tails are poibin's upper bounds T̃;
// with γ = T̃(v) and α = α_LP computed from T̃ the pair stays feasible for
// the dual of the Thm 3.5 LP (αj + γ ≥ T̃(v − j) ≥ Pr[S ≥ v − j]), so the
// bound stays valid. O(v), stopping once (1 − T̃(v))/j cannot beat the best.
func (t *OneRunTail) AlphaLP(v int) float64 {
	if v <= 0 || v > t.n {
		return 0
	}
	tv := t.dist.Survival(v)
	best := 0.0
	for j := 1; j <= v; j++ {
		if (1-tv)/float64(j) <= best {
			break // (T(v−j) − T(v))/j ≤ (1 − T(v))/j for this and every larger j
		}
		if a := (t.dist.Survival(v-j) - tv) / float64(j); a > best {
			best = a
		}
	}
	return best
}

// Thm35 returns Swanberg et al. Thm 3.5's bound on Pr[L ≥ v] over the data
// and the mechanism's coins,
//
//	min(1, Pr[S ≥ v] + α_LP(v)·n·δ),
//
// rounded up by a few ulps; 1 for v ≤ 0 and 0 for v > n. It is the optimum
// of the paper's LP over the law of the extra successes F (E[F] ≤ nδ) when
// nδ ≤ 1 (a two-point law of F attains the dual value; shown here, not in
// the paper), and never exceeds Cor34 there (α_LP ≤ 1). Assumes the priors
// p_i at the a-priori Bayes-optimal guesses z* (Thm 3.5, §3.4). With nδ > 1 it
// can increase in v; SuccessUpperBounds uses its non-increasing envelope.
func (t *OneRunTail) Thm35(v int) float64 {
	if v <= 0 {
		return 1
	}
	if v > t.n {
		return 0
	}
	return numeric.RoundUp(t.dist.Survival(v)+t.AlphaLP(v)*float64(t.n)*t.delta, 0, 1)
}

// SuccessUpperBounds returns, for each confidence c in confs, the success
// upper bound of Swanberg et al. §3.2 under bound b: with
// probability at least c the attack gets at most v_UB targets right, in
// the convention of Swanberg et al. 2025:
//
//	v_UB(c) = min{u ∈ {0, …, n} : B(u + 1) ≤ 1 − c},  B(n + 1) := 0,
//
// where B is Tail (OneRunPure, δ = 0 only: then v_UB is the c-quantile of
// S), Cor34, or the non-increasing envelope min_{v' ≤ v} Thm35(v') (valid
// because the true Pr[L ≥ v] is non-increasing). c is the confidence, not
// the significance: 0.05 is the optimistic low-confidence bound and 0.95
// the conservative one. c = 0 gives 0; c = 1 gives #{p_i > 0} for
// OneRunPure and n when δ > 0; if B never drops to 1 − c the result is n.
// Since every B errs upwards, float error can only raise v_UB.
//
// Cost: OneRunPure and OneRunCor34 binary-search the tail; OneRunThm35
// scans v = 1, 2, … once for all confidences, computing α_LP(v) as the
// steepest chord from (v, T(v)) to the upper convex hull of
// {(u, T(u)) : u < v} (O(log n) per v), and stops at the largest v_UB.
// Errors: an unknown bound, OneRunPure with δ > 0, or c ∉ [0, 1].
func (t *OneRunTail) SuccessUpperBounds(b OneRunBound, confs []float64) ([]int, error) {
	for _, c := range confs {
		if !(c >= 0 && c <= 1) {
			return nil, fmt.Errorf("confidence %v: must be in [0, 1]", c)
		}
	}
	out := make([]int, len(confs))
	switch b {
	case OneRunPure:
		if t.delta > 0 {
			return nil, errors.New("the bound of Thm 3.2 holds for pure ε-DP only (δ = 0); use Cor 3.4 or Thm 3.5")
		}
		for i, c := range confs {
			out[i] = t.dist.Quantile(c)
		}
	case OneRunCor34:
		for i, c := range confs {
			out[i] = t.searchUpper(t.Cor34, 1-c)
		}
	case OneRunThm35:
		t.scanThm35(confs, out)
	default:
		return nil, fmt.Errorf("unknown bound %v", b)
	}
	return out, nil
}

// searchUpper returns min{u ∈ [0, n] : bound(u + 1) ≤ sig} for a
// non-increasing bound with bound(n + 1) = 0.
func (t *OneRunTail) searchUpper(bound func(int) float64, sig float64) int {
	lo, hi := 0, t.n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if bound(mid+1) <= sig {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// scanThm35 fills out[i] = v_UB(confs[i]) for the envelope of Thm35.
func (t *OneRunTail) scanThm35(confs []float64, out []int) {
	// Thresholds 1 − c in decreasing order; each is met at the first v
	// whose envelope drops to it, giving v_UB = v − 1.
	order := make([]int, len(confs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return confs[order[a]] < confs[order[b]] })
	next := 0
	nd := float64(t.n) * t.delta
	var h chordHull
	h.add(0, 1) // T(0) = 1
	env := 1.0
	for v := 1; v <= t.n && next < len(order); v++ {
		tv := t.dist.Survival(v)
		alpha := max(0, h.steepest(float64(v), tv))
		h.add(float64(v), tv)
		env = min(env, numeric.RoundUp(tv+alpha*nd, 0, 1))
		for next < len(order) && env <= 1-confs[order[next]] {
			out[order[next]] = v - 1
			next++
		}
	}
	for ; next < len(order); next++ {
		out[order[next]] = t.n // B(n + 1) = 0
	}
}

// chordHull is the upper convex hull of points (x, y) added with
// increasing x; steepest returns max over hull points of
// (y_u − y)/(x − x_u) for a query point to the right of all of them,
// which is α_LP's maximum over j = v − u (the optimum lies on the upper
// hull: every point lies below the line of steepest descent through the
// query, and the hull's edge lines evaluated at the query decrease along
// the hull, so a binary search finds the tangent vertex).
type chordHull struct{ x, y []float64 }

func (h *chordHull) add(x, y float64) {
	for k := len(h.x); k >= 2; k-- {
		// Pop the last vertex while it is not strictly above the chord
		// from its predecessor to (x, y).
		x0, y0, x1, y1 := h.x[k-2], h.y[k-2], h.x[k-1], h.y[k-1]
		if (x1-x0)*(y-y0)-(y1-y0)*(x-x0) < 0 {
			break
		}
		h.x, h.y = h.x[:k-1], h.y[:k-1]
	}
	h.x = append(h.x, x)
	h.y = append(h.y, y)
}

func (h *chordHull) steepest(x, y float64) float64 {
	// Smallest i such that the line through hull edge (i, i+1), evaluated
	// at x, is at or below y: moving to i+1 no longer steepens the chord.
	lo, hi := 0, len(h.x)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		slope := (h.y[mid+1] - h.y[mid]) / (h.x[mid+1] - h.x[mid])
		if h.y[mid]+slope*(x-h.x[mid]) <= y {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	best := math.Inf(-1)
	// The tangent vertex and its neighbours, so that rounding in the hull
	// tests can only cost an ulp, not a vertex.
	for i := max(0, lo-1); i <= min(len(h.x)-1, lo+1); i++ {
		best = max(best, (h.y[i]-y)/(x-h.x[i]))
	}
	return best
}

// OneRunBitLeakage returns the number of bits an ε-DP mechanism leaks with
// probability at most α about one target with a uniform prior (Swanberg et
// al. §3.2): solving α = e^ε/(e^ε − 1 + 2^d) for d,
//
//	d = log2(e^ε·(1/α − 1) + 1) = softplus(ε − logit α)/ln 2,
//
// the second form being the overflow-free one of Swanberg et al. 2025 (no e^ε, no
// 1/α − 1 cancellation near α = 1). α = 1 gives 0 for every ε; ε = +Inf
// with α < 1 gives +Inf. Errors: ε < 0 or NaN, α ∉ (0, 1].
func OneRunBitLeakage(eps, alpha float64) (float64, error) {
	if !(eps >= 0) {
		return 0, fmt.Errorf("epsilon = %v: must be ≥ 0", eps)
	}
	if !(alpha > 0 && alpha <= 1) {
		return 0, fmt.Errorf("alpha = %v: must be in (0, 1]", alpha)
	}
	if alpha == 1 {
		return 0, nil
	}
	return numeric.Softplus(eps-numeric.Logit(alpha)) / math.Ln2, nil
}

// OneRunNarcissus returns the Narcissus resiliency comparator (Swanberg et
// al. §4.2, Def. 4.1 and their Thm F.1 bound for (ε, δ)-DP),
//
//	min(1, e^ε·p + δ),
//
// computed as exp(ε + ln p) so that huge ε does not overflow, and rounded up
// by a few ulps. p = 0 gives δ (also at ε = +Inf). For heterogeneous priors
// pass the most exposed target's p. It is never below Thm35 with n = 1
// (§4.2 claims "always strictly larger"; they are equal at ε = 0 or p = 0,
// and the §4.2 formula e^ε/(e^ε + 1/p) + δ is a misprint of Cor 3.4's
// e^ε/(e^ε − 1 + 1/p) + δ). Errors on invalid inputs.
func OneRunNarcissus(eps, delta, p float64) (float64, error) {
	if err := checkOneRun(eps, delta, []float64{p}); err != nil {
		return 0, err
	}
	if p == 0 {
		return delta, nil
	}
	x := eps + numeric.LogPos(p)
	if x >= 0 {
		return 1, nil
	}
	return numeric.RoundUp(math.Exp(x)+delta, 0, 1), nil
}

// OneRunReRo returns the ReRo comparator of Balle, Cherubin & Hayes
// (Cor. 3, pure ε-DP) as quoted by Swanberg et al. §4.3, Eq. (1):
//
//	min(1, e^ε·κ),  κ = max_i p_i,
//
// the prior success of the heaviest item (§4.3, Eq. (1)), through ReRoPure
// (exp(ε + ln κ), rounded up). κ = 0 (or no priors) gives 0 for every ε,
// since a target with p = 0 can never be guessed. Errors on invalid inputs.
func OneRunReRo(eps float64, p []float64) (float64, error) {
	if err := checkOneRun(eps, 0, p); err != nil {
		return 0, err
	}
	kappa := maxPrior(p)
	if kappa == 0 {
		return 0, nil
	}
	return ReRoPure(eps, kappa), nil
}

// OneRunEpsilonProtectMax returns ε_protect for heterogeneous priors
// (Swanberg et al. §5.3, footnote 6): the largest ε whose one-target
// advantage stays at or below target for every target, which is
// OneRunEpsilonProtect at the most exposed target (largest p), because the
// advantage σ(ln p + ln(e^ε − 1))·(1 − δ) + δ increases in p. The second
// result is false when no ε ≥ 0 meets the target (target < δ); the first is
// +Inf when every ε does (also for no priors, or all p = 0). Errors on
// invalid inputs.
func OneRunEpsilonProtectMax(target, delta float64, p []float64) (float64, bool, error) {
	if err := checkOneRun(0, delta, p); err != nil {
		return 0, false, err
	}
	if math.IsNaN(target) {
		return 0, false, errors.New("target advantage is NaN")
	}
	eps, ok := OneRunEpsilonProtect(target, delta, maxPrior(p))
	return eps, ok, nil
}

// maxPrior returns max_i p_i (0 for no priors).
func maxPrior(p []float64) float64 {
	m := 0.0
	for _, pi := range p {
		m = max(m, pi)
	}
	return m
}
