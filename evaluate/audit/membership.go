package audit

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// MembershipPValue returns the p-value of the claim "the mechanism is
// (ε, δ)-DP" given the counts c (Steinke et al. 2023, Thm 3; formula in
// the package doc), raised by a relative 1e-9 so that it is never below
// the exact value; see
// MembershipLogPValue for p-values below 1e-308. It costs O(r) to set up
// the binomial (poibin's validation; its window is O(√r)) and O(log v)
// log-space tails for the δ term: about 15 ms at r = 10^6.
func MembershipPValue(c Counts, eps, delta float64) (float64, error) {
	lp, err := MembershipLogPValue(c, eps, delta)
	return math.Exp(lp), err
}

// MembershipLogPValue returns ln MembershipPValue(c, eps, delta), exact in
// log space for p-values far below the float64 range.
func MembershipLogPValue(c Counts, eps, delta float64) (float64, error) {
	if err := checkMembership(c, delta); err != nil {
		return 0, err
	}
	if err := checkEpsilon(eps); err != nil {
		return 0, err
	}
	return membershipLogP(c, eps, delta)
}

func checkMembership(c Counts, delta float64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return checkDelta(delta)
}

func membershipLogP(c Counts, eps, delta float64) (float64, error) {
	d, err := binomial(c.Guesses, eps)
	if err != nil {
		return 0, err
	}
	return d.LogDual(c.Correct, 2*float64(c.Canaries)*delta), nil
}

// MembershipEpsilon returns the largest ε the counts c refute at per-test
// significance beta under δ (Steinke et al. 2023: the ε lower bound of
// their reference code get_eps_audit, here bracketed and bisected to
// 1e-9): Value has MembershipPValue < beta, Upper ≤ Value + 1e-9 has
// MembershipPValue ≥ beta. When even ε = 0 is not refuted, Value is 0 with
// a NothingCertified warning, and TooFewCanaries as well when m correct
// guesses out of m could not refute ε = 0 (for δ = 0: 2^−m ≥ beta).
// DeltaTermLarge warns when 2·m·δ > beta/10.
//
// Closed form for δ = 0 and v = r (all guesses right): the p-value is
// σ(ε)^r, so the bound is logit(beta^{1/r}).
func MembershipEpsilon(c Counts, delta, beta float64) (LowerBound, error) {
	if err := checkMembership(c, delta); err != nil {
		return LowerBound{}, err
	}
	if err := checkSignificance(beta); err != nil {
		return LowerBound{}, err
	}
	warn := deltaWarning(fmt.Sprintf("2·m·δ (m = %d)", c.Canaries), 2*float64(c.Canaries)*delta, beta)
	gap := func(counts Counts) func(float64) (float64, error) {
		return func(eps float64) (float64, error) {
			lp, err := membershipLogP(counts, eps, delta)
			return lp - numeric.LogPos(beta), err
		}
	}
	// At ε = logit(v/r) the binomial's mean, and median, is v, so the tail
	// alone is at least ½: no claim from there up is refuted at beta < ½.
	start := 1.0
	if beta < 0.5 && c.Correct > 0 && c.Correct < c.Guesses {
		start = numeric.Logit(float64(c.Correct) / float64(c.Guesses))
	}
	return epsilonSearch(gap(c), gap(c.perfect()), -numeric.LogPos(beta), start, beta, warn)
}

// epsilonSearch runs refutedRange for a test given as a log-p-value gap
// and assembles the LowerBound with its warnings; perfect is the gap of
// the strongest outcome the canaries allow (for TooFewCanaries), flat the
// gap where the test saturates and start the first upper end tried (see
// refutedRange).
func epsilonSearch(gap, perfect func(float64) (float64, error), flat, start, beta float64, warn []Warning) (LowerBound, error) {
	res := LowerBound{Significance: beta, Warnings: warn}
	g0, err := gap(0)
	if err != nil {
		return LowerBound{}, err
	}
	if g0 >= 0 {
		res.PValue = math.Exp(g0 + numeric.LogPos(beta))
		res.Warnings = append(res.Warnings, notCertified(perfect)...)
		return res, nil
	}
	lo, hi, err := refutedRange(gap, g0, flat, start)
	if err != nil {
		return LowerBound{}, err
	}
	glo, err := gap(lo)
	if err != nil {
		return LowerBound{}, err
	}
	res.Value, res.Upper, res.PValue = lo, hi, math.Exp(glo+numeric.LogPos(beta))
	return res, nil
}

// notCertified returns the warnings of an outcome that refutes nothing
// above 0: NothingCertified, and TooFewCanaries when the strongest outcome
// (gap of the perfect counts at 0) would not refute it either.
func notCertified(perfect func(float64) (float64, error)) []Warning {
	w := []Warning{{NothingCertified, "the observed guesses refute no claim above 0"}}
	if g, err := perfect(0); err == nil && g >= 0 {
		w = append(w, Warning{TooFewCanaries,
			"too few canaries: even all guesses correct would not certify a bound above 0"})
	}
	return w
}
