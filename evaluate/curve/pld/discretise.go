package pld

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// direction names the ordered pair of output distributions whose privacy
// loss a PLD describes. Under add/remove neighbours and Poisson sampling
// the two orders give different PLDs, and both are accounted for.
type direction int

const (
	// remove is the pair (U, V) = ((1 − q)·N(0, σ²) + q·N(1, σ²), N(0, σ²)):
	// the output with the record against the output without it
	// (dp_accounting's REMOVE adjacency).
	remove direction = iota
	// add is the reverse pair (N(0, σ²), (1 − q)·N(0, σ²) + q·N(1, σ²))
	// (dp_accounting's ADD adjacency).
	add
)

func (d direction) String() string {
	if d == remove {
		return "remove"
	}
	return "add"
}

// subsampledGaussian is one step of the Poisson-subsampled Gaussian
// mechanism with sensitivity 1, noise multiplier σ and sampling rate q,
// written in the standardised variable z = x/σ: the output without the
// record has density φ(z), the output with it (1 − q)·φ(z) + q·φ(z − μ),
// μ = 1/σ. The privacy loss of the remove direction at z is
//
//	L(z) = ln(1 − q + q·e^{μz − μ²/2}),
//
// increasing in z from ln(1 − q) to +∞; the add direction's loss is −L(z),
// with the add direction's U = N(0, 1) (Mironov, Talwar & Zhang 2019, §3;
// Koskela et al. 2020, §6).
type subsampledGaussian struct {
	sigma, q, mu   float64
	logQ, log1mQ   float64 // ln q, ln(1 − q) (−Inf at q = 1)
	halfMuSq       float64 // μ²/2
	panelWidthMax  float64 // the widest quadrature panel, min(1, σ)
	rule4, rule8   gaussLegendre
	rule16         gaussLegendre
	relativeMargin float64
}

func newSubsampledGaussian(sigma, q float64) subsampledGaussian {
	mu := 1 / sigma
	return subsampledGaussian{
		sigma: sigma, q: q, mu: mu,
		logQ: numeric.LogPos(q), log1mQ: math.Log1p(-q),
		halfMuSq:       0.5 * mu * mu,
		panelWidthMax:  math.Min(1, sigma),
		rule4:          newGaussLegendre(4),
		rule8:          newGaussLegendre(8),
		rule16:         newGaussLegendre(16),
		relativeMargin: quadratureMargin,
	}
}

// quadratureMargin is the relative margin added to every interval mass:
// it covers the rounding of the quadrature sums (under 100 operations of
// relative error u each) and the truncation error of the Gauss–Legendre
// rules, which on the panels used here (width × the integrand's log-slope
// ≤ 1.5) is below 1e-20 relative; a test checks the masses against
// closed forms.
const quadratureMargin = 1e-12

// loss returns L(z) = ln(1 − q + q·e^{μz − μ²/2}), the remove-direction
// privacy loss at z.
func (m *subsampledGaussian) loss(z float64) float64 {
	return numeric.LogSumExp(m.log1mQ, m.logQ+m.mu*z-m.halfMuSq)
}

// threshold returns the z with L(z) = ε,
//
//	z = (ln(e^ε − 1 + q) − ln q + μ²/2)/μ,
//
// or −Inf when ε ≤ ln(1 − q), below every loss. It also returns a bound on
// the absolute rounding error of z. ln(e^ε − (1 − q)) is evaluated as
// ε + ln(1 − (1 − q)·e^{−ε}) while (1 − q)·e^{−ε} ≤ ½ (always at q = 1,
// where it is ε itself: e^ε − 1 + q would lose every digit for ε ≪ 0),
// and as ln(expm1(ε) + q) otherwise, whose cancellation near ε = ln(1 − q)
// is intrinsic and enters the error bound.
func (m *subsampledGaussian) threshold(eps float64) (z, zErr float64) {
	var lt, ltErr float64 // ln(e^ε − 1 + q) and its error
	if x := (1 - m.q) * math.Exp(-eps); m.q == 1 || x <= 0.5 {
		if m.q < 1 {
			// x carries a relative error ≤ 3u, which log1p(−x) turns into
			// an absolute one ≤ 3u·x/(1 − x) ≤ 3u.
			lt = eps + math.Log1p(-x)
			ltErr = 4*numeric.UnitRoundoff + 2*numeric.UnitRoundoff*math.Abs(lt)
		} else {
			lt = eps
		}
	} else {
		em := math.Expm1(eps)
		v := em + m.q
		if !(v > 0) {
			return math.Inf(-1), 0
		}
		lt = numeric.LogPos(v)
		ltErr = 4*numeric.UnitRoundoff*(math.Abs(em)+m.q)/v + 2*numeric.UnitRoundoff*math.Abs(lt)
	}
	num := lt - m.logQ + m.halfMuSq
	z = num / m.mu
	zErr = (ltErr + 4*numeric.UnitRoundoff*(math.Abs(lt)+math.Abs(m.logQ)+m.halfMuSq)) / m.mu
	zErr += 2 * numeric.UnitRoundoff * math.Abs(z)
	return z, zErr
}

