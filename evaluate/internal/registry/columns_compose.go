// The output column of composition: how far a composed row's curve may be
// above the exact composition of its releases.

package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// composeColumns states the error of a composed row's curve.
func composeColumns() []OutputColumn {
	return []OutputColumn{
		{
			// fdp_composition_error bounds how far the f-DP columns of a
			// composed row may be above the exact composition's values:
			// 0 where the composition is computed exactly, the PLD
			// accountant's error where it is used.
			Name: "fdp_composition_error", Family: "fdp", Format: table.Probability, Round: resolve.RoundUp,
			Brief:   "how far a composed row's δ(ε), advantages and 1 − f may be above the exact composition's",
			Source:  "Doroshenko et al. 2022; Kairouz et al. 2015",
			Meaning: "for a row of several releases (compositions above 1, or extra_stages), a bound on how much its δ(ε), fdp_advantage, fdp_worst_advantage and 1 − fdp_success may exceed the exact values of the composition (they are never below them): 0 where the composition is computed exactly (Gaussian curves in closed form, the optimal composition theorem for pure and approx rows and binary rr, additive zCDP and RDP), the privacy-loss-distribution accountant's error where it is used (laplace rows, rr rows with more than two categories, mixtures in extra_stages, dpsgd rows: equal to pld_error there); empty for a single release",
			Formula: "PLD: discretisation (twice the largest δ difference between the grid used and one twice as coarse; 0 when every privacy loss is a grid point, as for randomized response) + floating-point round-off (a rigorous bound) + the tail mass moved to an infinite loss; closed forms: 0 (their rounding is directed upward)",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022 (connect-the-dots); Koskela, Jälkö & Honkela 2020 (error terms); Kairouz, Oh & Viswanath 2015, Thm 3.3 (optimal composition); " +
				kulynych + ", App. G.1 (composed Laplace)",
			Needs:   "compositions above 1, or extra_stages, or a dpsgd row",
			Assumes: "as fdp_success; rounded up",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) { return r.CompositionError() },
		},
	}
}
