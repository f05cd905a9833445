// Package bound holds the attack-risk bounds of five papers, one file per
// paper, named for what it bounds. Each takes a trade-off curve
// (package curve) or plain numbers, and knows nothing of rows or files:
//
//   - reconstruction.go: Guerra-Balboa et al., membership-inference
//     advantage, reconstruction robustness (ReRo) and its uniform form
//     (U-ReRo), attribute inference, over a prior's statistics.
//   - pmp.go, pmp_exact.go: Lowy et al., privacy against membership
//     (PMP) of a fixed parent set, for the Gaussian mechanism on sum-form
//     queries (Prop. 12) and by exact enumeration (Prop. 9, Lemma 3).
//   - onerun.go: Swanberg et al., the one-run bounds: per-guess success,
//     posterior, bit leakage, and the tails of the number of correct
//     guesses (a Poisson-binomial, package poibin), which audits invert.
//   - fdp.go, fdp_binary.go, fdp_calibrate.go: Kulynych et al. 2025,
//     "Unifying Re-Identification, Attribute Inference, and Data
//     Reconstruction Risks in Differential Privacy": success and advantage
//     comparators, predicate singling-out, binary attribute inference and
//     the calibration of ε, μ or σ to a target risk (§9).
//   - fano.go: Guo et al., Fano's-inequality bounds on the success of
//     reconstructing one of M candidates from mutual information.
//
// Every bound rounds towards more risk (numeric.RoundUp), and every
// calibrated parameter towards less (numeric.RoundDown).
package bound