// integrate returns ∫ f over [za, zb] by Gauss–Legendre panels no wider
// than min(1, σ) nor 1.5/max(1, |z|, |z − μ|), so that both the Gaussian
// factors and the e^{μz} factor of the integrands vary by at most e^{1.5}
// over a panel; narrow panels use 8 nodes (the narrowest 4), the others 16. f returns two
// integrands at once. Limits beyond ±38.6 (and μ + 38.6) are clipped: the
// normal densities are below the smallest float64 there.
func (m *subsampledGaussian) integrate(za, zb float64, f func(z float64) (float64, float64)) (float64, float64) {
	const far = 38.6
	za = math.Max(za, -far)
	zb = math.Min(zb, m.mu+far)
	var s1, s2 float64
	for z := za; z < zb; {
		scale := math.Max(1, math.Max(math.Abs(z), math.Abs(z-m.mu)))
		w := math.Min(m.panelWidthMax, 1.5/scale)
		if end := z + w; end < zb {
			// The slope grows with |z|: use the panel's far end too.
			w = math.Min(w, 1.5/math.Max(1, math.Max(math.Abs(end), math.Abs(end-m.mu))))
		}
		w = math.Min(w, zb-z)
		rule := m.rule16
		switch slope := math.Max(scale, m.mu); {
		case w*(slope+3) <= 0.03:
			// The 2n-th derivative of the integrands (Gaussian densities,
			// e^{μz} and expm1 factors) is at most (slope + 3)^{2n} times
			// their size for n = 4 (Hermite polynomials of degree 8 at
			// |z| ≤ scale): the 4-point rule's relative error is below
			// (w·(slope + 3))^8·(4!)^4/(9·(8!)^3) < 4e-22.
			rule = m.rule4
		case w*slope <= 0.2:
			rule = m.rule8
		}
		mid, half := z+0.5*w, 0.5*w
		var p1, p2 float64
		for i, x := range rule.nodes {
			a, b := f(mid + half*x)
			p1 += rule.weights[i] * a
			p2 += rule.weights[i] * b
		}
		s1 += half * p1
		s2 += half * p2
		if z+w == z {
			break
		}
		z += w
	}
	return s1, s2
}

// lossRange returns losses lo < hi bounding the one-step privacy loss in
// direction d under U except on events of U-mass at most tail at each end
// (fewer where the loss is bounded: ln(1 − q) ≤ L, and the add direction's
// loss is at most −ln(1 − q)).
func (m *subsampledGaussian) lossRange(d direction, tail float64) (lo, hi float64) {
	zt := numeric.NormUpperQuantileAbove(tail) // N(0, 1) mass above zt is at most tail
	switch d {
	case remove:
		// U = (1 − q)φ(z) + qφ(z − μ): above z = μ + zt and below z = −zt
		// (below μ − zt at q = 1) both parts have mass ≤ tail; the loss is
		// increasing in z.
		zLow := -zt
		if m.q == 1 {
			zLow = m.mu - zt
		}
		return m.loss(zLow), m.loss(m.mu + zt)
	default:
		// U = φ(z); the loss −L(z) is decreasing in z.
		return -m.loss(zt), -m.loss(-zt)
	}
}

// lossSlope returns an upper bound on L′(z) = μ·(1 − (1 − q)·e^{−L(z)})
// where L(z) ≤ l.
func (m *subsampledGaussian) lossSlope(l float64) float64 {
	return m.mu * math.Max(-math.Expm1(m.log1mQ-l), 0) * (1 + 4*numeric.UnitRoundoff)
}

