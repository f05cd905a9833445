// Package audit turns the outcome of a one-run privacy audit into certified
// lower bounds on the privacy parameters of the audited mechanism: canaries
// are inserted into one training run (or one release), an attack guesses
// their secrets, and the number of correct guesses refutes every privacy
// claim under which that many correct guesses would be too unlikely.
//
// Each method is a hypothesis test at a per-test significance β
// (Significance: 1 − confidence, divided among the tests tried). Audit
// bundles the inputs of one row and offers one method per output: the ε
// and μ lower bounds, the p-value of a claimed ε, whether the claim is
// refuted, and the δ term used. Inputs outside their domain are reported as
// *InputError naming the input; results that are valid but weak carry
// Warning values.
//
// # Membership, inclusion probability ½
//
// Steinke, Nasr & Jagielski, "Privacy Auditing with One (1) Training Run",
// NeurIPS 2023. Each of m canaries is included in the training set
// independently with probability ½ (S_i ∈ {−1, +1} uniform); the mechanism
// is (ε, δ)-DP with respect to changing one S_i, i.e. adding or removing
// one canary (add/remove neighbours). The attacker guesses the membership
// of r canaries after seeing the output and abstains on the rest; v
// guesses are right. Their main result for (ε, δ)-DP (Thm 3; Swanberg et
// al. 2025 cite it as Thm 5.2 of the arXiv version, with Prop 5.7 and
// Lemma 5.6 behind it) bounds
//
//	Pr[W ≥ v] ≤ f(v) + 2·m·δ·max_{i ∈ [m]} (f(v − i) − f(v))/i,
//	f(u) = Pr[Binomial(r, e^ε/(1 + e^ε)) ≥ u],  f(u) = 1 for u ≤ 0,
//
// and the right-hand side, capped at 1 as in their reference code
// (p_value_DP_audit), is the p-value of the claim "(ε, δ)-DP" given v:
// MembershipPValue. MembershipEpsilon is the largest ε it refutes (their
// get_eps_audit). The δ term counts all m canaries, abstentions included,
// and the factor 2; copies of that code that comment it out silently audit
// δ = 0. For δ = 0 the bound is the binomial tail alone (W is
// stochastically dominated by the binomial; Lemma 4.9 there).
//
// # f-DP auditing, k options per canary
//
// Mahloujifar, Melis & Chaudhuri, "Auditing f-Differential Privacy in One
// Run", ICML 2025 (arXiv 2410.22235). The canaries' secrets are drawn
// independently and uniformly from k options (k = 2: membership with
// inclusion probability ½; k > 2: reconstruction of one of k values); the
// attacker makes c' guesses after seeing the output and c are right. The
// claim is that the mechanism is f-DP for a symmetric trade-off function f
// (Dong, Roth & Su 2022) with respect to changing one canary's secret. The
// paper's numerical audit, the recursion its reference implementations
// call rh_with_cap / audit_rh_with_cap (facebookresearch/PrivacyGuard,
// privacy_guard/analysis/mia/fdp_analysis_node.py; google-deepmind/
// jax_privacy, auditing.py, _epsilon_one_run_fdp), starts from the mass the
// significance τ puts on c correct and c' − c wrong guesses per canary,
//
//	r_c = τ·c/m,  h_c = τ·(c' − c)/m,
//
// and for i = c − 1, …, 0 applies
//
//	h_i = max(h_{i+1}, (k − 1)·f(1 − r_{i+1})),
//	r_i = min(1, r_{i+1} + i/(c' − i)·(h_i − h_{i+1})),
//
// where x ↦ f(1 − x) is, for symmetric f, the inverse of the paper's
// blow-up function x ↦ 1 − f(x). If r_0 + h_0 > c'/m, then c or more
// correct guesses have probability below τ under f, and f is refuted at
// significance τ: FDPRejects. (The cap at 1 is jax's; PrivacyGuard lets r
// exceed 1, which refutes in the same cases.) Claims audited here:
//
//   - GaussianTradeOff (μ-GDP, f(x) = Φ(Φ⁻¹(1 − x) − μ)): FDPMu, the
//     largest μ refuted.
//   - EpsDeltaTradeOff ((ε, δ)-DP, f(x) = max(0, 1 − δ − e^ε·x,
//     e^−ε·(1 − δ − x))): FDPEpsilon, the largest ε refuted at δ, a lower
//     bound on ε for every (ε, δ)-DP mechanism.
//
// An ε derived from the μ lower bound (GaussianEpsilon, what jax_privacy's
// epsilon_one_run_fdp and PrivacyGuard's FDPAnalysisNode report) is not a
// lower bound on the (ε, δ)-DP of a general mechanism: it refutes only
// mechanisms whose whole trade-off curve is Gaussian. Label it as such, or
// do not print it.
//
// # Non-uniform priors
//
// Swanberg, Annamalai, Hayes, Balle & Smith, "Beyond the Worst Case:
// Extending Differential Privacy Guarantees to Realistic Adversaries"
// (2025), Thm 3.2 (pure DP), Cor 3.4 and Thm 3.5 (with δ), inverted:
// TailBound bounds the probability of at least k successes over n targets
// with prior success probabilities p_i (replace-one neighbours, independent
// priors), and PriorEpsilon is the largest ε under which k successes are
// less likely than β. Membership with an inclusion probability π ≠ ½ and
// k-ary guessing reach this route through MembershipPriors and
// ReconstructionPriors. At p_i = ½ the route is Steinke et al.'s test with
// n·δ in place of 2·m·δ (see PriorEpsilon). Both routes evaluate their
// tail bounds with package bound's OneRunTail (LogBound, LogDual), the
// log-space forms of the bounds of the row columns.
//
// # Searches
//
// Every lower bound is found by bracketing, then regula falsi (Illinois)
// with bisection steps, to an interval of width at most 1e-9, and the
// returned value is its conservative end: the claim at LowerBound.Value is
// refuted at significance β, the claim at LowerBound.Upper (at most 1e-9
// above) is not. A refuted value is a valid lower bound even where the
// p-value is not monotone in ε (see LowerBound). Tails come from package
// poibin (binomial and Poisson-binomial, exact in log space far below the
// float64 range), and every p-value is raised by a relative 1e-9 before it
// is compared, so round-off never refutes a claim.
//
// The package is pure: it knows nothing of rows, files or tables.
package audit
