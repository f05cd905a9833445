// Package poibin implements the Poisson-binomial distribution: the law of
// S = Σ_{i=1}^{n} S_i for independent S_i ~ Bernoulli(β_i) with arbitrary
// β_i ∈ [0, 1]. It is the dominating distribution of Swanberg, Annamalai,
// Hayes, Balle & Smith, "Beyond the Worst Case: Extending Differential
// Privacy Guarantees to Realistic Adversaries" (2025), Thm 3.2: the number
// of targets an attacker reconstructs after an ε-DP release is
// stochastically dominated by S with β_i = e^ε/(e^ε − 1 + 1/p_i).
//
// The API follows gonum's stat/distuv (Prob, CDF, Survival, Quantile, Mean)
// on the integers, and adds log-space tails.
//
// Algorithms (Swanberg et al. 2025): equal β_i use the binomial law with
// Loader's saddle-point point masses (binomial.go); otherwise the
// polynomial Π_i (q_i + β_i x) is multiplied out by divide and conquer
// (dc.go): exact sequential DP on leaves of 16 targets, then pairwise
// merges by direct convolution (sums of non-negative products) or, for
// wide blocks, a real FFT (gonum dsp/fourier), every block truncated to a
// Bernstein window that holds all but 2e-22 of its exact mass per side and
// renormalised to unit mass. Far tails use exponential tilting (tilt.go).
//
// Error analysis, summarised (details at each function):
//
//   - Truncation: rigorous. Each cut side drops at most e^{−50} of the exact
//     block's mass (Bernstein), so every exact tail lies in
//     [kept tail, kept tail + dropped], dropped ≲ 1e-17 for n = 10^6.
//   - Direct convolutions and the leaf DP add and multiply non-negative
//     numbers only, so every stored point mass keeps its relative
//     precision; measured against a double-double DP (n = 2·10^4, 10^5),
//     tails agree to 1.1e-16.
//   - FFT merges carry an absolute error of about u·√(log₂N) per merge in
//     any tail sum (u = 2^-53), not relative to the tail. Survival adds
//     4·u·√(log₂N) per FFT merge (the coherent worst case; ≤ 4e-13 for
//     n = 10^6, ~240 merges) while the measured error is ≤ 8e-15, and a
//     relative 16·u·log₂(n + 2) for the direct parts. Survival is therefore
//     an upper bound, and above the exact tail by less than 1e-12.
//   - Tails far below 1e-12 are never read off FFT output: LogSurvival and
//     LogCDF use the window only where it is accurate to 1e-12 relative,
//     otherwise an exponentially tilted product in which the requested tail
//     is the bulk; they stay exact (≈ 1e-13 relative) down to tails like
//     1e-500000.
package poibin

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Dist is the Poisson-binomial distribution of S = Σ Bernoulli(β_i). It is
// immutable after New and safe for concurrent use.
//
// Representation: targets with β_i = 0 are dropped and targets with
// 1 − β_i = 0 become a fixed shift; the remaining m targets have their
// point masses stored on a window [lo, lo + len(pmf)) that holds all but a
// rigorously bounded ≲ 1e-17 of the mass, with compensated (Neumaier)
// prefix and suffix sums for the CDF and the survival function.
type Dist struct {
	n     int // number of Bernoulli terms
	shift int // terms with β = 1 (1 − β = 0)

	// The m non-degenerate terms (0 < β < 1, 0 < 1 − β), kept for the
	// exponentially tilted evaluation of far tails. For a homogeneous Dist
	// only hb, hq are kept.
	beta, q []float64
	m       int
	homog   bool
	hb, hq  float64

	mean, vari float64

	lo  int       // value of S at pmf[0]
	pmf []float64 // Pr[S = lo + j], clamped to ≥ 0
	sf  []float64 // sf[j] = Σ_{i ≥ j} pmf[i]; len(pmf) + 1 entries
	cdf []float64 // cdf[j] = Σ_{i ≤ j} pmf[i]

	opts options

	dropped  float64 // bound on the exact mass outside the window
	fftSlack float64 // allowance for FFT round-off in any tail
	clamped  float64 // mass added by clamping negative FFT noise to 0
	rel      float64 // relative allowance for direct-convolution round-off
}

// options selects internal code paths; tests use it to compare them.
type options struct {
	noFFT      bool // force direct convolutions
	noBinomial bool // do not use the binomial path for equal β
}

// relTol is the relative accuracy LogSurvival and LogCDF demand of a
// window value before they use it instead of the tilted evaluation.
const relTol = 1e-12

// consistencyTol is the largest |β + (1 − β) − 1| New accepts.
const consistencyTol = 1e-12

