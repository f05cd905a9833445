package evaluate

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Single-target bounds of Swanberg, Annamalai, Hayes, Balle & Smith,
// "Beyond the Worst Case: Extending Differential Privacy Guarantees to
// Realistic Adversaries" (2025). They assume an (ε, δ)-DP mechanism under
// replace-one neighbours and an attacker whose a-priori success on the
// target is p (the baseline).

// OneRunPosterior returns β = e^ε/(e^ε − 1 + 1/p), the bound of Swanberg et
// al. Thm 3.2 on the attacker's success probability for one target after
// seeing the output of an ε-DP mechanism. It is computed through the exact
// identity logit β = logit p + ε, which neither overflows for ε up to 700
// nor loses the relative precision of tiny p. p = 0 gives 0 and p = 1 gives
// 1 for every ε.
func OneRunPosterior(eps, p float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	case eps == 0:
		return p
	}
	return numeric.Logistic(numeric.Logit(p) + eps)
}

// OneRunAdvantage returns the generalized advantage (Cherubin 2017) of
// Swanberg et al. Thm 3.5 with one target, an (ε, δ)-DP mechanism and a
// baseline p < 1:
//
//	(min(1, β + (1 − β)·δ) − p)/(1 − p)
//
// With w = ln p + ln(e^ε − 1) it equals σ(w)·(1 − δ) + δ exactly, because
// (β − p)/(1 − p) = σ(w) and (1 − β)/(1 − p) = σ(−w); that form has no
// cancellation at small ε and no overflow at large ε. At δ = 0 it reduces to
// (β − p)/(1 − p). The result is exact (not rounded up).
func OneRunAdvantage(eps, delta, p float64) float64 {
	if p <= 0 || eps <= 0 {
		return delta
	}
	return numeric.Logistic(numeric.LogPos(p)+numeric.LogExpm1(eps))*(1-delta) + delta
}

// OneRunEpsilonProtect returns the largest ε ≥ 0 whose OneRunAdvantage(ε, δ, p)
// stays at or below the target advantage A. Inverting σ(w)(1 − δ) + δ ≤ A:
//
//	s = (A − δ)/(1 − δ),   ε = ln(1 + e^{logit s − ln p})
//
// which is Swanberg et al. §5.3's ε_protect with the Thm 3.5 posterior. The
// second result is false when no ε ≥ 0 meets the target (A < δ); the first
// is +Inf when every ε does (A ≥ 1, or p = 0).
func OneRunEpsilonProtect(target, delta, p float64) (float64, bool) {
	if target < delta {
		return 0, false
	}
	s := (target - delta) / (1 - delta)
	if s >= 1 || p <= 0 {
		return math.Inf(1), true
	}
	if s <= 0 {
		return 0, true
	}
	return numeric.Softplus(numeric.Logit(s) - numeric.LogPos(p)), true
}
