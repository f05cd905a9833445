package audit

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// TradeOff is a symmetric trade-off function f, given by its reflection
// x ↦ f(1 − x): the inverse blow-up of Mahloujifar et al. 2025. Reflected
// must be non-decreasing on [0, 1] with values in [0, 1], and computed
// without forming 1 − x where that would lose precision for small x.
type TradeOff interface {
	Reflected(x float64) float64
}

// GaussianTradeOff is μ-GDP (Dong, Roth & Su 2022): f(x) =
// Φ(Φ⁻¹(1 − x) − μ), so f(1 − x) = Φ(Φ⁻¹(x) − μ).
type GaussianTradeOff struct{ Mu float64 }

// Reflected returns Φ(Φ⁻¹(x) − μ) (0 at x ≤ 0, 1 at x ≥ 1).
func (g GaussianTradeOff) Reflected(x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	return numeric.NormCDF(numeric.NormQuantile(x) - g.Mu)
}

// EpsDeltaTradeOff is (ε, δ)-DP: f(x) = max(0, 1 − δ − e^ε·x,
// e^−ε·(1 − δ − x)), so f(1 − x) = max(0, 1 − δ − e^ε·(1 − x),
// e^−ε·(x − δ)).
type EpsDeltaTradeOff struct{ Epsilon, Delta float64 }

// Reflected returns max(0, 1 − δ − e^ε·(1 − x), e^−ε·(x − δ)) for
// x ∈ [0, 1] (clamped into it).
func (t EpsDeltaTradeOff) Reflected(x float64) float64 {
	x = min(max(x, 0), 1)
	a := 1 - t.Delta
	if x < 1 {
		a -= math.Exp(t.Epsilon) * (1 - x) // −Inf for huge ε: then the max ignores it
	}
	return max(0, a, math.Exp(-t.Epsilon)*(x-t.Delta))
}

// zeroTradeOff is f ≡ 0 (no privacy), where the recursion saturates.
type zeroTradeOff struct{}

func (zeroTradeOff) Reflected(float64) float64 { return 0 }

// fdpSlack is the relative margin r_0 + h_0 must exceed c'/m by before a
// claim counts as refuted: each of the up to c steps of the recursion
// rounds by a few ulps, and the normal tails are accurate to about 1e-15,
// so 1e-9 covers 10^6 steps with room to spare and never lets round-off
// refute a claim.
const fdpSlack = 1e-9

// fdpMargin returns r_0 + h_0 − c'/m·(1 + fdpSlack): positive exactly when
// the recursion refutes f at significance tau.
func fdpMargin(c Counts, options int, f TradeOff, tau float64) float64 {
	m, cp := float64(c.Canaries), c.Guesses
	r := tau * float64(c.Correct) / m
	h := tau * float64(cp-c.Correct) / m
	k1 := float64(options - 1)
	for i := c.Correct - 1; i >= 0; i-- {
		hn := max(h, k1*f.Reflected(r))
		if hn == h {
			break // h, and so r, stay as they are for every smaller i
		}
		r = min(1, r+float64(i)/float64(cp-i)*(hn-h))
		h = hn
	}
	return r + h - float64(cp)/m*(1+fdpSlack)
}

func checkFDP(c Counts, options int, tau float64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if options < 2 {
		return inputError("options", float64(options), "must be at least 2")
	}
	return checkSignificance(tau)
}

// FDPRejects reports whether the counts c of an audit with `options`
// options per canary refute the claim that the mechanism is f-DP at
// per-test significance tau (Mahloujifar et al. 2025: the recursion in
// the package doc, refuting when r_0 + h_0 > c'/m).
func FDPRejects(c Counts, options int, f TradeOff, tau float64) (bool, error) {
	if err := checkFDP(c, options, tau); err != nil {
		return false, err
	}
	return fdpMargin(c, options, f, tau) > 0, nil
}