// New returns the Poisson-binomial distribution of Σ_i Bernoulli(beta[i]).
// oneMinusBeta[i] must be 1 − beta[i] computed without cancellation (for
// β = σ(z), pass σ(−z); Swanberg et al. 2025); it is what the algorithms use
// wherever 1 − β appears, so β close to 1 keeps its precision. Both slices
// must have the same length, finite entries in [0, 1], and
// |β + (1 − β) − 1| ≤ 1e-12; otherwise New returns an error (it never
// panics). The slices are copied. Each pair is read as
// (β_i, 1 − β_i)/(β_i + (1 − β_i)), i.e. renormalised, which changes each by
// at most the stated inconsistency (an ulp or two for σ(±z) pairs).
//
// Cost: O(n) for validation; when all non-degenerate β_i are equal, the
// binomial window costs O(√n); otherwise the product costs
// O(n·(16 + Σ_levels window)) for the direct merges plus O(w log w) per FFT
// merge of windows w ≈ 20σ, about 0.4 s and 100 MB for n = 10^6 on one core
// (BenchmarkHeterogeneous1e6).
func New(beta, oneMinusBeta []float64) (*Dist, error) {
	return newDist(beta, oneMinusBeta, options{})
}

func newDist(beta, q []float64, o options) (*Dist, error) {
	if len(beta) != len(q) {
		return nil, fmt.Errorf("poibin: %d probabilities but %d complements", len(beta), len(q))
	}
	d := &Dist{n: len(beta), opts: o}
	var mean, vari numeric.Sum
	m := 0
	homog := !o.noBinomial
	var b0, q0 float64
	for i, b := range beta {
		c := q[i]
		if !(b >= 0 && b <= 1) {
			return nil, fmt.Errorf("poibin: beta[%d] = %v is not a probability", i, b)
		}
		if !(c >= 0 && c <= 1) {
			return nil, fmt.Errorf("poibin: oneMinusBeta[%d] = %v is not a probability", i, c)
		}
		if math.Abs(b+c-1) > consistencyTol {
			return nil, fmt.Errorf("poibin: beta[%d] + oneMinusBeta[%d] = %v, not 1", i, i, b+c)
		}
		mean.Add(b)
		vari.Add(b * c)
		switch {
		case b == 0:
		case c == 0:
			d.shift++
		default:
			if m == 0 {
				b0, q0 = b, c
			} else if b != b0 || c != q0 {
				homog = false
			}
			m++
		}
	}
	d.mean, d.vari, d.m = mean.Value(), vari.Value(), m
	if m == 0 {
		d.lo, d.pmf = d.shift, []float64{1}
		d.finish()
		return d, nil
	}
	if homog {
		d.homog, d.hb, d.hq = true, b0, q0
		lo, pmf, outside := binomWindow(m, b0, q0, math.Exp(-truncLog))
		d.lo, d.pmf, d.dropped = d.shift+lo, pmf, outside
		d.rel = binomRel
		d.finish()
		return d, nil
	}
	nb := make([]float64, 0, m)
	nq := make([]float64, 0, m)
	for i, b := range beta {
		if b != 0 && q[i] != 0 {
			nb = append(nb, b)
			nq = append(nq, q[i])
		}
	}
	d.beta, d.q = nb, nq
	bld := builder{noFFT: o.noFFT}
	blk := bld.product(nb, nq)
	d.lo, d.pmf, d.dropped = d.shift+blk.lo, blk.p, bld.dropped
	d.fftSlack = bld.fftTail
	d.rel = directRel(m)
	d.finish()
	return d, nil
}

// binomRel is the relative allowance for Loader's point masses: the log
// mass is a sum of a handful of terms of size ≤ 100 inside the window, so
// its absolute error, hence the relative error of the mass, is below
// 1024·u ≈ 1.1e-13.
const binomRel = 1024 * unitRoundoff

// directRel is the relative allowance for the round-off of the direct
// convolutions and the leaf DP: each point mass is a sum of non-negative
// products formed along a tree of depth ≈ log₂(m/16) + 16, and with every
// block renormalised to unit mass its relative error stays at a few u
// (measured against a double-double DP at n = 2·10^4 and 10^5: tails agree
// to 1.1e-16 absolute). 16·u·log₂(m + 2) covers that with a wide margin
// and stays below 6e-14 for m ≤ 10^9.
func directRel(m int) float64 {
	return 16 * unitRoundoff * math.Log2(float64(m)+2)
}

// finish clamps the window, and builds the compensated prefix and suffix
// sums.
func (d *Dist) finish() {
	for i, v := range d.pmf {
		if v < 0 || math.IsNaN(v) {
			d.clamped -= min(v, 0)
			d.pmf[i] = 0
		}
	}
	w := len(d.pmf)
	d.sf = make([]float64, w+1)
	var acc numeric.Sum
	for j := w - 1; j >= 0; j-- {
		acc.Add(d.pmf[j])
		d.sf[j] = acc.Value()
	}
	d.cdf = make([]float64, w)
	acc = numeric.Sum{}
	for j := 0; j < w; j++ {
		acc.Add(d.pmf[j])
		d.cdf[j] = acc.Value()
	}
}

