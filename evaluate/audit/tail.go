package audit

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/poibin"
)

// Bound names the tail bound of Swanberg, Annamalai, Hayes, Balle & Smith,
// "Beyond the Worst Case: Extending Differential Privacy Guarantees to
// Realistic Adversaries" (2025), §3, used by TailBound and PriorEpsilon.
// Each bounds Pr[L ≥ k], the probability that an attacker gets at least k
// of n targets right after an (ε, δ)-DP release (replace-one neighbours;
// independent priors D_1 ⊗ … ⊗ D_n), through the Poisson-binomial
// S = Σ_i Bernoulli(β_i) with
//
//	β_i = e^ε/(e^ε − 1 + 1/p_i),  i.e.  logit β_i = logit p_i + ε.
type Bound int

const (
	// Thm32 is Thm 3.2 (pure ε-DP, δ = 0 only): Pr[L ≥ k | output] ≤
	// Pr[S ≥ k], with p_i the prior success probability of the guess the
	// attacker actually made (0 for an abstention).
	Thm32 Bound = iota + 1
	// Cor34 is Cor 3.4: Pr[L ≥ k] ≤ Pr[S ≥ k] + n·δ, with p_i at the
	// guesses made; the first term is a mixture over runs unless the
	// multiset of p_i is fixed before the release (see MembershipPriors).
	Cor34
	// Thm35 is Thm 3.5: Pr[L ≥ k] ≤ Pr[S ≥ k] + α·n·δ, with p_i at the a
	// priori Bayes-optimal guesses and
	// α = max_{j ∈ [n]} (Pr[S ≥ k − j] − Pr[S ≥ k])/j.
	Thm35
)

// String returns the bound's name in the paper.
func (b Bound) String() string {
	switch b {
	case Thm32:
		return "Thm 3.2"
	case Cor34:
		return "Cor 3.4"
	case Thm35:
		return "Thm 3.5"
	}
	return fmt.Sprintf("Bound(%d)", int(b))
}

// ParseBound reads the audit_bound vocabulary: "thm32", "cor34" or "thm35";
// "" gives DefaultBound(delta).
func ParseBound(s string, delta float64) (Bound, error) {
	switch s {
	case "":
		return DefaultBound(delta), nil
	case "thm32":
		return Thm32, nil
	case "cor34":
		return Cor34, nil
	case "thm35":
		return Thm35, nil
	}
	return 0, fmt.Errorf("audit_bound %q: want thm32, cor34 or thm35", s)
}

// DefaultBound is Thm32 when δ = 0 and Thm35 otherwise.
func DefaultBound(delta float64) Bound {
	if delta == 0 {
		return Thm32
	}
	return Thm35
}

// pValueSlack is the relative amount every p-value is raised by before it
// is compared with the significance. poibin's LogSurvival is accurate to
// about 1e-12 relative but not directed; 1e-9 covers it and the few
// roundings here with a wide margin, so that a reported p-value is never
// below the exact one and a refutation never rests on round-off. It moves
// a lower bound on ε by far less than the 1e-9 search tolerance.
const pValueSlack = 1e-9

// flip returns β = σ(logit p + ε) and 1 − β = σ(−logit p − ε), both
// without cancellation (Swanberg et al. 2025, Thm 3.2); p = 0 gives (0, 1)
// and p = 1 gives (1, 0) for every ε, ε = +Inf with p > 0 gives (1, 0).
func flip(eps, p float64) (beta, q float64) {
	switch {
	case p <= 0:
		return 0, 1
	case p >= 1, math.IsInf(eps, 1):
		return 1, 0
	}
	z := logit(p) + eps
	return logistic(z), logistic(-z)
}

