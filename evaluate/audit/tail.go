package audit

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
)

// Bound names the tail bound of Swanberg, Annamalai, Hayes, Balle & Smith,
// "Beyond the Worst Case: Extending Differential Privacy Guarantees to
// Realistic Adversaries" (2025), §3, used by TailBound and PriorEpsilon:
// package bound's OneRunBound, which computes them. Each bounds Pr[L ≥ k],
// the probability that an attacker gets at least k of n targets right
// after an (ε, δ)-DP release (replace-one neighbours; independent priors
// D_1 ⊗ … ⊗ D_n), through the Poisson-binomial S = Σ_i Bernoulli(β_i) with
//
//	β_i = e^ε/(e^ε − 1 + 1/p_i),  i.e.  logit β_i = logit p_i + ε.
type Bound = bound.OneRunBound

const (
	// Thm32 is Thm 3.2 (pure ε-DP, δ = 0 only): Pr[L ≥ k | output] ≤
	// Pr[S ≥ k], with p_i the prior success probability of the guess the
	// attacker actually made (0 for an abstention).
	Thm32 = bound.OneRunPure
	// Cor34 is Cor 3.4: Pr[L ≥ k] ≤ Pr[S ≥ k] + n·δ, with p_i at the
	// guesses made; the first term is a mixture over runs unless the
	// multiset of p_i is fixed before the release (see MembershipPriors).
	Cor34 = bound.OneRunCor34
	// Thm35 is Thm 3.5: Pr[L ≥ k] ≤ Pr[S ≥ k] + α·n·δ, with p_i at the a
	// priori Bayes-optimal guesses and
	// α = max_{j ∈ [n]} (Pr[S ≥ k − j] − Pr[S ≥ k])/j.
	Thm35 = bound.OneRunThm35
)

// ParseBound reads the audit_bound vocabulary: "thm32", "cor34" or "thm35";
// "" gives DefaultBound(delta).
func ParseBound(s string, delta float64) (Bound, error) {
	switch s {
	case "":
		return DefaultBound(delta), nil
	case "thm32":
		return Thm32, nil
	case "cor34":
		return Cor34, nil
	case "thm35":
		return Thm35, nil
	}
	return 0, fmt.Errorf("audit_bound %q: want thm32, cor34 or thm35", s)
}

// DefaultBound is Thm32 when δ = 0 and Thm35 otherwise.
func DefaultBound(delta float64) Bound {
	if delta == 0 {
		return Thm32
	}
	return Thm35
}

// pValueSlack is the relative amount every p-value is raised by before it
// is compared with the significance (bound.OneRunLogSlack), so that a
// reported p-value is never below the exact one and a refutation never
// rests on round-off. It moves a lower bound on ε by far less than the
// 1e-9 search tolerance.
const pValueSlack = bound.OneRunLogSlack

// dominating returns the dominating Poisson-binomial of Swanberg et al.
// Thm 3.2 for priors p at privacy loss ε and failure probability δ, the
// inputs already checked (checkTail).
func dominating(p []float64, eps, delta float64) (*bound.OneRunTail, error) {
	return bound.NewOneRunTail(eps, delta, p)
}

// binomial returns Binomial(r, e^ε/(1 + e^ε)), Steinke et al.'s
// dominating law: Thm 3.2's with r priors of ½.
func binomial(r int, eps float64) (*bound.OneRunTail, error) {
	half := make([]float64, r)
	for i := range half {
		half[i] = 0.5
	}
	return bound.NewOneRunTail(eps, 0, half)
}

// checkPriors validates p_i ∈ [0, 1].
func checkPriors(p []float64) error {
	for i, pi := range p {
		if !(pi >= 0 && pi <= 1) {
			return inputError("prior", pi, "p[%d] must be in [0, 1]", i)
		}
	}
	return nil
}

// TailBound returns the bound `which` of Swanberg et al. 2025 on
// Pr[L ≥ k], the probability that an attack on n = len(p) targets with
// prior success probabilities p succeeds at least k times after an
// (ε, δ)-DP release:
//
//	Thm32:  Pr[S ≥ k]                 (δ must be 0)
//	Cor34:  min(1, Pr[S ≥ k] + n·δ)
//	Thm35:  min(1, Pr[S ≥ k] + α·n·δ), α = max_{j ≥ 1} (Pr[S ≥ k − j] − Pr[S ≥ k])/j
//
// with S = Σ Bernoulli(β_i), β_i = e^ε/(e^ε − 1 + 1/p_i) (Thm 3.2). The
// tails are exact in log space far below the float64 range (package
// poibin) and the result is raised by a relative 1e-9 (pValueSlack), so
// it is never below the exact bound. k ≤ 0 gives 1 and k > n gives 0.
// See LogTailBound for p-values below 1e-308.
//
// Errors: ε < 0 or NaN, δ ∉ [0, 1), Thm32 with δ > 0, an unknown bound,
// a p_i outside [0, 1].
//
// The bounds are bound.OneRunTail's LogBound, the log-space forms of the
// row columns' Cor34 and Thm35.
func TailBound(p []float64, eps, delta float64, k int, which Bound) (float64, error) {
	lb, err := LogTailBound(p, eps, delta, k, which)
	return math.Exp(lb), err
}

// LogTailBound returns ln TailBound(p, eps, delta, k, which).
func LogTailBound(p []float64, eps, delta float64, k int, which Bound) (float64, error) {
	if err := checkTail(p, eps, delta, which); err != nil {
		return 0, err
	}
	d, err := dominating(p, eps, delta)
	if err != nil {
		return 0, err
	}
	return d.LogBound(which, k), nil
}

// checkTail validates the inputs of TailBound.
func checkTail(p []float64, eps, delta float64, which Bound) error {
	if err := checkEpsilon(eps); err != nil {
		return err
	}
	if err := checkDelta(delta); err != nil {
		return err
	}
	switch which {
	case Thm32:
		if delta > 0 {
			return inputError("delta", delta, "Thm 3.2 holds for pure ε-DP only (δ = 0); use cor34 or thm35")
		}
	case Cor34, Thm35:
	default:
		return fmt.Errorf("unknown bound %v", which)
	}
	return checkPriors(p)
}