// stepPMF returns the connect-the-dots discretisation (Doroshenko, Ghazi,
// Kamath, Kumar & Manurangsi 2022, "Connect the Dots: Tighter Discrete
// Approximations of Privacy Loss Distributions", PETS, Thm 3.4 and Alg. 1)
// of one step's PLD in direction d on the grid ε_k = k·h, pessimistic: its
// privacy profile (hockey-stick divergence)
//
//	δ(ε) = Σ_k p_k·(1 − e^{ε − ε_k})₊ + p_∞
//
// is, for every real ε, at least the exact δ(ε) of the step (up to the
// returned slack).
//
// The mass of each loss interval I_k = (ε_k, ε_{k+1}], u_k = U(L ∈ I_k),
// is split between its two ends so that both its U-mass and its V-mass are
// kept: the upper end gets ρ_k = w_k/(1 − e^{−h}) with
//
//	w_k = E_U[(1 − e^{ε_k − L})·1{L ∈ I_k}],
//
// the lower end u_k − ρ_k. The profile of that two-point distribution is
// the chord of the interval's (convex in e^ε) exact profile, hence above
// it, and equal to it at the grid points. u_k and w_k are integrals of
// positive integrands (w's integrand is written with expm1), computed by
// Gauss–Legendre quadrature and rounded up by a relative quadratureMargin,
// so the split keeps relative precision even where u_k is 1e-300; rounding
// ρ up and u up only moves mass to larger losses, which keeps the profile
// above the exact one.
//
// The grid runs from ε_lo to ε_hi (lossRange). Mass with loss above ε_hi
// goes to +∞ and mass with loss at most ε_lo to ε_lo; both moves raise
// losses, so the profile stays above the exact one.
//
// Rounding of the interval boundaries (the z of each ε_k, off by at most
// Δz) has two effects, both returned as slack: the mass in a sliver of
// width Δz lands in the neighbouring interval, which changes its
// contribution to the profile by at most its mass times 1 − e^{−2h}; and
// w_k is computed for a threshold ε̂ with |ε̂ − ε_k| ≤ L′·Δz (lossSlope),
// which moves w_k by at most u_k·(e^{L′Δz} − 1), and the profile by at
// most as much.
func (m *subsampledGaussian) stepPMF(d direction, h, tail float64, maxAtoms int) (*lossPMF, error) {
	loLoss, hiLoss := m.lossRange(d, tail)
	lo, hi := int(math.Floor(loLoss/h)), int(math.Ceil(hiLoss/h))
	hi = max(hi, lo+1)
	if span := math.Ceil(hiLoss/h) - math.Floor(loLoss/h); !(span < float64(maxAtoms)) || hi-lo+1 > maxAtoms {
		return nil, fmt.Errorf("one step's privacy loss spans %d grid points (more than %d): the grid step %g is too fine for σ = %g, q = %g", hi-lo+1, maxAtoms, h, m.sigma, m.q)
	}
	p := &lossPMF{offset: lo, probs: make([]float64, hi-lo+1)}
	split := -math.Expm1(-h)     // 1 − e^{−h}
	shift := -math.Expm1(-2 * h) // the most a sliver's move changes the profile, per unit mass
	up := 1 + m.relativeMargin

	// zAt(k) returns the z bounding the loss interval at grid index k:
	// remove: L(z) = ε_k; add: −L(z) = ε_k, i.e. L(z) = −ε_k.
	zAt := func(k int) (float64, float64) {
		if d == remove {
			return m.threshold(float64(k) * h)
		}
		return m.threshold(-float64(k) * h)
	}
	var slack float64
	boundary := func(z, zErr float64) {
		if math.IsInf(z, 0) || zErr == 0 {
			return
		}
		// The densities of both components at both ends of [z − Δz, z + Δz]
		// bound U's density on it (Δz is tiny next to the scale 1 of φ).
		dens := numeric.NormPDF(z-zErr) + numeric.NormPDF(z+zErr) + numeric.NormPDF(z-m.mu-zErr) + numeric.NormPDF(z-m.mu+zErr)
		slack += dens * 2 * zErr * shift
	}
	zLo, errLo := zAt(lo)
	zPrev, errPrev := zLo, errLo
	for k := lo; k < hi; k++ {
		zNext, errNext := zAt(k + 1)
		eps := float64(k) * h
		var u, w float64
		switch d {
		case remove:
			u, w = m.removeInterval(eps, zPrev, zNext)
		case add:
			u, w = m.addInterval(eps, zNext, zPrev)
		}
		if u > 0 {
			u *= up
			w *= up
			rho := math.Min(u, w/split*(1+4*numeric.UnitRoundoff))
			p.probs[k+1-lo] += rho
			p.probs[k-lo] += math.Max(u-rho, 0)
			// Both integrands of w take their threshold from zPrev, where
			// L ≤ ε_{k+1} (remove) or L ≤ −ε_k + h (add).
			if !math.IsInf(zPrev, 0) {
				l := eps + h
				if d == add {
					l = -eps + h
				}
				slack += u * math.Min(math.Expm1(m.lossSlope(l)*errPrev)*(1+4*numeric.UnitRoundoff), 1)
			}
		}
		boundary(zPrev, errPrev)
		zPrev, errPrev = zNext, errNext
	}
	boundary(zPrev, errPrev)
	zHi := zPrev
	// The tails beyond the grid, as closed forms of positive terms.
	switch d {
	case remove:
		// Losses above ε_hi are z > zHi; losses at most ε_lo are z ≤ zLo.
		p.inf = ((1-m.q)*numeric.NormSF(zHi) + m.q*numeric.NormSF(zHi-m.mu)) * up
		if !math.IsInf(zLo, -1) {
			p.probs[0] += ((1-m.q)*numeric.NormCDF(zLo) + m.q*numeric.NormCDF(zLo-m.mu)) * up
		}
	case add:
		// Losses at most ε_lo are z ≥ zLo; losses above ε_hi are z < zHi.
		p.probs[0] += numeric.NormSF(zLo) * up
		if !math.IsInf(zHi, -1) {
			p.inf = numeric.NormCDF(zHi) * up
		}
	}
	p.slack = nudgeUp(slack*2, 4) + 4*math.SmallestNonzeroFloat64
	p.trim()
	return p, nil
}

