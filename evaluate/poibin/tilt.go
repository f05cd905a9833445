package poibin

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// logTilted returns ln Pr[S' ≥ k] (upper) or ln Pr[S' ≤ k] (lower) for the
// sum S' of the m non-degenerate terms, 1 ≤ k ≤ m − 1, by exponential
// tilting (the Esscher transform; e.g. Dembo & Zeitouni, "Large Deviations
// Techniques and Applications", §2.2, used here as an exact change of
// measure, not as an approximation):
//
//	Pr[S' = j] = exp(K(θ) − θj)·Pr_θ[S' = j],   K(θ) = Σ_i ln(q_i + β_i e^θ),
//
// where under Pr_θ the terms are Bernoulli(β_i(θ)) with logit β_i(θ) =
// logit β_i + θ. θ is chosen (Newton on Σ_i β_i(θ) = k, to ±0.25) so that
// the tilted mass sits at k; then
//
//	Pr[S' ≥ k] = exp(K(θ) − θk)·Σ_{j ≥ k} e^{−θ(j − k)}·Pr_θ[S' = j]
//
// and the sum is ≳ Pr_θ[S' = k] ≈ 1/(σ_θ√(2π)), far above the tilted
// product's absolute round-off, so it is accurate to ~1e-13 relative.
// K(θ) − θk is summed as θ(m − k) + Σ ln(β_i + q_i e^{−θ}) for θ ≥ 0 and
// −θk + Σ ln(q_i + β_i e^{θ}) for θ < 0: each logarithm is of a sum of two
// non-negative numbers (no cancellation, no overflow for any θ).
func (d *Dist) logTilted(k int, upper bool) float64 {
	m := d.m
	z := make([]float64, m)
	for i := range z {
		z[i] = math.Log(d.beta[i]) - math.Log(d.q[i])
	}
	mu := d.mean - float64(d.shift)
	theta0 := logitRatio(float64(k), float64(m)) - logitRatio(mu, float64(m))
	theta := solveTilt(z, float64(k), theta0)

	bt := make([]float64, m)
	qt := make([]float64, m)
	for i, zi := range z {
		bt[i] = numeric.Logistic(zi + theta)
		qt[i] = numeric.Logistic(-zi - theta)
	}
	bld := builder{noFFT: d.opts.noFFT}
	blk := bld.product(bt, qt)

	var s numeric.Sum
	for j, p := range blk.p {
		at := blk.lo + j
		if p <= 0 || (upper && at < k) || (!upper && at > k) {
			continue
		}
		s.Add(p * math.Exp(-theta*float64(at-k)))
	}

	var kt numeric.Sum
	var base float64
	if theta >= 0 {
		e := math.Exp(-theta)
		for i, b := range d.beta {
			kt.Add(math.Log(b + d.q[i]*e))
		}
		base = theta*float64(m-k) + kt.Value()
	} else {
		e := math.Exp(theta)
		for i, b := range d.beta {
			kt.Add(math.Log(d.q[i] + b*e))
		}
		base = -theta*float64(k) + kt.Value()
	}
	return base + math.Log(s.Value())
}

// solveTilt returns θ with |Σ_i σ(z_i + θ) − target| ≤ 1/4, by safeguarded
// Newton steps (the left side increases in θ with derivative
// Σ σ(z_i + θ)σ(−z_i − θ)). Any θ makes the tilting identity exact; this
// one only makes it well conditioned.
func solveTilt(z []float64, target, theta float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	if math.IsNaN(theta) || math.IsInf(theta, 0) {
		theta = 0
	}
	for iter := 0; iter < 200; iter++ {
		var g, dg float64
		for _, zi := range z {
			b := numeric.Logistic(zi + theta)
			g += b
			dg += b * numeric.Logistic(-zi-theta)
		}
		g -= target
		if math.Abs(g) <= 0.25 {
			break
		}
		if g < 0 {
			lo = theta
		} else {
			hi = theta
		}
		step := -g / dg
		if !(math.Abs(step) <= 16) {
			step = math.Copysign(16, -g)
		}
		next := theta + step
		if !(next > lo && next < hi) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			next = lo + (hi-lo)/2
		}
		theta = next
	}
	return theta
}

// logitRatio returns ln(a/(m − a)), the logit of a/m, for 0 < a < m.
func logitRatio(a, m float64) float64 {
	return math.Log(a) - math.Log(m-a)
}
