package audit

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/internal/enum"
)

// DefaultConfidence is the confidence of an audit when none is given: the
// claim is refuted when the observed outcome has a p-value below
// 1 − 0.95 = 0.05.
const DefaultConfidence = 0.95

// Counts is the outcome of a one-run audit with the conventions of Steinke
// et al. 2023 (their Algorithm 1: m, r, v).
type Counts struct {
	// Canaries is m: every canary whose secret was randomized, including
	// those the attacker abstained on.
	Canaries int
	// Guesses is r: the canaries the attacker made a guess for.
	Guesses int
	// Correct is v: the guesses that were right.
	Correct int
}

// InputError reports an input outside its domain. Input names the input in
// the vocabulary of the row columns (canaries, guesses, correct, options,
// delta, epsilon, confidence, significance, num_tests, prior, successes,
// mu), so that a caller can name the column at fault.
type InputError struct {
	Input  string
	Value  float64
	Reason string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s = %v: %s", e.Input, e.Value, e.Reason)
}

func inputError(input string, v float64, format string, args ...any) error {
	return &InputError{Input: input, Value: v, Reason: fmt.Sprintf(format, args...)}
}

// Validate checks 0 ≤ correct ≤ guesses ≤ canaries and canaries ≥ 1.
func (c Counts) Validate() error {
	switch {
	case c.Canaries < 1:
		return inputError("canaries", float64(c.Canaries), "must be at least 1")
	case c.Guesses < 0:
		return inputError("guesses", float64(c.Guesses), "must be at least 0")
	case c.Guesses > c.Canaries:
		return inputError("guesses", float64(c.Guesses), "must not exceed canaries = %d", c.Canaries)
	case c.Correct < 0:
		return inputError("correct", float64(c.Correct), "must be at least 0")
	case c.Correct > c.Guesses:
		return inputError("correct", float64(c.Correct), "must not exceed guesses = %d", c.Guesses)
	}
	return nil
}

// perfect returns the counts of an attacker that guesses every canary
// correctly: the strongest evidence m canaries can give.
func (c Counts) perfect() Counts {
	return Counts{Canaries: c.Canaries, Guesses: c.Canaries, Correct: c.Canaries}
}

// Significance returns the per-test significance β = (1 − confidence)/numTests:
// the Bonferroni correction for an attacker who tried numTests thresholds
// or guess counts and reports the best, so that the family of tests
// refutes a true claim with probability at most 1 − confidence.
// confidence must lie in (0, 1) and numTests be at least 1.
func Significance(confidence float64, numTests int) (float64, error) {
	if !(confidence > 0 && confidence < 1) {
		return 0, inputError("confidence", confidence, "must be in (0, 1)")
	}
	return PerTest(1-confidence, numTests)
}

// PerTest returns significance/numTests, the per-test significance of a
// family-wise significance divided among numTests tests (Bonferroni), for
// callers given the significance rather than the confidence.
// significance must lie in (0, 1) and numTests be at least 1.
func PerTest(significance float64, numTests int) (float64, error) {
	if !(significance > 0 && significance < 1) {
		return 0, inputError("significance", significance, "must be in (0, 1)")
	}
	if numTests < 1 {
		return 0, inputError("num_tests", float64(numTests), "must be at least 1")
	}
	return significance / float64(numTests), nil
}

// checkSignificance validates a per-test significance β ∈ (0, 1).
func checkSignificance(beta float64) error {
	if !(beta > 0 && beta < 1) {
		return inputError("significance", beta, "must be in (0, 1)")
	}
	return nil
}

// checkDelta validates δ ∈ [0, 1).
func checkDelta(delta float64) error {
	if !(delta >= 0 && delta < 1) {
		return inputError("delta", delta, "must be in [0, 1)")
	}
	return nil
}

// checkEpsilon validates a claimed ε ≥ 0 (+Inf allowed).
func checkEpsilon(eps float64) error {
	if !(eps >= 0) {
		return inputError("epsilon", eps, "must be ≥ 0")
	}
	return nil
}

// LowerBound is a certified lower bound on a privacy parameter (ε or μ).
//
// Value is refuted at significance Significance: the test's p-value at
// Value is below it (for ε and μ = 0 nothing is claimed: Value = 0 means no
// bound above 0 was certified). Upper is the end of the final search
// bracket, Value < Upper ≤ Value + 1e-9, at which the claim is not
// refuted.
//
// Why a refuted value is a lower bound even where the p-value p(ε) is not
// monotone in ε: if the mechanism satisfies the claim at some ε₀ < Value,
// it satisfies it at Value as well (larger ε, or μ, is a weaker claim), so
// the probability that the attack refutes Value is bounded by the same
// dominating tail that bounds the refutation of ε₀; hence Pr[Value > ε₀]
// ≤ significance. Non-monotonicity can only make the search miss a larger
// refuted value, never report an unrefuted one.
type LowerBound struct {
	Value        float64
	Upper        float64
	PValue       float64 // p-value at Value (NaN for the f-DP tests, which have none)
	Significance float64
	Warnings     []Warning
}

// Warning is a condition under which a result is valid but weak or
// vacuous.
type Warning struct {
	Kind    WarningKind
	Message string
}

// WarningKind classifies a Warning.
type WarningKind int

const (
	// DeltaTermLarge: the δ term of the test (2·m·δ for Steinke et al., n·δ
	// for Swanberg et al. Cor 3.4 and Thm 3.5) is more than a tenth of the
	// significance, so δ alone uses up much of the evidence.
	DeltaTermLarge WarningKind = iota + 1
	// TooFewCanaries: even an attacker who guessed every canary correctly
	// could not refute the claim at 0, so no audit with these canaries can
	// certify a bound above 0.
	TooFewCanaries
	// NothingCertified: the observed outcome refutes no claim above 0; the
	// lower bound is 0.
	NothingCertified
)

// String returns a short name of the warning kind.
func (k WarningKind) String() string {
	return enum.Name("WarningKind", int(k), int(DeltaTermLarge),
		"delta term large", "too few canaries", "nothing certified")
}

// deltaWarnRatio is the fraction of the significance above which the δ
// term draws a DeltaTermLarge warning.
const deltaWarnRatio = 0.1

// deltaWarning returns a DeltaTermLarge warning when term > 0.1·beta.
func deltaWarning(name string, term, beta float64) []Warning {
	if term <= deltaWarnRatio*beta {
		return nil
	}
	return []Warning{{DeltaTermLarge, fmt.Sprintf(
		"the delta term %s = %.3g is not small against the significance %.3g", name, term, beta)}}
}
