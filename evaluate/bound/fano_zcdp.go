package bound

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// The best order of FanoZCDP solved with the bound, not searched for.
//
// For ε(α) = ρα, Algorithm 2 at order α = 1 + λ bounds v by the largest v
// with f(λ, v) = D_α(v) − ρα − g(α) ≤ 0, where D_α(v) is the binary
// divergence D_α(Ber(P) ‖ Ber(1/M)) and g(α) = D_α(p ‖ U_M) the prior's gap
// (0 for a uniform prior). Call that v(λ); the bound FanoZCDP reports is
// min over α of v(λ). Where the minimum is inside λ > 0, dv/dλ =
// −∂f/∂λ / ∂f/∂v vanishes there, so (λ*, v*) solves the two equations
//
//	f(λ, v) = 0,   ∂f/∂λ(λ, v) = D'_α(v) − ρ − g'(α) = 0
//
// (the curve λ ↦ (α − 1)D_α(v), the cumulant generating function of the
// log-likelihood ratio, touches the parabola λ ↦ λ(ρα + g(α)) there),
// which Newton's method in (λ, v) solves from the large-order asymptote:
// where the first atom dominates, D_α(v) ≈ (α ln r₁ − ln M)/(α − 1) with
// r₁ = 1 + (M − 1)v, and g(α) ≈ ln(M p*), the two equations give
// α*² ≈ H_∞(p)/ρ and ln r₁ ≈ ln M − ρ(α* − 1)² (derived here;
// H_∞ = −ln p*; for a uniform prior ln r₁ ≈ ρ(2α* − 1)). Small ρ
// therefore means large orders (α* ≈ 200 for M = 100 and ρ = 1e-4, within
// 1.5% of the asymptote), and ρ near H(p) an order near 1, where the
// optimum leaves the interior: at λ = 0 the slope of the bound in λ has
// the sign of ρ + g'(1) − D'₁(v₁), with D'₁(v) = Var_P(ln r)/2 (half the
// variance of the log-likelihood ratio under Ber(P), the derivative of
// Rényi divergence in the order at 1) and v₁ the bound at α = 1, and where
// that is ≥ 0 the order 1 is taken (always for M = 2 with a uniform
// prior). Newton's steps are safeguarded: far from the curve f = 0 only v
// moves (onto it); near it, the sign of ∂f/∂λ on the curve brackets λ*, and
// a step that leaves the bracket or goes against that sign is replaced by
// the bracket's geometric middle (or a factor 4 while one side is open).
//
// The derivatives in λ are those of the tilted distribution u_i ∝ p_i r_i^λ
// of the log-likelihood ratios ℓ_i = ln r_i under P (p_i = w_i r_i, w the
// reference Ber(1/M) or U_M): with Λ(λ) = λD_α = ln Σ p_i r_i^λ and
// z_i = λℓ_i − Λ (so u_i = p_i e^{z_i}),
//
//	D'_α = KL(u ‖ p)/λ² = Σ u_i z_i / λ²,   D''_α = (Var_u(ℓ) − 2D'_α)/λ,
//	∂D_α/∂v = α·Σ w_i r'_i e^{z_i}/λ,
//
// (derived here from Λ' = E_u[ℓ], Λ'' = Var_u(ℓ)), none of which
// overflows. They serve only Newton's steps: the bound returned is the
// exact Fano solution at the order found (fanoPrior.solveNear from
// Newton's v, resolved to one ulp as solve resolves it and rounded up), a
// valid bound whatever the order, and the order only needs to be close to
// the minimiser, where v(λ) is flat to second order. The equations carry
// solve's relative margin on c (fanoRelMargin), so that Newton's v is
// within a few ulps of the answer solve resolves, and 2 to 4 evaluations
// of D_α close the bracket. Where Newton's method does not converge, the
// search over orders (fanoZCDPGrid) is used instead; in the tests it never
// is.

// zcdpNewtonSteps bounds the Newton iterations of zcdpTangent.
const zcdpNewtonSteps = 40

