package pld

import (
	"math"
	"sort"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// profile is the privacy profile of a composed PLD pair (both directions)
// at ε ≥ 0: δ_d(ε) = Σ_k p_k·(1 − e^{ε − ε_k})₊ + p_∞ + slack for each
// direction d, and δ(ε) = max_d δ_d(ε) (dp_accounting's
// get_delta_for_epsilon of an add/remove PLD). Its entries are ε = 0 and
// the grid points ε_k = k·h from kStart up to the last atom; between two
// entries, and beyond them, no atom lies strictly inside, so each δ_d is
// linear in e^ε there (and constant, p_∞ + slack, past the last entry).
type profile struct {
	h      float64
	kStart int          // grid index of entry 1
	delta  [2][]float64 // δ_d at the entries, non-increasing, rounded up
	sym    []float64    // max_d δ_d at the entries
	floor  [2]float64   // δ_d beyond the last entry: p_∞ + slack
	inf    [2]float64   // p_∞ of each direction
	slack  [2]float64   // numerical slack of each direction
	atoms  int          // grid points of the larger composed PLD
}

// eps returns the ε of entry i.
func (p *profile) eps(i int) float64 {
	if i == 0 {
		return 0
	}
	return float64(p.kStart+i-1) * p.h
}

// newProfile evaluates the profiles of the two composed PLDs (index 0
// remove, 1 add). For one direction with masses f_j at ε_j, the sums
// D_k = Σ_{j>k} f_j·(1 − e^{(k−j)h}) and S_k = Σ_{j>k} f_j·e^{(k−j)h}
// follow from the top down as
//
//	D_k = D_{k+1} + (1 − e^{−h})·(f_{k+1} + S_{k+1}),
//	S_k = e^{−h}·(f_{k+1} + S_{k+1}),
//
// sums of non-negative terms (no cancellation, relative error below
// 3·(K + 2)·u after K steps, which the final rounding covers). Below the
// first atom, δ is linear in e^ε: δ(0) = D_s + (1 − e^{−s·h})·(f_s + S_s)
// for the first entry s.
func newProfile(pmfs [2]*lossPMF, h float64) *profile {
	p := &profile{h: h}
	kStart, kEnd := math.MaxInt, 1
	for d, q := range pmfs {
		p.inf[d], p.slack[d] = q.inf, q.slack
		p.floor[d] = math.Min(nudgeUp(q.inf+q.slack, 2), 1)
		p.atoms = max(p.atoms, len(q.probs))
		if len(q.probs) > 0 {
			kStart = min(kStart, q.offset)
			kEnd = max(kEnd, q.offset+len(q.probs)-1)
		}
	}
	if kStart == math.MaxInt {
		kStart = 1
	}
	kStart = max(kStart, 1)
	p.kStart = kStart
	n := kEnd - kStart + 2 // entry 0 (ε = 0) and kStart … kEnd
	c := -math.Expm1(-h)
	decay := math.Exp(-h)
	for d, q := range pmfs {
		vals := make([]float64, n)
		var dk, sk float64 // D and S at the current k, starting at kEnd
		mass := func(k int) float64 {
			if i := k - q.offset; i >= 0 && i < len(q.probs) {
				return q.probs[i]
			}
			return 0
		}
		steps := 0
		for k := kEnd; k >= kStart; k-- {
			if k < kEnd {
				f := mass(k + 1)
				dk += c * (f + sk)
				sk = decay * (f + sk)
				steps++
			}
			vals[k-kStart+1] = dk
		}
		// Entry 0: ε = 0, below every atom (all atoms are at k ≥ kStart ≥ 1).
		vals[0] = dk + -math.Expm1(-float64(kStart)*h)*(mass(kStart)+sk)
		// Rounded up, made non-increasing, and clamped to 1: δ is a
		// difference of probabilities, at most 1 for ε ≥ 0, so 1 is an
		// upper bound whatever the accumulated slack.
		rel := 1 + float64(3*(steps+4))*numeric.UnitRoundoff
		running := 0.0
		for i := n - 1; i >= 0; i-- {
			v := nudgeUp(vals[i]*rel+q.inf+q.slack, 4)
			running = math.Min(math.Max(running, v), 1)
			vals[i] = running
		}
		p.delta[d] = vals
	}
	p.sym = make([]float64, n)
	for i := range p.sym {
		p.sym[i] = math.Max(p.delta[0][i], p.delta[1][i])
	}
	return p
}

// tailDelta returns max_d (p_∞ + slack), the profile beyond the last entry.
func (p *profile) tailDelta() float64 { return math.Max(p.floor[0], p.floor[1]) }

// deltaAt returns max_d δ_d(ε) for ε ≥ 0 (see directionDelta).
func (p *profile) deltaAt(eps float64) float64 {
	return math.Max(p.directionDelta(remove, eps), p.directionDelta(add, eps))
}

// directionDelta returns δ_d(ε) for ε ≥ 0, interpolating linearly in e^ε
// between entries, which is exact for the discrete PLD: with
// λ = (1 − e^{ε − ε_{i+1}})/(1 − e^{ε_i − ε_{i+1}}),
// δ_d(ε) = λ·δ_d(ε_i) + (1 − λ)·δ_d(ε_{i+1}), rounded up.
func (p *profile) directionDelta(d direction, eps float64) float64 {
	n := len(p.sym)
	if eps >= p.eps(n-1) {
		return p.floor[d]
	}
	// The entry i with ε_i ≤ ε < ε_{i+1}.
	i := sort.Search(n, func(j int) bool { return p.eps(j) > eps }) - 1
	e0, e1 := p.eps(i), p.eps(i+1)
	lambda := math.Expm1(eps-e1) / math.Expm1(e0-e1)
	lambda = math.Min(math.Max(lambda, 0), 1)
	v := lambda*p.delta[d][i] + (1-lambda)*p.delta[d][i+1]
	// The interpolation's rounding: a few ulps of the larger end.
	return math.Min(nudgeUp(v, 8), p.delta[d][i])
}

// epsilonAt returns the smallest ε ≥ 0 with max_d δ_d(ε) ≤ delta (each δ_d
// solved exactly on its linear piece in e^ε, rounded up), 0 if δ(0) ≤
// delta, +Inf if no ε reaches it.
func (p *profile) epsilonAt(delta float64) float64 {
	n := len(p.sym)
	if p.sym[0] <= delta {
		return 0
	}
	if p.sym[n-1] > delta {
		return math.Inf(1)
	}
	// The first entry at or below delta (sym is non-increasing).
	i := sort.Search(n, func(j int) bool { return p.sym[j] <= delta })
	e0, e1 := p.eps(i-1), p.eps(i)
	span := math.Expm1(e1 - e0)
	eps := e0
	for d := range p.delta {
		hi, lo := p.delta[d][i-1], p.delta[d][i]
		if hi <= delta {
			continue
		}
		frac := (hi - delta) / (hi - lo) // in (0, 1]: lo ≤ sym[i] ≤ delta < hi
		frac = math.Min(nudgeUp(frac, 4), 1)
		eps = math.Max(eps, e0+math.Log1p(span*frac))
	}
	return math.Min(nudgeUp(eps, 8), e1)
}