// removeInterval returns u = U(L ∈ (ε, ε + h]) and
// w = E_U[(1 − e^{ε − L})·1{L ∈ (ε, ε + h]}] for the remove direction,
// where the interval is z ∈ (za, zb] (za = −Inf when ε ≤ ln(1 − q)).
//
// With U-density (1 − q)φ(z) + qφ(z − μ) and V-density φ(z), the integrand
// of w is U − e^ε·V = qφ(z − μ)·(−expm1(μ(z_ε − z))) when ε > ln(1 − q)
// (z_ε = za), and (1 − q)(1 − e^{ε}/(1 − q))·φ(z) + qφ(z − μ) otherwise,
// both sums of positive terms.
func (m *subsampledGaussian) removeInterval(eps, za, zb float64) (u, w float64) {
	if math.IsInf(za, -1) {
		// The whole lower half-line: closed forms.
		c := (1 - m.q) * -math.Expm1(eps-m.log1mQ)
		pb, pbm := numeric.NormCDF(zb), numeric.NormCDF(zb-m.mu)
		return (1-m.q)*pb + m.q*pbm, c*pb + m.q*pbm
	}
	mu, q := m.mu, m.q
	return m.integrate(za, zb, func(z float64) (float64, float64) {
		p0, p1 := numeric.NormPDF(z), numeric.NormPDF(z-mu)
		return (1-q)*p0 + q*p1, q * p1 * -math.Expm1(mu*(za-z))
	})
}

// addInterval returns u and w (as removeInterval) for the add direction,
// whose interval (ε, ε + h] of loss −L(z) is z ∈ [za, zb), zb = z_{−ε}
// (za = −Inf when ε + h ≥ −ln(1 − q)). With U-density φ(z) and V-density
// (1 − q)φ(z) + qφ(z − μ) the integrand of w is
// (1 − e^ε(1 − q))·φ(z)·(−expm1(μ(z − zb))), positive for z < zb.
func (m *subsampledGaussian) addInterval(eps, za, zb float64) (u, w float64) {
	if math.IsInf(zb, -1) {
		return 0, 0 // ε ≥ −ln(1 − q): no loss is that large
	}
	c := -math.Expm1(eps + m.log1mQ)
	mu := m.mu
	return m.integrate(za, zb, func(z float64) (float64, float64) {
		p0 := numeric.NormPDF(z)
		return p0, c * p0 * -math.Expm1(mu*(z-zb))
	})
}

// lossMoments returns the mean and variance of the privacy loss under U in
// direction d, by the same quadrature; they size the grid. U's mass lies
// within 40 of 0 or of μ (the remove direction's U has a component at μ),
// so for large μ the gap between is skipped.
func (m *subsampledGaussian) lossMoments(d direction) (mean, variance float64) {
	mu, q := m.mu, m.q
	var f func(z float64) (float64, float64)
	if d == remove {
		f = func(z float64) (float64, float64) {
			dens := (1-q)*numeric.NormPDF(z) + q*numeric.NormPDF(z-mu)
			l := m.loss(z)
			return dens * l, dens * l * l
		}
	} else {
		f = func(z float64) (float64, float64) {
			dens := numeric.NormPDF(z)
			l := -m.loss(z)
			return dens * l, dens * l * l
		}
	}
	var s1, s2 float64
	switch {
	case mu <= 80:
		s1, s2 = m.integrate(-40, mu+40, f)
	case d == add:
		s1, s2 = m.integrate(-40, 40, f)
	default:
		a1, a2 := m.integrate(-40, 40, f)
		b1, b2 := m.integrate(mu-40, mu+40, f)
		s1, s2 = a1+b1, a2+b2
	}
	return s1, math.Max(s2-s1*s1, 0)
}