// zcdpTangent returns the bound of Algorithm 2 with μ = ρα at the order α
// found by Newton's method on the tangency equations above (interior),
// or interior = false where the slope at α = 1 makes that order the
// minimiser (b is then unset), and ok = false where the method did not
// converge (the caller searches the orders instead). v1 is the bound v at
// α = 1 with μ = ρ, or an estimate of it.
func (pr fanoPrior) zcdpTangent(rho, v1 float64) (b FanoBound, ok, interior bool) {
	gap := pr.newGapTilt()
	// The order 1 is the minimiser where the bound rises from λ = 0.
	if slope := rho + gap.slopeAtOne() - pr.binarySlopeAtOne(v1); slope >= 0 {
		return FanoBound{}, true, false
	}
	lambda := math.Max(math.Sqrt(-math.Log(pr.pStar)/rho)-1, 0.05)
	v := math.Expm1(pr.logM-rho*lambda*lambda) / (pr.m - 1)
	if !(v > 0 && v < v1) {
		v = v1
	}
	grow := 1 + fanoRelMargin
	// [lo, hi] brackets λ* once the iterate is near the curve f = 0,
	// where ∂f/∂λ > 0 means that the bound falls with λ.
	lo, hi := 0.0, math.Inf(1)
	for i := 0; ; i++ {
		if i == zcdpNewtonSteps || lambda < 1e-12 || lambda > 1e12 {
			return FanoBound{}, false, false
		}
		alpha := 1 + lambda
		t := pr.binaryTilt(lambda, v)
		g, g1, g2 := gap.at(lambda)
		f1 := t.d - (rho*alpha+g)*grow
		f2 := t.dA - (rho+g1)*grow
		j11, j12 := f2, t.dV
		j21, j22 := t.dAA-g2*grow, t.dAV
		det := j11*j22 - j12*j21
		dl := -(f1*j22 - f2*j12) / det
		dv := -(j11*f2 - j21*f1) / det
		if math.IsNaN(dl) || math.IsNaN(dv) || math.IsInf(dl, 0) || math.IsInf(dv, 0) {
			return FanoBound{}, false, false
		}
		nl, nv := lambda+dl, v+dv
		if math.Abs(dl) <= 1e-6*lambda && math.Abs(dv) <= 1e-8*v && nl > 0 {
			// Converging quadratically: after this step λ is within
			// about 1e-12 relative and v within a few ulps.
			lambda, v = nl, nv
			break
		}
		// ∂f/∂λ on the curve at this λ, to first order in the distance
		// to it, and how far that is from the value here.
		shift := j22 * f1 / j12
		if f2c := f2 - shift; math.Abs(f1) <= 0.1*v*t.dV {
			if math.Abs(f2c) > 2*math.Abs(shift) {
				if f2c > 0 {
					lo = math.Max(lo, lambda)
				} else {
					hi = math.Min(hi, lambda)
				}
			}
			if !(nl > lo && nl < hi) || dl*f2c < 0 {
				// Newton's step leaves the bracket or goes the wrong way:
				// the bracket's geometric middle, and v onto the curve.
				switch {
				case math.IsInf(hi, 1):
					nl = 4 * lambda
				case lo == 0:
					nl = lambda / 4
				default:
					nl = math.Sqrt(lo * hi)
				}
				nv = v - f1/t.dV
			}
		} else {
			// Far from the curve the order's step is unreliable: v onto
			// the curve first.
			nl, nv = lambda, v-f1/t.dV
		}
		if nl <= 0 {
			nl = lambda / 4
		} else if nl > 4*lambda {
			nl = 4 * lambda
		}
		if nv <= 0 {
			nv = v / 4
		} else if nv >= 1 {
			nv = (v + 1) / 2
		}
		lambda, v = nl, nv
	}
	alpha := 1 + lambda
	e := math.Nextafter(rho*alpha, math.Inf(1))
	return pr.solveNear(alpha, e, v), true, true
}

// binaryTerms are the binary divergence D_α(v) and its derivatives
// (see above): in α, dA and dAA; in v, dV; in α and v, dAV.
type binaryTerms struct {
	d, dA, dAA, dV, dAV float64
}