// FDPMu returns the largest μ for which the counts refute μ-GDP at
// per-test significance tau (Mahloujifar et al. 2025 with the Gaussian
// trade-off): a lower bound on the μ of any μ-GDP mechanism, found by
// bracketing and bisection to 1e-9 (Value refuted, Upper ≤ Value + 1e-9
// not). PValue is NaN: the test yields a decision, not a p-value.
// Warnings: NothingCertified when μ = 0 (perfect privacy) is not refuted,
// TooFewCanaries when m correct guesses out of m would not refute it
// either. Cost: up to c steps of the recursion per μ tried.
func FDPMu(c Counts, options int, tau float64) (LowerBound, error) {
	if err := checkFDP(c, options, tau); err != nil {
		return LowerBound{}, err
	}
	return fdpSearch(c, options, tau, func(mu float64) TradeOff { return GaussianTradeOff{mu} })
}

// FDPEpsilon returns the largest ε for which the counts refute (ε, δ)-DP
// at per-test significance tau through the (ε, δ) trade-off function
// (Mahloujifar et al. 2025, whose f-DP audit applies to any trade-off
// function; here f_{ε,δ}): a lower bound on ε for every (ε, δ)-DP
// mechanism. Search, result and warnings as for FDPMu.
func FDPEpsilon(c Counts, options int, delta, tau float64) (LowerBound, error) {
	if err := checkFDP(c, options, tau); err != nil {
		return LowerBound{}, err
	}
	if err := checkDelta(delta); err != nil {
		return LowerBound{}, err
	}
	return fdpSearch(c, options, tau, func(eps float64) TradeOff { return EpsDeltaTradeOff{eps, delta} })
}

// fdpSearch finds the largest refuted parameter of the family curve.
func fdpSearch(c Counts, options int, tau float64, curve func(float64) TradeOff) (LowerBound, error) {
	gap := func(c Counts) func(float64) (float64, error) {
		return func(x float64) (float64, error) {
			return -fdpMargin(c, options, curve(x), tau), nil
		}
	}
	flat := -fdpMargin(c, options, zeroTradeOff{}, tau) // f ≡ 0: the recursion stops at once
	res, err := epsilonSearch(gap(c), gap(c.perfect()), flat, 1, tau, nil)
	res.PValue = math.NaN()
	return res, err
}

// GaussianEpsilon returns the ε at which μ-GDP has privacy profile δ
// (Dong, Roth & Su 2022, Cor 2.13): the ε ≥ 0 solving
//
//	δ = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2),
//
// or 0 when δ ≥ 2Φ(μ/2) − 1 (the profile at 0). Applied to FDPMu's bound
// it is jax_privacy's epsilon_one_run_fdp; it is NOT a lower bound on the
// ε of a general (ε, δ)-DP mechanism (see the package doc): use
// FDPEpsilon for that. Bisection to 1e-9 on a profile that decreases in ε.
// Errors: μ < 0 or NaN, δ ∉ (0, 1).
func GaussianEpsilon(mu, delta float64) (float64, error) {
	if !(mu >= 0) || math.IsInf(mu, 1) {
		return 0, inputError("mu", mu, "must be finite and ≥ 0")
	}
	if !(delta > 0 && delta < 1) {
		return 0, inputError("delta", delta, "must be in (0, 1)")
	}
	profile := func(eps float64) float64 {
		if mu == 0 {
			return 0
		}
		return numeric.NormCDF(-eps/mu+mu/2) - math.Exp(eps+numeric.LogNormCDF(-eps/mu-mu/2))
	}
	if profile(0) <= delta {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for profile(hi) > delta {
		if lo, hi = hi, 2*hi; hi > searchLimit {
			return 0, fmt.Errorf("no ε below %v meets delta = %v for mu = %v", hi, delta, mu)
		}
	}
	for hi-lo > searchTol {
		mid := lo + (hi-lo)/2
		if profile(mid) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}
