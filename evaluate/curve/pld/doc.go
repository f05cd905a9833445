// Package pld is a privacy-loss-distribution accountant, for DP-SGD (the
// Poisson-subsampled Gaussian mechanism composed over its steps) and for
// any list of stages of it, of the Laplace mechanism, of k-ary randomized
// response and of (ε, δ)-DP mechanisms ([Stage], [Kind],
// [NewDPSGD]).
//
// Each stage's privacy-loss distribution is discretised pessimistically
// on a grid ε_k = k·h (connect-the-dots, Doroshenko, Cherubin, Lukas,
// Elfimov & Talwar 2022), composed by FFT convolution, and every numerical
// error made on the way (truncation, discretisation, floating point) is
// carried as a slack added to δ, so that δ(ε), ε(δ) and the trade-off
// curve read from a [PLD] are upper bounds on the exact mechanism's
// (Kulynych et al. 2025 use this view for their DP-SGD figures). The
// neighbouring relation is add/remove of one record; the two directions
// of the privacy loss are both accounted for.
package pld
