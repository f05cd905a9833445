// Package audit turns the outcome of a one-run privacy audit into certified
// lower bounds on the privacy parameters of the audited mechanism: canaries
// are inserted into one training run (or one release), an attack guesses
// their secrets, and the number of correct guesses refutes every privacy
// claim under which that many correct guesses would be too unlikely.
//
// Four methods, each a hypothesis test at a per-test significance β (see
// Significance: 1 − confidence, divided among the tests tried):
//
//   - Membership, inclusion probability ½ (Steinke, Nasr & Jagielski,
//     "Privacy Auditing with One (1) Training Run", NeurIPS 2023):
//     MembershipPValue is the p-value of the claim "(ε, δ)-DP" from the
//     binomial tail plus the paper's δ term, MembershipEpsilon the largest
//     ε it refutes.
//   - f-DP auditing (Mahloujifar, Melis & Chaudhuri, "Auditing
//     f-Differential Privacy in One Run", ICML 2025): FDPMu for a Gaussian
//     (μ-GDP) trade-off, FDPEpsilon for the (ε, δ)-DP trade-off, both for
//     membership (k = 2 options) and for reconstruction with k options per
//     canary.
//   - Non-uniform priors (Swanberg, Annamalai, Hayes, Balle & Smith,
//     "Beyond the Worst Case: Extending Differential Privacy Guarantees to
//     Realistic Adversaries", 2025, Thm 3.2, Cor 3.4 and Thm 3.5 inverted):
//     TailBound bounds the probability of at least k successes over targets
//     with prior success probabilities p_i, PriorEpsilon is the largest ε
//     under which k successes are less likely than β. Membership with an
//     inclusion probability π ≠ ½ and k-ary guessing reach this route
//     through MembershipPriors and ReconstructionPriors.
//
// Every lower bound is found by bracketing and bisection to an interval of
// width at most 1e-9 and the returned value is the conservative end of it:
// the claim at the returned value is refuted at significance β, the claim
// at LowerBound.Upper (at most 1e-9 above) is not. A refuted value is a
// valid lower bound even where the p-value is not monotone in ε (see
// LowerBound).
//
// The package is pure: it knows nothing of rows, files or tables. Inputs
// are validated and reported as *InputError (naming the input at fault);
// conditions under which a result is valid but weak are reported as
// Warning values.
package audit
