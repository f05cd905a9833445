package bound

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// OneRunLogSlack is the relative amount every log-space bound of
// OneRunTail (LogBound, LogDual) is raised by. poibin's LogSurvival is
// accurate to about 1e-12 relative but not directed; 1e-9 covers it and
// the few roundings here with a wide margin, so that a bound used as a
// p-value is never below the exact one and a refutation never rests on
// round-off.
const OneRunLogSlack = 1e-9

// LogBound returns the natural logarithm of bound b of Swanberg et al.
// 2025 on Pr[L ≥ v], in log space so that bounds far below the float64
// range stay exact, and raised by OneRunLogSlack:
//
//	OneRunPure:  ln Pr[S ≥ v]                      (δ is not read)
//	OneRunCor34: ln min(1, Pr[S ≥ v] + n·δ)
//	OneRunThm35: ln min(1, Pr[S ≥ v] + α·n·δ)      (see LogDual)
//
// v ≤ 0 gives 0 (probability 1), v > n gives −Inf (L ≤ n), an unknown b
// gives NaN. Tail, Cor34 and Thm35 are the linear-scale forms the row
// columns use.
func (t *OneRunTail) LogBound(b OneRunBound, v int) float64 {
	nd := float64(t.n) * t.delta
	switch {
	case v <= 0:
		return 0
	case v > t.n:
		return math.Inf(-1)
	case b == OneRunPure:
		return t.LogDual(v, 0)
	case b == OneRunCor34:
		return min(0, numeric.LogSumExp(t.dist.LogSurvival(v), numeric.LogPos(nd))+OneRunLogSlack)
	case b == OneRunThm35:
		return t.LogDual(v, nd)
	}
	return math.NaN()
}

// LogDual returns ln min(1, Pr[S ≥ v] + α·w) with
// α = max(0, max_{j ≥ 1} (Pr[S ≥ v − j] − Pr[S ≥ v])/j), the dual-feasible
// bound shared by Steinke, Nasr & Jagielski 2023, Thm 3 (S binomial,
// w = 2·m·δ) and Swanberg et al. 2025, Thm 3.5 (w = n·δ), raised by
// OneRunLogSlack; w = 0 gives the plain tail. v ≤ 0 gives 0 (probability
// 1), v > n gives −Inf (L ≤ n).
//
// Any α ≥ 0 with α·j + γ ≥ Pr[S ≥ v − j] for every j, together with
// γ ≥ Pr[S ≥ v], makes γ + α·w a valid bound (the dual of the linear
// program in the proof of Swanberg et al. Thm 3.5), so upper bounds on the
// tails may stand in for exact ones. The maximiser: the terms
// Pr[S = v − j] are a log-concave, hence unimodal, sequence in j (S is a
// sum of independent Bernoullis), and the running average of a unimodal
// sequence increases until the next term falls below it and decreases
// from there on; α is found by binary search for the first j with
// avg(j + 1) ≤ avg(j), then checked against its neighbours and the end
// points. O(log v) tail evaluations.
//
// For equal β_i (binomial) every tail is taken in log space from
// LogSurvival, which is cheap there and exact far below the float64 range.
// Otherwise LogSurvival may cost a whole product per call, so α is
// computed from the window values Survival, upper bounds exact to 1e-12
// absolute (plus 2e-12 for a maximiser misplaced by that error), with
// γ = Pr[S ≥ v] still in log space. Unlike AlphaLP and Thm35, which the
// row columns use, this form stays exact for p-values below 1e-308.
func (t *OneRunTail) LogDual(v int, w float64) float64 {
	if v <= 0 {
		return 0
	}
	if v > t.n {
		return math.Inf(-1)
	}
	d := t.dist
	lt := d.LogSurvival(v)
	if w > 0 {
		var la float64
		if t.homogeneous {
			la = logAlpha(v, func(u int) float64 { return d.LogSurvival(u) }, lt)
		} else {
			la = logAlpha(v, func(u int) float64 { return math.Log(d.Survival(u)) }, lt)
			la = numeric.LogSumExp(la, math.Log(windowAllowance))
		}
		if !math.IsInf(la, -1) {
			lt = numeric.LogSumExp(lt, la+math.Log(w))
		}
	}
	return min(0, lt+OneRunLogSlack)
}

// windowAllowance is added to α when it comes from poibin's window values
// (see LogDual).
const windowAllowance = 2e-12

// logAlpha returns ln α for LogDual (−Inf when α = 0), given the log tail
// function lsf (ln Pr[S ≥ u], 0 for u ≤ 0) and lk = ln Pr[S ≥ k].
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
			v = lu + numeric.Log1mExp(lk-lu) - math.Log(float64(j))
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
