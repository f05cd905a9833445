// Package bound holds the attack-risk bounds of five papers, one file per
// paper, named for what it bounds. Each takes a trade-off curve
// (package curve) or plain numbers, and knows nothing of rows or files:
//
//   - reconstruction.go: Guerra-Balboa, Sauer & Strufe 2024, "Analysis and
//     Measurement of Attack Resilience of Differential Privacy" (WPES '24):
//     membership-inference advantage, reconstruction robustness (ReRo),
//     U-ReRo and attribute inference of pure ε-DP, over a prior's
//     statistics.
//   - pmp.go, pmp_exact.go: Lowy et al. 2024, "Why Does Differential
//     Privacy with Large ε Defend Against Practical Membership Inference
//     Attacks?" (AAAI 2024): practical membership privacy (PMP) of a fixed
//     parent set, for the Gaussian mechanism on sum-form queries
//     (Prop. 12) and by exact enumeration (Prop. 9, Lemma 3).
//   - onerun.go: Swanberg, Annamalai, Hayes, Balle & Smith 2025, "Beyond
//     the Worst Case: Extending Differential Privacy Guarantees to
//     Realistic Adversaries": the success and posterior of one guess, bit
//     leakage, ε_protect, and the tails of the number of correct guesses
//     over many targets (a Poisson binomial, package poibin).
//   - fdp.go, fdp_binary.go, fdp_calibrate.go: Kulynych et al. 2025,
//     "Unifying Re-Identification, Attribute Inference, and Data
//     Reconstruction Risks in Differential Privacy": the prior-work
//     comparators (App. B), predicate singling-out (Thm F.2), binary
//     attribute inference (App. D) and the calibration of ε, μ or σ to a
//     target risk (§9).
//   - fano.go: Guo, Sablayrolles & Sanjabi 2022, "Analyzing Privacy
//     Leakage in Machine Learning via Multiple Hypothesis Testing: A Lesson
//     From Fano" (ICML): bounds on reconstructing one of M candidates from
//     the mutual information, RDP or zCDP of the release.
//
// Every bound rounds towards more risk (numeric.RoundUp), and every
// calibrated parameter towards less. Each paper file has a runnable
// example with a value printed in its paper.
package bound