// Len returns n, the number of Bernoulli terms.
func (d *Dist) Len() int { return d.n }

// Mean returns E[S] = Σ_i β_i (compensated sum).
func (d *Dist) Mean() float64 { return d.mean }

// Variance returns Var[S] = Σ_i β_i(1 − β_i).
func (d *Dist) Variance() float64 { return d.vari }

// ErrorBound returns the absolute allowance Survival adds to the computed
// tail: the rigorous bound on the mass lost to truncation (≲ 1e-17) plus
// 4·u·√(log₂N) per FFT merge of length N (0 when no FFT was used; ≤ 4e-13
// for n = 10^6). Survival(v) also multiplies by 1 + 16·u·log₂(n + 2)
// (binomial path: 1 + 1024·u) for the round-off of the direct parts.
// Measured errors are one to two orders of magnitude below these
// allowances, so Survival is an upper bound on Pr[S ≥ v] and exceeds it by
// less than 1e-12.
func (d *Dist) ErrorBound() float64 { return d.dropped + d.fftSlack }

// Prob returns Pr[S = k]. For equal β (binomial) it is Loader's
// saddle-point value at every k; otherwise values outside the stored window
// are returned as 0 (their true size is below the truncation bound,
// ≲ 1e-17), and inside it they are accurate to 1e-12 absolute (relative
// where no FFT was needed).
func (d *Dist) Prob(k int) float64 {
	if k < d.shift || k > d.shift+d.m {
		return 0
	}
	if d.homog {
		return math.Exp(binomLogPMF(k-d.shift, d.m, d.hb, d.hq))
	}
	if j := k - d.lo; j >= 0 && j < len(d.pmf) {
		return d.pmf[j]
	}
	return 0
}

// Survival returns an upper bound on Pr[S ≥ v] that is exact to 1e-12
// absolute: 1 for v ≤ #{β_i = 1} (in particular v ≤ 0), 0 for
// v > #{β_i > 0} (in particular v > n), and otherwise the compensated sum of
// the point masses from the top, times (1 + rel), plus ErrorBound(), capped
// at 1. Summing from the top keeps small tails small (never 1 − CDF).
func (d *Dist) Survival(v int) float64 {
	if v <= d.shift {
		return 1
	}
	if v > d.shift+d.m {
		return 0
	}
	return min(1, d.windowSurvival(v)*(1+d.rel)+d.dropped+d.fftSlack)
}

// windowSurvival returns the plain window estimate of Pr[S ≥ v].
func (d *Dist) windowSurvival(v int) float64 {
	j := v - d.lo
	switch {
	case j <= 0:
		return min(1, d.sf[0])
	case j >= len(d.pmf):
		return 0
	}
	return min(1, d.sf[j])
}

// CDF returns Pr[S ≤ u], summed from the bottom (0 for u below
// #{β_i = 1}, 1 for u ≥ #{β_i > 0}). It is accurate to 1e-12 absolute
// but is an estimate, not a bound; CDF(u) + Survival(u+1) may exceed 1 by
// the allowances of Survival.
func (d *Dist) CDF(u int) float64 {
	if u < d.shift {
		return 0
	}
	if u >= d.shift+d.m {
		return 1
	}
	return d.windowCDF(u)
}

func (d *Dist) windowCDF(u int) float64 {
	j := u - d.lo
	switch {
	case j < 0:
		return 0
	case j >= len(d.pmf):
		return min(1, d.cdf[len(d.cdf)-1])
	}
	return min(1, d.cdf[j])
}

// reliable reports whether a window value x is accurate to relTol
// relative, given the absolute error allowances of the window.
func (d *Dist) reliable(x float64) bool {
	return x > 0 && d.dropped+d.fftSlack+d.clamped+d.rel*x <= relTol*x
}

