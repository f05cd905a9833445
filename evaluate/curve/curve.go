// Package curve holds trade-off curves of differential privacy
// (Dong, Roth & Su 2022, "Gaussian Differential Privacy", JRSS B, Def. 2.1):
// f(α) is the smallest type II error of any test, at type I error α,
// between the outputs of a mechanism on two neighbouring datasets. One file
// per mechanism or guarantee: gaussian.go (μ-GDP), laplace.go, rr.go
// (k-ary randomized response), epsdelta.go (pure and approximate DP),
// rdp.go and zcdp.go (Rényi DP and zero-concentrated DP, converted to
// f-DP optimally; renyi.go is the conversion of one order), compose.go
// (optimal composition of (ε, δ)-DP), subsampled.go (DP-SGD: the
// subsampled Gaussian accounted by RDP and by the PLD accountant of
// package pld beside it) and marginals.go (noisy marginal queries).
//
// Every curve rounds towards more risk: TradeOff down, Advantage,
// WorstAdvantage, EpsilonAt and DeltaAt up, so that a bound computed from
// it never understates what an attacker can do. Nothing here knows about
// rows, tables or files.
package curve

import "math"

// Curve is a trade-off function f (Dong, Roth & Su 2022): f(α) is the
// smallest type II error of any test with type I error α between the outputs
// on neighbouring datasets. Every bound of Kulynych et al. 2025 is
// computed from it.
type Curve interface {
	// TradeOff returns f(α).
	TradeOff(alpha float64) float64
	// Advantage returns 1 − f(b) − b, exactly (not rounded).
	Advantage(b float64) float64
	// WorstAdvantage returns η = max_α (1 − f(α) − α).
	WorstAdvantage() float64
}

// advantageAtEdges returns 1 − f(b) − b where it does not depend on the
// curve's shape: NaN for NaN; 0 at b ≥ 1; 1 − b for a vacuous curve (f ≡ 0:
// no privacy); 0 at b ≤ 0 and for a perfectly private curve (f(α) = 1 − α).
// ok is false when the curve must compute it.
func advantageAtEdges(b float64, vacuous, private bool) (adv float64, ok bool) {
	switch {
	case math.IsNaN(b):
		return b, true
	case b >= 1:
		return 0, true
	case vacuous:
		return 1 - math.Max(b, 0), true
	case b <= 0 || private:
		return 0, true
	}
	return 0, false
}

// tradeOffAtEdges returns f(α) where it does not depend on the curve's
// shape: 0 for a vacuous curve (f ≡ 0: no privacy); f(α) = 1 at α ≤ 0 and
// 0 at α ≥ 1. ok is false when the curve must compute it.
func tradeOffAtEdges(alpha float64, vacuous bool) (f float64, ok bool) {
	switch {
	case vacuous:
		return 0, true
	case alpha <= 0:
		return 1, true
	case alpha >= 1:
		return 0, true
	}
	return 0, false
}
