package audit

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// PriorEpsilon returns the largest ε under which `successes` or more
// successes over the targets with prior success probabilities p are less
// likely than the per-test significance beta according to the tail bound
// `which` of Swanberg et al. 2025 (Thm 3.2, Cor 3.4 or Thm 3.5; see Bound
// and TailBound): Value has TailBound < beta, Upper ≤ Value + 1e-9 has
// TailBound ≥ beta. It inverts the one-run success bound of Swanberg et
// al. §3.2 ("convert the statistical estimator into a hypothesis test",
// §3.2): the claim "(ε, δ)-DP" is refuted when the observed successes
// exceed what the bound allows at significance beta.
//
// Assumptions are those of the chosen bound: independent priors across
// targets, p_i at the guesses made (Thm32, Cor34) or at the a priori
// Bayes-optimal guesses (Thm35); any p̄_i ≥ p_i keeps the result valid.
// Targets are all records whose secret was randomized, including those the
// attacker did not guess (p_i = 0 under Thm32 and Cor34), so that n·δ
// counts them.
//
// Warnings as for MembershipEpsilon, with n·δ as the δ term (Cor34,
// Thm35) and "all n targets right" as the strongest outcome. Cost: one
// Poisson-binomial product per ε tried (about 0.4 s for 10^6 distinct
// priors, O(n) when they are all equal), some 15–45 tries.
//
// With every p_i = ½ and n = r targets, Thm35 at δ' = 2·m·δ/r is Steinke
// et al.'s membership p-value at δ (the same dual bound with the same
// Binomial(r, e^ε/(1 + e^ε)) tail): the two routes differ only in the
// constant in front of δ, 2·m for Steinke et al. (m canaries), n for
// Swanberg et al. (n targets).
func PriorEpsilon(p []float64, successes int, delta float64, which Bound, beta float64) (LowerBound, error) {
	if err := checkTail(p, 0, delta, which); err != nil {
		return LowerBound{}, err
	}
	if err := checkSignificance(beta); err != nil {
		return LowerBound{}, err
	}
	if successes < 0 || successes > len(p) {
		return LowerBound{}, inputError("successes", float64(successes), "must be in [0, targets = %d]", len(p))
	}
	var warn []Warning
	if which != Thm32 {
		warn = deltaWarning(fmt.Sprintf("n·δ (n = %d)", len(p)), float64(len(p))*delta, beta)
	}
	gap := func(k int) func(float64) (float64, error) {
		return func(eps float64) (float64, error) {
			d, err := dominating(p, eps, delta)
			if err != nil {
				return 0, err
			}
			return d.LogBound(which, k) - numeric.LogPos(beta), nil
		}
	}
	return epsilonSearch(gap(successes), gap(len(p)), -numeric.LogPos(beta), 1, beta, warn)
}

// MembershipPriors returns the per-target priors of a membership audit in
// which each of `canaries` canaries is included independently with
// probability pi (0 < pi < 1), for PriorEpsilon and TailBound (Swanberg et
// al. 2025 §3.3 encode membership as X_i ~ Bernoulli(pi); Steinke et al.
// 2023 is pi = ½): an "in" guess succeeds a priori with probability pi, an
// "out" guess with 1 − pi.
//
//   - Thm32, Cor34: inGuesses entries pi, outGuesses entries 1 − pi, and
//     for Cor34 zeros for the abstentions, so that n = canaries in n·δ.
//     Cor34 takes these at the guesses made; its first term is a single
//     tail only if the attack fixes how many "in" and "out" guesses it
//     makes before seeing the output (as Steinke et al.'s top/bottom-k
//     attack does).
//   - Thm35: max(pi, 1 − pi) for every canary (the a priori Bayes-optimal
//     guess), whatever the attack did.
//
// When only the total number of guesses is known, pass them all as the
// more likely kind (inGuesses when pi ≥ ½): max(pi, 1 − pi) is at least
// either prior, which keeps every bound valid.
//
// Errors: counts out of range, pi ∉ (0, 1), an unknown bound.
func MembershipPriors(canaries, inGuesses, outGuesses int, pi float64, which Bound) ([]float64, error) {
	if !(pi > 0 && pi < 1) {
		return nil, inputError("inclusion", pi, "must be in (0, 1)")
	}
	if err := guessCounts(canaries, inGuesses, outGuesses); err != nil {
		return nil, err
	}
	return priors(canaries, []int{inGuesses, outGuesses}, []float64{pi, 1 - pi}, max(pi, 1-pi), which)
}

// ReconstructionPriors returns the per-target priors of a reconstruction
// audit in which each of `canaries` canaries takes one of `options` values
// uniformly at random and the attacker guesses `guesses` of them: prior
// success 1/options at every guess (Swanberg et al. 2025, Thm 3.2 with a
// uniform prior; options = 2 is membership at inclusion ½). Thm32: one
// entry per guess; Cor34: zeros added for the abstentions (n = canaries);
// Thm35: 1/options for every canary.
func ReconstructionPriors(canaries, guesses, options int, which Bound) ([]float64, error) {
	if options < 2 {
		return nil, inputError("options", float64(options), "must be at least 2")
	}
	if err := guessCounts(canaries, guesses, 0); err != nil {
		return nil, err
	}
	u := 1 / float64(options)
	return priors(canaries, []int{guesses}, []float64{u}, u, which)
}

// guessCounts validates canaries ≥ 1 and guesses ≤ canaries.
func guessCounts(canaries int, guesses ...int) error {
	if canaries < 1 {
		return inputError("canaries", float64(canaries), "must be at least 1")
	}
	total := 0
	for _, g := range guesses {
		if g < 0 {
			return inputError("guesses", float64(g), "must be at least 0")
		}
		total += g
	}
	if total > canaries {
		return inputError("guesses", float64(total), "must not exceed canaries = %d", canaries)
	}
	return nil
}

// priors lays out the prior vector for the bound (see MembershipPriors).
func priors(canaries int, counts []int, values []float64, bayes float64, which Bound) ([]float64, error) {
	var p []float64
	switch which {
	case Thm32, Cor34:
		for i, n := range counts {
			for range n {
				p = append(p, values[i])
			}
		}
		if which == Cor34 {
			for len(p) < canaries {
				p = append(p, 0)
			}
		}
	case Thm35:
		p = make([]float64, canaries)
		for i := range p {
			p[i] = bayes
		}
	default:
		return nil, fmt.Errorf("unknown bound %v", which)
	}
	return p, nil
}