// binaryTilt returns D_α(Ber(P) ‖ Ber(1/M)) at α = 1 + λ and v, with its
// derivatives, from the two atoms r₁ = 1 + (M − 1)v (P-weight
// p₁ = r₁/M) and r₂ = 1 − v (p₂ = (M − 1)r₂/M).
func (pr fanoPrior) binaryTilt(lambda, v float64) binaryTerms {
	m := pr.m
	alpha := 1 + lambda
	x1 := (m - 1) * v
	l1, l2 := math.Log1p(x1), math.Log1p(-v)
	p1, p2 := (1+x1)/m, (m-1)*(1-v)/m
	d := pr.binaryDivergence(alpha, v)
	big := lambda * d // Λ
	z1, z2 := lambda*l1-big, lambda*l2-big
	e1, e2 := math.Exp(z1), math.Exp(z2)
	u1, u2 := p1*e1, p2*e2
	t := binaryTerms{d: d}
	t.dA = (u1*z1 + u2*z2) / (lambda * lambda)
	dl := l1 - l2
	t.dAA = (u1*u2*dl*dl - 2*t.dA) / lambda
	// Σ w_i r'_i e^{z_i} = (M − 1)/M · (e^{z₁} − e^{z₂}), the difference
	// formed as e^{z₂}·expm1(λ(ℓ₁ − ℓ₂)) where it cancels.
	gsum := (m - 1) / m * (e1 - e2)
	if lambda*dl < 1 {
		gsum = (m - 1) / m * e2 * math.Expm1(lambda*dl)
	}
	t.dV = alpha * gsum / lambda
	g1, g2 := (m-1)/(1+x1), -1/(1-v)
	t.dAV = (lambda*alpha*u1*u2*(g1-g2)*dl - gsum) / (lambda * lambda)
	return t
}

// binarySlopeAtOne returns D'₁(v) = ∂D_α(v)/∂α at α = 1, Var_P(ln r)/2.
func (pr fanoPrior) binarySlopeAtOne(v float64) float64 {
	m := pr.m
	x1 := (m - 1) * v
	dl := math.Log1p(x1) - math.Log1p(-v)
	p1, p2 := (1+x1)/m, (m-1)*(1-v)/m
	return p1 * p2 * dl * dl / 2
}

// gapTilt evaluates the prior's gap g(α) = D_α(p ‖ U_M) and its
// derivatives in α by the tilted distribution of ℓ_i = ln(M p_i) under p
// (nothing for a uniform prior, whose gap is 0).
type gapTilt struct {
	pr fanoPrior
	l  []float64 // ln(M p_i), for p_i > 0
	p  []float64 // the p_i > 0
}

func (pr fanoPrior) newGapTilt() gapTilt {
	gt := gapTilt{pr: pr}
	if pr.uniform {
		return gt
	}
	for _, x := range pr.p {
		if x > 0 {
			gt.p = append(gt.p, x)
			gt.l = append(gt.l, numeric.LogPos(pr.m*x))
		}
	}
	return gt
}

// slopeAtOne returns g'(1) = Var_p(ln(M p))/2.
func (gt gapTilt) slopeAtOne() float64 {
	if gt.p == nil {
		return 0
	}
	var mean, sq numeric.Sum
	for i, x := range gt.p {
		mean.Add(x * gt.l[i])
	}
	mu := mean.Value()
	for i, x := range gt.p {
		d := gt.l[i] - mu
		sq.Add(x * d * d)
	}
	return sq.Value() / 2
}

// at returns g(α) and its first two derivatives in α, at α = 1 + λ.
func (gt gapTilt) at(lambda float64) (g, g1, g2 float64) {
	if gt.p == nil {
		return 0, 0, 0
	}
	g, _ = gt.pr.gap(1 + lambda)
	big := lambda * g
	var kl, mean, sq numeric.Sum
	u := make([]float64, len(gt.p))
	for i, x := range gt.p {
		z := lambda*gt.l[i] - big
		u[i] = x * math.Exp(z)
		kl.Add(u[i] * z)
		mean.Add(u[i] * gt.l[i])
	}
	mu := mean.Value()
	for i, l := range gt.l {
		d := l - mu
		sq.Add(u[i] * d * d)
	}
	g1 = kl.Value() / (lambda * lambda)
	g2 = (sq.Value() - 2*g1) / lambda
	return g, g1, g2
}
