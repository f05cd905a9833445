package pld

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Kind names the mechanism of a Stage. The zero value is the
// Poisson-subsampled Gaussian of DP-SGD, so that a Stage written with its
// three DP-SGD fields alone keeps its meaning.
type Kind uint8

// The mechanisms a Stage may describe.
const (
	// SubsampledGaussian is the Poisson-subsampled Gaussian mechanism
	// (NoiseMultiplier, SampleRate; SampleRate 1 is the Gaussian mechanism
	// with μ = 1/NoiseMultiplier).
	SubsampledGaussian Kind = iota
	// Laplace is the Laplace mechanism with ε = Δ/b (Epsilon).
	Laplace
	// RandomizedResponse is k-ary randomized response (Epsilon,
	// Categories k ≥ 2) under replace-one neighbours.
	RandomizedResponse
	// EpsilonDelta is any (ε, δ)-DP mechanism (Epsilon, Delta; pure at
	// δ = 0), through its dominating pair.
	EpsilonDelta
)

func (k Kind) String() string {
	names := [...]string{"subsampled Gaussian", "Laplace", "randomized response", "(ε, δ)"} // in the order of the constants
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// stepMechanism is one step of a mechanism as the accountant needs it: the
// moments and range of its privacy loss (to size the grid) and its
// pessimistic discretisation on a grid.
type stepMechanism interface {
	lossMoments(d direction) (mean, variance float64)
	lossRange(d direction, tail float64) (lo, hi float64)
	stepPMF(d direction, h, tail float64, maxAtoms int) (*lossPMF, error)
	// symmetric reports whether both directions have the same PLD.
	symmetric() bool
	// anchor returns a loss the grid should hit exactly (the atoms' ±ε),
	// or 0.
	anchor() float64
	// exactOn reports whether the discretisation on grid step h is the
	// mechanism's own PLD (every loss a grid point): no discretisation
	// error.
	exactOn(h float64) bool
}

// stepOf returns the step mechanism of a validated stage.
func stepOf(st Stage) stepMechanism {
	switch st.Mechanism {
	case Laplace:
		return laplaceStep{eps: st.Epsilon}
	case RandomizedResponse:
		return rrStep(st.Epsilon, st.Categories)
	case EpsilonDelta:
		return epsDeltaStep(st.Epsilon, st.Delta)
	}
	m := newSubsampledGaussian(st.NoiseMultiplier, st.SampleRate)
	return &m
}

func (m *subsampledGaussian) symmetric() bool                        { return m.q == 1 }
func (m *subsampledGaussian) anchor() float64                        { return 0 }
func (m *subsampledGaussian) exactOn(float64) bool                   { return false }
func (m laplaceStep) symmetric() bool                                { return true }
func (m laplaceStep) anchor() float64                                { return m.eps }
func (m laplaceStep) exactOn(float64) bool                           { return m.eps == 0 }
func (m discreteStep) symmetric() bool                               { return true }
func (m discreteStep) anchor() float64                               { return m.eps }
func (m discreteStep) lossRange(direction, float64) (lo, hi float64) { return -m.eps, m.eps }

// discreteStep is a mechanism whose privacy loss takes the values +∞, ε,
// 0 and −ε (with P-masses inf, plus, zero and minus; the rest of P, if
// any, at −∞), the same in both directions. Two mechanisms are of this
// kind:
//
// k-ary randomized response (Warner 1965; Kairouz, Oh & Viswanath 2016),
// whose output on input a is a with probability p = e^ε/(e^ε + k − 1) and
// each other value with q = 1/(e^ε + k − 1): against input b the loss
// ln(P/Q) is ε on output a (mass p), −ε on output b (mass q) and 0 on the
// k − 2 others (mass (k − 2)q); the pair (b, a) gives the same PLD.
//
// The dominating pair of an (ε, δ)-DP mechanism (Kairouz, Oh & Viswanath
// 2015, Thm 2.5 and the proof of Thm 3.3): P = (δ, (1 − δ)e^ε/(1 + e^ε),
// (1 − δ)/(1 + e^ε), 0) against its mirror image, whose loss is +∞ with
// mass δ, ε with (1 − δ)·e^ε/(1 + e^ε) and −ε with (1 − δ)/(1 + e^ε).
// Every (ε, δ)-DP mechanism is a post-processing of it, so its composed
// PLD bounds the composition of any such mechanisms.
type discreteStep struct {
	eps                     float64
	plus, zero, minus, infM float64
}

// rrStep is the discrete PLD of k-ary randomized response.
func rrStep(eps float64, k int) discreteStep {
	p := numeric.Logistic(eps - math.Log(float64(k-1))) // e^ε/(e^ε + k − 1)
	q := p * math.Exp(-eps)
	// Rounded up by a few ulps (the masses carry a few roundings), which
	// only raises the profile.
	return discreteStep{eps: eps, plus: nudgeUp(p, 4), zero: nudgeUp(float64(k-2)*q, 6), minus: nudgeUp(q, 6)}
}

// epsDeltaStep is the discrete PLD of the dominating pair of (ε, δ)-DP.
func epsDeltaStep(eps, delta float64) discreteStep {
	return discreteStep{eps: eps, plus: nudgeUp((1-delta)*numeric.Logistic(eps), 6), minus: nudgeUp((1-delta)*numeric.Logistic(-eps), 6), infM: delta}
}

// exactOn reports whether ε is a whole number of grid steps h.
func (m discreteStep) exactOn(h float64) bool {
	k := math.Round(m.eps / h)
	return math.FMA(k, h, -m.eps) == 0
}

func (m discreteStep) lossMoments(direction) (mean, variance float64) {
	mean = m.eps * (m.plus - m.minus)
	second := m.eps * m.eps * (m.plus + m.minus)
	return mean, math.Max(second-mean*mean, 0)
}

// stepPMF places the atoms on the grid (placeAtom); the mass at +∞ stays
// there.
func (m discreteStep) stepPMF(_ direction, h, _ float64, maxAtoms int) (*lossPMF, error) {
	g, err := newGridSpan(-m.eps, m.eps, h, maxAtoms)
	if err != nil {
		return nil, err
	}
	p := g.pmf()
	placeAtom(p, m.eps, m.plus, h)
	placeAtom(p, 0, m.zero, h)
	placeAtom(p, -m.eps, m.minus, h)
	p.inf = nudgeUp(m.infM, 2)
	p.trim()
	return p, nil
}

// gridSpan is the range of grid indices lo … hi covering a loss range.
type gridSpan struct{ lo, hi int }

// newGridSpan returns the grid indices from ⌊lo/h⌋ to ⌈hi/h⌉ (with room
// for rounding), or an error if they are more than maxAtoms.
func newGridSpan(lo, hi, h float64, maxAtoms int) (gridSpan, error) {
	a, b := math.Floor(lo/h)-1, math.Ceil(hi/h)+1
	if !(b-a+1 <= float64(maxAtoms)) {
		return gridSpan{}, fmt.Errorf("the privacy loss spans %g grid points (more than %d): the grid step %g is too fine", b-a+1, maxAtoms, h)
	}
	return gridSpan{lo: int(a), hi: int(b)}, nil
}

func (g gridSpan) pmf() *lossPMF {
	return &lossPMF{offset: g.lo, probs: make([]float64, g.hi-g.lo+1)}
}

// floorIndex returns the largest k with k·h ≤ l (exactly, not as rounded)
// and d = l − k·h ≥ 0 (rounded once).
func floorIndex(l, h float64) (k int, d float64) {
	r := math.Floor(l / h)
	if math.FMA(r, h, -l) > 0 {
		r--
	} else if math.FMA(r+1, h, -l) <= 0 {
		r++
	}
	return int(r), -math.FMA(r, h, -l)
}

// placeAtom adds mass m at loss l to p by the connect-the-dots rule
// (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, Alg. 1): on the
// grid point below l and the one above, with ρ = m·(1 − e^{−d})/(1 − e^{−h})
// on the upper one (d = l − ε_k), which keeps both the P-mass and the
// Q-mass m·e^{−l}, so the profile of the pair is the chord of the atom's
// own and lies above it. An atom on a grid point (d = 0 exactly: the
// fused multiply-add rounds only once, so a nonzero l − k·h is not 0) stays
// there. Otherwise d carries a relative error of one rounding, and ρ is
// rounded up by 8 ulps, which covers it and the few operations of ρ:
// more mass on the upper point only raises the profile.
func placeAtom(p *lossPMF, l, m, h float64) {
	if m == 0 {
		return
	}
	k, d := floorIndex(l, h)
	i := k - p.offset
	if d == 0 {
		p.probs[i] += m
	} else {
		rho := math.Min(m, nudgeUp(m*-math.Expm1(-d)/-math.Expm1(-h), 8))
		p.probs[i+1] += rho
		p.probs[i] += m - rho
	}
}

// laplaceStep is the Laplace mechanism with ε = Δ/b, the pair
// (Lap(0, 1), Lap(ε, 1)) (the other order has the same PLD). Its privacy
// loss |x − ε| − |x| is ε for x ≤ 0 (P-mass ½), −ε for x ≥ ε (P-mass
// e^{−ε}/2), and ε − 2x in between, with density e^{(l − ε)/2}/4 on
// (−ε, ε) (Kulynych et al. 2025 compose it in App. G.1; the loss is that of
// Koskela et al. 2021 and of dp_accounting's LaplacePrivacyLoss).
type laplaceStep struct{ eps float64 }

func (m laplaceStep) lossRange(direction, float64) (lo, hi float64) { return -m.eps, m.eps }

// lossMoments: E[L] = ε − 1 + e^{−ε} (the KL divergence) and E[L²] from
// the atoms and the continuous part by Gauss–Legendre quadrature (they
// only size the grid).
func (m laplaceStep) lossMoments(direction) (mean, variance float64) {
	e := m.eps
	mean = e - 1 + math.Exp(-e)
	second := e * e * (0.5 + 0.5*math.Exp(-e))
	rule := newGaussLegendre(16)
	for i, x := range rule.nodes {
		l := e * x
		second += e * rule.weights[i] * l * l * math.Exp((l-e)/2) / 4
	}
	return mean, math.Max(second-mean*mean, 0)
}

// stepPMF is the connect-the-dots discretisation of the Laplace PLD: the
// atoms at ±ε by placeAtom, and each grid interval (ε_k, ε_{k+1}] of the
// continuous part, restricted to [lo, hi] ⊂ [−ε, ε], split between its two
// ends with ρ_k = w_k/(1 − e^{−h}) on the upper one (see
// subsampledGaussian.stepPMF). In closed form, with s = hi − lo and
// d = lo − ε_k,
//
//	u_k = e^{(lo − ε)/2}·expm1(s/2)/2,
//	w_k = E[(1 − e^{ε_k − L})·1{L ∈ [lo, hi]}]
//	    = e^{(lo − ε)/2}·(2·sinh²(s/4) + (1 − e^{−d})·(1 − e^{−s/2})/2),
//
// sums of positive terms (1 − e^{ε_k − l} = (1 − e^{lo − l}) +
// e^{lo − l}(1 − e^{−d})). Each is rounded up by 16 ulps, which covers the
// few operations of each closed form. The grid points are products k·h
// rounded once; a boundary off by an ulp moves at most density × ulp of
// mass by at most one grid step, which the slack covers.
func (m laplaceStep) stepPMF(_ direction, h, _ float64, maxAtoms int) (*lossPMF, error) {
	e := m.eps
	g, err := newGridSpan(-e, e, h, maxAtoms)
	if err != nil {
		return nil, err
	}
	p := g.pmf()
	placeAtom(p, e, 0.5, h)
	placeAtom(p, -e, nudgeUp(0.5*math.Exp(-e), 2), h)
	var slack float64
	if e > 0 {
		split := -math.Expm1(-h)
		k0, _ := floorIndex(-e, h)
		intervals := 0
		for k := k0; float64(k)*h < e; k++ {
			lo, hi := math.Max(float64(k)*h, -e), math.Min(float64(k+1)*h, e)
			if !(hi > lo) {
				continue
			}
			s, d := hi-lo, lo-float64(k)*h
			scale := math.Exp((lo - e) / 2)
			u := nudgeUp(scale*math.Expm1(s/2)/2, 16)
			sh := math.Sinh(s / 4)
			w := nudgeUp(scale*(2*sh*sh+-math.Expm1(-d)*-math.Expm1(-s/2)/2), 16)
			rho := math.Min(u, nudgeUp(w/split, 4))
			p.probs[k+1-p.offset] += rho
			p.probs[k-p.offset] += u - rho
			intervals++
		}
		// Boundary rounding: ≤ 2 ulps of |l| ≤ ε + h at each of the
		// interval ends, density ≤ 1/4, moved by at most 1 − e^{−2h}.
		slack += float64(intervals+1) * 0.25 * 4 * numeric.MachineEpsilon * (e + h) * -math.Expm1(-2*h)
	}
	p.slack = nudgeUp(slack, 2) + 4*math.SmallestNonzeroFloat64
	p.trim()
	return p, nil
}