// dominating returns the Poisson-binomial S = Σ Bernoulli(β_i) of Thm 3.2
// for priors p at privacy loss ε, and whether the β_i strictly between 0
// and 1 are all equal (then poibin takes its binomial path).
func dominating(p []float64, eps float64) (*poibin.Dist, bool, error) {
	beta := make([]float64, len(p))
	q := make([]float64, len(p))
	homogeneous := true
	first := -1.0
	for i, pi := range p {
		beta[i], q[i] = flip(eps, pi)
		if beta[i] > 0 && q[i] > 0 {
			if first < 0 {
				first = beta[i]
			}
			homogeneous = homogeneous && beta[i] == first
		}
	}
	d, err := poibin.New(beta, q)
	return d, homogeneous, err
}

// binomial returns Binomial(r, e^ε/(1 + e^ε)), Steinke et al.'s
// dominating law: flip at p = ½.
func binomial(r int, eps float64) (*poibin.Dist, error) {
	b, q := flip(eps, 0.5)
	beta := make([]float64, r)
	comp := make([]float64, r)
	for i := range beta {
		beta[i], comp[i] = b, q
	}
	return poibin.New(beta, comp)
}

// logDualBound returns ln min(1, Pr[S ≥ k] + α·w) with
// α = max(0, max_{j ≥ 1} (Pr[S ≥ k − j] − Pr[S ≥ k])/j), the dual-feasible
// bound shared by Steinke et al. 2023 (w = 2·m·δ) and Swanberg et al. Thm
// 3.5 (w = n·δ), raised by pValueSlack; w = 0 gives the plain tail. k ≤ 0
// gives 0 (probability 1), k > n gives −Inf (L ≤ n).
//
// Any α ≥ 0 with α·j + γ ≥ Pr[S ≥ k − j] for every j, together with
// γ ≥ Pr[S ≥ k], makes γ + α·w a valid bound (the dual of the linear
// program in the proof of Swanberg et al. Thm 3.5), so upper bounds on the
// tails may stand in for exact ones. The maximiser: the terms
// Pr[S = k − j] are a log-concave, hence unimodal, sequence in j (S is a
// sum of independent Bernoullis), and the running average of a unimodal
// sequence increases until the next term falls below it and decreases
// from there on; α is found by binary search for the first j with
// avg(j + 1) ≤ avg(j), then checked against its neighbours and the end
// points. O(log k) tail evaluations.
//
// homogeneous selects the tails: for equal β_i (binomial) every tail is
// taken in log space from LogSurvival, which is cheap there and exact far
// below the float64 range. Otherwise LogSurvival may cost a whole product
// per call, so α is computed from the window values Survival, upper
// bounds exact to 1e-12 absolute (plus 2e-12 for a maximiser misplaced by
// that error), with γ = Pr[S ≥ k] still in log space.
func logDualBound(d *poibin.Dist, k int, w float64, homogeneous bool) float64 {
	if k <= 0 {
		return 0
	}
	if k > d.Len() {
		return math.Inf(-1)
	}
	lt := d.LogSurvival(k)
	if w > 0 {
		var la float64
		if homogeneous {
			la = logAlpha(k, func(u int) float64 { return d.LogSurvival(u) }, lt)
		} else {
			la = logAlpha(k, func(u int) float64 { return math.Log(d.Survival(u)) }, lt)
			la = logSumExp(la, math.Log(windowAllowance))
		}
		if !math.IsInf(la, -1) {
			lt = logSumExp(lt, la+math.Log(w))
		}
	}
	return min(0, lt+pValueSlack)
}

// windowAllowance is added to α when it comes from poibin's window values
// (see logDualBound).
const windowAllowance = 2e-12