// LogSurvival returns ln Pr[S ≥ v] with a relative error of the tail
// itself of about 1e-12 (absolute error of the log ~1e-12, or ~1e-15
// relative to |ln Pr| for tails like 1e-5000): 0 for v ≤ #{β_i = 1}, −Inf
// for v > #{β_i > 0}.
//
// Method: for equal β, Loader's log point mass at v times the sum of the
// ratios Pr[S = k]/Pr[S = v] (all terms positive). Otherwise the stored
// window value when it is accurate to 1e-12 relative; else exponential
// tilting (Esscher): with θ chosen so that the tilted success probabilities
// β_i(θ) = σ(logit β_i + θ) have mean v,
//
//	Pr[S ≥ v] = exp(K(θ) − θv) · Σ_{k ≥ v} e^{−θ(k − v)} Pr_θ[S = k],
//	K(θ) = Σ_i ln(1 − β_i + β_i e^θ),
//
// an identity that holds for every θ. Under the tilt the mass sits at v, so
// the tilted window (same divide-and-conquer, FFT round-off ≈ 1e-16 of its
// peak ≈ 1/σ_θ) gives the sum to ~1e-13 relative, and K(θ) − θv is summed
// in a cancellation-free form. This path costs one more product (≈ the
// cost of New) per call.
func (d *Dist) LogSurvival(v int) float64 {
	if v <= d.shift {
		return 0
	}
	if v > d.shift+d.m {
		return math.Inf(-1)
	}
	k := v - d.shift // 1 ≤ k ≤ m
	if d.homog {
		if k > binomMode(d.m, d.hb) {
			return binomLogUpper(k, d.m, d.hb, d.hq)
		}
		return numeric.Log1mExp(binomLogLower(k-1, d.m, d.hb, d.hq))
	}
	return d.logTail(k, true)
}

// LogCDF returns ln Pr[S ≤ u] with the accuracy and methods of
// LogSurvival (mirrored): −Inf for u < #{β_i = 1}, 0 for u ≥ #{β_i > 0}.
func (d *Dist) LogCDF(u int) float64 {
	if u < d.shift {
		return math.Inf(-1)
	}
	if u >= d.shift+d.m {
		return 0
	}
	k := u - d.shift // 0 ≤ k ≤ m − 1
	if d.homog {
		if k < binomMode(d.m, d.hb) {
			return binomLogLower(k, d.m, d.hb, d.hq)
		}
		return numeric.Log1mExp(binomLogUpper(k+1, d.m, d.hb, d.hq))
	}
	return d.logTail(k, false)
}

// logTail returns the log of the upper tail Pr[S ≥ shift + k] (upper) or
// the lower tail Pr[S ≤ shift + k] of a distribution that is not
// binomial, 0 < k ≤ m (upper) or 0 ≤ k < m (lower): a tail of one outcome
// as the sum of its terms' logs (logAll); else the stored window's value
// where it is relatively exact, or the tilted evaluation; a tail above ½
// as the complement of the other tail, computed the same way.
func (d *Dist) logTail(k int, upper bool) float64 {
	if d.extreme(k, upper) {
		return d.logAll(upper)
	}
	if w := d.window(k, upper); w < 0.5 {
		if d.reliable(w) {
			return math.Log(w)
		}
		return d.logTilted(k, upper)
	}
	j := k + 1 // the other tail starts next to this one
	if upper {
		j = k - 1
	}
	if w := d.window(j, !upper); d.reliable(w) {
		return math.Log1p(-w)
	}
	if d.extreme(j, !upper) {
		return numeric.Log1mExp(d.logAll(!upper))
	}
	return numeric.Log1mExp(d.logTilted(j, !upper))
}

// window returns the stored window's value of the upper tail at shift + k
// (upper) or of the lower tail.
func (d *Dist) window(k int, upper bool) float64 {
	if upper {
		return d.windowSurvival(d.shift + k)
	}
	return d.windowCDF(d.shift + k)
}

// extreme reports whether the tail at k holds one outcome only: every
// term succeeds (upper, k = m) or every term fails (lower, k = 0).
func (d *Dist) extreme(k int, upper bool) bool {
	return upper && k == d.m || !upper && k == 0
}

// logAll returns ln Pr[all m non-degenerate terms succeed] = Σ ln β_i
// (success) or ln Pr[all fail] = Σ ln(1 − β_i).
func (d *Dist) logAll(success bool) float64 {
	var s numeric.Sum
	for i := range d.beta {
		if success {
			s.Add(math.Log(d.beta[i]))
		} else {
			s.Add(math.Log(d.q[i]))
		}
	}
	return s.Value()
}

// Quantile returns the smallest u ∈ {0, …, n} with Pr[S ≤ u] ≥ c, the
// convention of Swanberg et al. 2025 (§3.2: "with probability at least
// 1 − α the success is at most v_UB", α = 1 − c) for the success upper bound v_UB
// at confidence c (pure DP): equivalently the smallest u with
// Pr[S ≥ u + 1] ≤ 1 − c, evaluated with Survival, so that float error can
// only move the answer up (conservatively). c ≤ 0 gives 0; c = 1 gives
// #{β_i > 0}; c > 1 or NaN gives −1 (no such u).
func (d *Dist) Quantile(c float64) int {
	if math.IsNaN(c) || c > 1 {
		return -1
	}
	if c <= 0 {
		return 0
	}
	sig := 1 - c
	lo, hi := d.shift, d.shift+d.m // Survival(hi+1) = 0 ≤ sig
	for lo < hi {
		mid := lo + (hi-lo)/2
		if d.Survival(mid+1) <= sig {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
