package pld

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// lossPMF is a discretised privacy-loss distribution on the grid ε_k = k·h:
// probs[i] ≥ 0 is the mass at loss ε_{offset+i}, inf the mass at +∞. It
// carries slack, a bound on every numerical error made so far, with the
// invariant that for every real ε
//
//	δ_exact(ε) ≤ Σ_i probs[i]·(1 − e^{ε − ε_{offset+i}})₊ + inf + slack,
//
// where δ_exact is the hockey-stick divergence of the exact (continuous)
// mechanism's pair of output distributions in the PLD's direction. The
// invariant is kept by composition (see compose), so δ computed from a
// composed lossPMF is an upper bound on the composed mechanism's δ.
type lossPMF struct {
	offset int
	probs  []float64
	inf    float64
	slack  float64
}

// finiteMass returns an upper bound on Σ probs (a sum of n non-negative
// terms is within (n − 1)·u of the exact sum, relatively).
func (p *lossPMF) finiteMass() float64 {
	var s float64
	for _, x := range p.probs {
		s += x
	}
	return s * (1 + float64(len(p.probs)+1)*numeric.UnitRoundoff)
}

// trim drops zero masses at both ends.
func (p *lossPMF) trim() {
	lo, hi := 0, len(p.probs)
	for lo < hi && p.probs[lo] == 0 {
		lo++
	}
	for hi > lo && p.probs[hi-1] == 0 {
		hi--
	}
	p.offset += lo
	p.probs = p.probs[lo:hi]
}

// truncate clamps negative masses (floating-point noise of the FFT, whose
// size the slack already bounds) to 0, then moves the upper tail of at most
// maxUp mass to +∞ and the lower tail of at most maxLow mass onto the lowest
// kept grid point. Both moves only raise losses, so the profile does not
// decrease and the invariant holds without new slack; it returns the mass
// moved to +∞.
func (p *lossPMF) truncate(maxUp, maxLow float64) float64 {
	for i, x := range p.probs {
		if x < 0 {
			p.probs[i] = 0
		}
	}
	hi := len(p.probs)
	var up float64
	for hi > 0 && up+p.probs[hi-1] <= maxUp {
		up += p.probs[hi-1]
		hi--
	}
	up *= 1 + float64(len(p.probs)-hi+1)*numeric.UnitRoundoff
	if hi == 0 {
		p.inf = nudgeUp(p.inf+up, 2)
		p.probs = nil
		return up
	}
	lo := 0
	var low float64
	for lo < hi-1 && low+p.probs[lo] <= maxLow {
		low += p.probs[lo]
		lo++
	}
	if lo > 0 {
		p.probs[lo] = nudgeUp(p.probs[lo]+low*(1+float64(lo+1)*numeric.UnitRoundoff), 2)
	}
	p.offset += lo
	kept := p.probs[lo:hi]
	if 2*len(kept) < cap(p.probs) {
		kept = append([]float64(nil), kept...)
	}
	p.probs = kept
	p.inf = nudgeUp(p.inf+up, 2)
	p.trim()
	return up
}

// compose returns the PLD of the composition of two mechanisms with PLDs a
// and b: the convolution of the finite parts, with mass at +∞ whenever
// either loss is +∞. If δ_a ≤ δ(ν_a) + e_a and δ_b ≤ δ(ν_b) + e_b, then
//
//	δ_{a∘b}(ε) = E_{L_b}[δ_a(ε − L_b)] ≤ δ(ν_a ∗ ν_b)(ε) + e_a + e_b·|ν_a|,
//
// because ε ↦ δ(ε) and, for a fixed ε, l ↦ δ(ε − l) is a mixture of the
// hockey-stick functions l ↦ (1 − e^{c − l})₊ (for the composed profile
// identity see Meiser & Mohammadi 2018, Lemma 5, or Koskela et al. 2020,
// Thm 5); the exact b has total mass 1. The rounding error of the
// convolution (an ℓ1 bound, convolve) adds to the slack. The tails of the
// result are then truncated (truncate) with at most tailUp + the ℓ1 bound
// of mass moved to +∞: past that point the computed values are within the
// rounding noise.
func (cv *convolver) compose(a, b *lossPMF, tailUp, tailLow float64) *lossPMF {
	sa, sb := a.finiteMass(), b.finiteMass()
	c := &lossPMF{offset: a.offset + b.offset}
	var convErr float64
	if len(a.probs) > 0 && len(b.probs) > 0 {
		c.probs, convErr = cv.convolve(a.probs, b.probs)
	}
	// The exact b has total mass 1, the discrete one sb + b.inf ≈ 1: a's
	// mass at +∞ stays there whichever it is.
	c.inf = nudgeUp(a.inf*math.Max(sb+b.inf, 1)+sa*b.inf, 4)
	c.slack = nudgeUp(a.slack+b.slack*(sa+a.inf)+convErr, 4)
	c.truncate(tailUp+convErr, tailLow+convErr)
	return c
}

// positivePart drops every mass at a loss ≤ 0, which contributes nothing to
// δ(ε) for ε ≥ 0: (1 − e^{ε − l})₊ = 0 for l ≤ ε. Only ε ≥ 0 is evaluated
// from a final PLD (negative ε through the symmetry of the profile).
func (p *lossPMF) positivePart() *lossPMF {
	q := &lossPMF{offset: p.offset, probs: p.probs, inf: p.inf, slack: p.slack}
	if q.offset < 1 {
		skip := min(1-q.offset, len(q.probs))
		q.probs = q.probs[skip:]
		q.offset += skip
	}
	q.trim()
	return q
}
