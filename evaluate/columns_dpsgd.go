package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/table"
)

// dpsgdColumns compare the PLD accounting of a dpsgd row with RDP
// accounting, and say how exact the PLD accountant is.
func dpsgdColumns() []OutputColumn {
	return []OutputColumn{
		{
			Name: "eps_at_delta_rdp", Family: "dpsgd", Format: table.Real,
			Brief: dpsgdRDPBrief, Source: dpsgdRDPSource,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Requires: NeedDelta},
			Meaning:  "comparison: eps_at_delta of a dpsgd row under RDP accounting",
			Formula:  "min over dp_accounting's 156 orders α of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1), ε_α the composed RDP of the Poisson-subsampled Gaussian",
			Citation: "Mironov, Talwar & Zhang 2019; Balle, Barthe, Gaboardi, Hsu & Sato 2020",
			Needs:    "noise_multiplier, sample_rate, steps; delta",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				return r.rdp.EpsilonAt(r.delta), skip{}
			},
		},
		{
			Name: "fdp_advantage_rdp", Family: "dpsgd", Format: table.Probability,
			Brief: dpsgdRDPBrief, Source: dpsgdRDPSource,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Requires: NeedBaseline},
			Meaning:  "comparison: fdp_advantage of a dpsgd row under RDP accounting",
			Formula:  "1 − f(baseline) − baseline for the optimal conversion of the composed RDP curve (Zhu, Dong & Wang 2022)",
			Citation: kulynych + ", §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps; baseline or candidates",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				return numeric.RoundUp(r.rdp.Advantage(r.Baseline), 0, 1-r.Baseline), skip{}
			},
		},
		{
			Name: "fdp_worst_advantage_rdp", Family: "dpsgd", Format: table.Probability, Round: RoundUp,
			Brief: dpsgdRDPBrief, Source: dpsgdRDPSource,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "comparison: fdp_worst_advantage of a dpsgd row under RDP accounting",
			Formula:  "η = max_α (1 − f(α) − α) for the optimal conversion of the composed RDP curve",
			Citation: kulynych + ", Thm 3.4 and §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				return r.rdp.WorstAdvantage(), skip{}
			},
		},
		{
			Name: "pld_error", Family: "dpsgd", Format: table.Probability, Round: RoundUp,
			Brief: pldBrief, Source: pldSource,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "how much the PLD accountant's δ(ε) may exceed the exact δ(ε) of the continuous mechanism, for every ε; the same bounds the excess of fdp_advantage, fdp_worst_advantage and 1 − fdp_success of dpsgd rows (the accountant is pessimistic, so its values are never below the exact ones)",
			Formula:  "discretisation (twice the largest difference between δ on a grid twice as coarse and δ on the grid used, at the grid points and midway between them: connect-the-dots error falls as the square of the grid step where δ is smooth and as the grid step at its kinks, so this covers both) + floating-point round-off (a rigorous bound) + the tail mass moved to an infinite loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022 (connect-the-dots); Koskela, Jälkö & Honkela 2020 (error terms)",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			compute: fromPLD(func(a *pld.PLD) (float64, skip) {
				e, err := a.Errors()
				if err != nil {
					return 0, skip{why: "the PLD error estimate failed: " + err.Error()}
				}
				return e.Delta(), skip{}
			}),
		},
		{
			Name: "pld_grid_step", Family: "dpsgd", Format: table.Real,
			Brief: pldBrief, Source: pldSource,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "the grid step h of the PLD accountant's privacy-loss grid (chosen per row: a thirtieth of one step's privacy-loss standard deviation, coarsened so that the composed grid stays near 2^17 points, refined to at least 2^13 points down to s/300 when the composition is small)",
			Formula:  "h = s/30, s² the step-weighted mean variance of one step's privacy loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			compute:  fromPLD(func(a *pld.PLD) (float64, skip) { return a.GridStep(), skip{} }),
		},
	}
}

// fromPLD computes a column from the row's PLD accountant, and skips the
// column with the reason the row has none.
func fromPLD(f func(*pld.PLD) (float64, skip)) func(*Release) (float64, skip) {
	return func(r *Release) (float64, skip) {
		if r.pld == nil {
			return 0, skip{why: r.pldWhy}
		}
		return f(r.pld)
	}
}

// The summaries of the README's column table that several columns share.
const (
	dpsgdRDPBrief  = "a DP-SGD row's ε(δ), advantage and worst-case advantage under RDP accounting, for comparison with published guarantees"
	dpsgdRDPSource = "Mironov et al. 2019; Zhu, Dong & Wang 2022"
	pldBrief       = "how far the PLD accountant's δ(ε) may be above the exact one (discretisation + rounding + truncated tails), and its grid step"
	pldSource      = "Doroshenko et al. 2022"
)