// logAlpha returns ln α for logDualBound (−Inf when α = 0), given the log
// tail function lsf (ln Pr[S ≥ u], 0 for u ≤ 0) and lk = ln Pr[S ≥ k].
func logAlpha(k int, lsf func(int) float64, lk float64) float64 {
	cache := map[int]float64{}
	logAvg := func(j int) float64 {
		if v, ok := cache[j]; ok {
			return v
		}
		lu := 0.0 // ln Pr[S ≥ k − j]
		if k-j > 0 {
			lu = lsf(k - j)
		}
		v := math.Inf(-1)
		if lu > lk {
			v = lu + log1mexp(lk-lu) - math.Log(float64(j))
		}
		cache[j] = v
		return v
	}
	lo, hi := 1, k
	for lo < hi {
		mid := lo + (hi-lo)/2
		if logAvg(mid+1) <= logAvg(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	best := math.Inf(-1)
	for _, j := range []int{1, lo - 2, lo - 1, lo, lo + 1, lo + 2, k} {
		if j >= 1 && j <= k {
			best = max(best, logAvg(j))
		}
	}
	return best
}

// checkPriors validates p_i ∈ [0, 1].
func checkPriors(p []float64) error {
	for i, pi := range p {
		if !(pi >= 0 && pi <= 1) {
			return inputError("prior", pi, "p[%d] must be in [0, 1]", i)
		}
	}
	return nil
}

// TailBound returns the bound `which` of Swanberg et al. 2025 on
// Pr[L ≥ k], the probability that an attack on n = len(p) targets with
// prior success probabilities p succeeds at least k times after an
// (ε, δ)-DP release:
//
//	Thm32:  Pr[S ≥ k]                 (δ must be 0)
//	Cor34:  min(1, Pr[S ≥ k] + n·δ)
//	Thm35:  min(1, Pr[S ≥ k] + α·n·δ), α = max_{j ≥ 1} (Pr[S ≥ k − j] − Pr[S ≥ k])/j
//
// with S = Σ Bernoulli(β_i), β_i = e^ε/(e^ε − 1 + 1/p_i) (Thm 3.2). The
// tails are exact in log space far below the float64 range (package
// poibin) and the result is raised by a relative 1e-9 (pValueSlack), so
// it is never below the exact bound. k ≤ 0 gives 1 and k > n gives 0.
// See LogTailBound for p-values below 1e-308.
//
// Errors: ε < 0 or NaN, δ ∉ [0, 1), Thm32 with δ > 0, an unknown bound,
// a p_i outside [0, 1].
//
// The same bounds are computed row by row in package evaluate
// (OneRunTail); this copy is the audit's, in log space, and the two are
// meant to be folded into one.
func TailBound(p []float64, eps, delta float64, k int, which Bound) (float64, error) {
	lb, err := LogTailBound(p, eps, delta, k, which)
	return math.Exp(lb), err
}

// LogTailBound returns ln TailBound(p, eps, delta, k, which).
func LogTailBound(p []float64, eps, delta float64, k int, which Bound) (float64, error) {
	if err := checkTail(p, eps, delta, which); err != nil {
		return 0, err
	}
	d, homogeneous, err := dominating(p, eps)
	if err != nil {
		return 0, err
	}
	return logTail(d, homogeneous, delta, k, which), nil
}

// checkTail validates the inputs of TailBound.
func checkTail(p []float64, eps, delta float64, which Bound) error {
	if err := checkEpsilon(eps); err != nil {
		return err
	}
	if err := checkDelta(delta); err != nil {
		return err
	}
	switch which {
	case Thm32:
		if delta > 0 {
			return inputError("delta", delta, "Thm 3.2 holds for pure ε-DP only (δ = 0); use cor34 or thm35")
		}
	case Cor34, Thm35:
	default:
		return fmt.Errorf("unknown bound %v", which)
	}
	return checkPriors(p)
}

// logTail evaluates the bound on a built dominating distribution.
func logTail(d *poibin.Dist, homogeneous bool, delta float64, k int, which Bound) float64 {
	nd := float64(d.Len()) * delta
	switch {
	case k <= 0:
		return 0
	case k > d.Len():
		return math.Inf(-1)
	case which == Cor34:
		return min(0, logSumExp(d.LogSurvival(k), math.Log(nd))+pValueSlack)
	case which == Thm35:
		return logDualBound(d, k, nd, homogeneous)
	}
	return logDualBound(d, k, 0, homogeneous)
}
