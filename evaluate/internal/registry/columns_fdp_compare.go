package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// The comparators Kulynych et al. 2025 set the f-DP bounds against (App.
// B): the reconstruction robustness of Balle et al. and the standard
// analysis of the row's (ε, δ) view.

// reroColumns are the reconstruction-robustness comparators of Balle et
// al., from pure ε-DP, Rényi DP and zCDP.
func reroColumns() []OutputColumn {
	return sharing("rero", reroBrief, reroSource, []OutputColumn{
		{
			Name: "rero_eps", Format: table.Probability,
			Applies: Applies{Mechanisms: release.PureMechanisms(), Only: OnlyPure, Requires: resolve.NeedBaseline},
			Sheet: formula.Form{Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
				return formula.Fill("MIN(1,EXP($1)*$2)", x.PureEps(), x.Base())
			}},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound for pure ε-DP, e^ε·baseline",
			Formula:  "min(1, e^ε·baseline) (the t → ∞ limit of Thm B.2)",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", App. B",
			Needs:    "epsilon (pure) or laplace_scale or rr; baseline or candidates",
			Assumes:  "pure ε-DP",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.ReRoPure(r.PureEps, r.Baseline) }),
		},
		{
			Name: "rero_rdp", Format: table.Probability,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian, release.MechanismGDP, release.MechanismZCDP, release.MechanismRDP, release.MechanismDPSGD, release.MechanismMarginals}, Requires: resolve.NeedBaseline},
			Sheet:    formula.Form{Rows: formula.RowsRDP, Formula: (*formula.Row).ReroRDP},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound from Rényi DP, at the row's order (rdp) or minimised over the orders of its RDP curve",
			Formula:  "min over orders t of min(1, (baseline·e^{ε(t)})^{(t−1)/t}); for zCDP-like rows ε(t) = ρt, whose minimum is rero_zcdp",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", Thm B.2 and Cor. B.2",
			Needs:    "an RDP view; baseline or candidates",
			Assumes:  "Rényi DP under either neighbouring relation",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				if r.RDPWhy != "" {
					return 0, resolve.Skip{Why: r.RDPWhy}
				}
				if r.HasRDP {
					return bound.ReRoRDPCurve(r.RDP.Orders, r.RDP.Epsilons, r.Baseline), resolve.Skip{}
				}
				return bound.ReRoZCDP(r.Rho, r.Baseline), resolve.Skip{}
			},
		},
		{
			Name: "rero_zcdp", Format: table.Probability,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian, release.MechanismGDP, release.MechanismZCDP, release.MechanismMarginals}, Requires: resolve.NeedBaseline},
			Sheet:    formula.Form{Rows: formula.RowsRho, Formula: (*formula.Row).ReroZCDP},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound for ρ-zCDP (ρ = μ²/2 for Gaussian rows)",
			Formula:  "exp(−(√ln(1/baseline) − √ρ)²) when ρ < ln(1/baseline), else 1",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", Cor. B.1, Eq. (24)",
			Needs:    "rho, or sigma/mu; baseline or candidates",
			Assumes:  "ρ-zCDP under either neighbouring relation",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.ReRoZCDP(r.Rho, r.Baseline) }),
		},
	})
}

// The summaries of the column table of docs/outputs.md that several columns share.
const (
	reroBrief  = "Balle et al.'s reconstruction-robustness bounds: e^ε·b; min_t (b·e^{ε(t)})^{(t−1)/t}; exp(−(√ln(1/b) − √ρ)²)"
	reroSource = "Kulynych et al. 2025, App. B"
)

// conversionColumns is the (ε, δ) view of the row that every ε-based column
// uses.
func conversionColumns() []OutputColumn {
	return []OutputColumn{
		{
			Name: "eps_at_delta", Family: "conversion", Format: table.Real,
			Brief: "the ε at the row's δ that every ε-based column uses", Source: "Balle & Wang 2018; Balle et al. 2020",
			Applies: Applies{Requires: resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				return x.Eps().Text
			}},
			Meaning:  "the ε at which the release is (ε, δ)-DP for the row's δ: the ε every ε-based column uses (for composed approx rows, whose delta is per step, at δ_total = compositions·δ; for the other mechanisms delta is the whole release's)",
			Formula:  "the row's epsilon for pure and approx (for approx with compositions: the optimal composition at δ_total = compositions·δ); Gaussian: the root of Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ (Balle & Wang 2018); zcdp, rdp: min over orders of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1) (Balle et al. 2020); dpsgd: the smallest ε with δ(ε) ≤ δ for its PLD accountant (exact for the discrete, pessimistic PLD; see eps_at_delta_rdp for RDP); laplace and rr: their exact privacy profiles",
			Citation: "Balle & Wang 2018; Balle, Barthe, Gaboardi, Hsu & Sato 2020; Kairouz, Oh & Viswanath 2015",
			Needs:    mechanismParams + "; delta for mechanisms without a native ε",
			Assumes:  "the neighbouring relation of the mechanism's parameters; rounded up",
			fromEps:  alwaysDefinedFromEps(func(r *resolve.Release, eps, delta float64) float64 { return eps }),
		},
	}
}

// adpColumns is the standard advantage bound from (ε, δ) alone.
func adpColumns() []OutputColumn {
	return []OutputColumn{
		{
			Name: "adp_advantage", Family: "adp", Format: table.Probability, Round: resolve.RoundUp,
			Brief: "(e^ε − 1 + 2δ)/(e^ε + 1), the standard (ε, δ) bound", Source: "Kairouz et al. 2015",
			Applies:  Applies{Requires: resolve.NeedDelta},
			Sheet:    epsDeltaAdvantageSheet(),
			Meaning:  "the standard (ε, δ) advantage bound on membership inference and on any binary attack, computed from (ε, δ) alone",
			Formula:  "(e^ε − 1 + 2δ)/(e^ε + 1); " + epsView,
			Citation: "Kairouz, Oh & Viswanath 2015; as restated in " + kulynych + ", Prop. A.1",
			Needs:    "epsilon (and delta); for gaussian and gdp: sigma or mu, and delta",
			Assumes:  "(ε, δ)-DP under the neighbouring relation the parameters were stated for",
			fromEps: alwaysDefinedFromEps(func(r *resolve.Release, eps, delta float64) float64 {
				return curve.EpsDelta{Epsilon: eps, Delta: delta}.WorstAdvantage()
			}),
		},
	}
}

// epsDeltaAdvantageSheet is the spreadsheet formula of the standard (ε, δ)
// advantage (e^ε − 1 + 2δ)/(e^ε + 1), which adp_advantage and
// gb_mia_humphries both state.
func epsDeltaAdvantageSheet() formula.Form {
	return formula.Form{Advantage: true, Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
		return formula.Fill("(EXP($1)-1+2*$2)/(EXP($1)+1)", x.Eps(), x.Delta())
	}}
}

// dpsgdColumns compare the PLD accounting of a dpsgd row with RDP
// accounting, and say how exact the PLD accountant is.
func dpsgdColumns() []OutputColumn {
	return append(sharing("dpsgd", dpsgdRDPBrief, dpsgdRDPSource, []OutputColumn{
		{
			Name: "eps_at_delta_rdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Requires: resolve.NeedDelta},
			Meaning:  "comparison: eps_at_delta of a dpsgd row under RDP accounting",
			Formula:  "min over dp_accounting's 156 orders α of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1), ε_α the composed RDP of the Poisson-subsampled Gaussian",
			Citation: "Mironov, Talwar & Zhang 2019; Balle, Barthe, Gaboardi, Hsu & Sato 2020",
			Needs:    "noise_multiplier, sample_rate, steps; delta",
			Assumes:  "add/remove neighbours; rounded up",
			Compute:  resolve.RDPComparison(func(r *resolve.Release) float64 { return r.RDP.EpsilonAt(r.Delta) }),
		},
		{
			Name: "fdp_advantage_rdp", Format: table.Probability,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Requires: resolve.NeedBaseline},
			Meaning:  "comparison: fdp_advantage of a dpsgd row under RDP accounting",
			Formula:  "1 − f(baseline) − baseline for the optimal conversion of the composed RDP curve (Zhu, Dong & Wang 2022)",
			Citation: kulynych + ", §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps; baseline or candidates",
			Assumes:  "add/remove neighbours; rounded up",
			Compute:  resolve.RDPComparison(func(r *resolve.Release) float64 { return numeric.RoundUp(r.RDP.Advantage(r.Baseline), 0, 1-r.Baseline) }),
		},
		{
			Name: "fdp_worst_advantage_rdp", Format: table.Probability, Round: resolve.RoundUp,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}},
			Meaning:  "comparison: fdp_worst_advantage of a dpsgd row under RDP accounting",
			Formula:  "η = max_α (1 − f(α) − α) for the optimal conversion of the composed RDP curve",
			Citation: kulynych + ", Thm 3.4 and §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours; rounded up",
			Compute:  resolve.RDPComparison(func(r *resolve.Release) float64 { return r.RDP.WorstAdvantage() }),
		},
	}), sharing("dpsgd", pldBrief, pldSource, []OutputColumn{
		{
			Name: "pld_error", Format: table.Probability, Round: resolve.RoundUp,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}},
			Meaning:  "how much the PLD accountant's δ(ε) may exceed the exact δ(ε) of the continuous mechanism, for every ε; the same bounds the excess of fdp_advantage, fdp_worst_advantage and 1 − fdp_success of dpsgd rows (the accountant is pessimistic, so its values are never below the exact ones)",
			Formula:  "discretisation (twice the largest difference between δ on a grid twice as coarse and δ on the grid used, at the grid points and midway between them: connect-the-dots error falls as the square of the grid step where δ is smooth and as the grid step at its kinks, so this covers both) + floating-point round-off (a rigorous bound) + the tail mass moved to an infinite loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022 (connect-the-dots); Koskela, Jälkö & Honkela 2020 (error terms)",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			Compute: fromPLD(func(a *pld.PLD) (float64, resolve.Skip) {
				e, err := a.Errors()
				if err != nil {
					return 0, resolve.Skip{Why: "the PLD error estimate failed: " + err.Error()}
				}
				return e.Delta(), resolve.Skip{}
			}),
		},
		{
			Name: "pld_grid_step", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}},
			Meaning:  "the grid step h of the PLD accountant's privacy-loss grid (chosen per row: a thirtieth of one step's privacy-loss standard deviation, coarsened so that the composed grid stays near 2^17 points, refined to at least 2^13 points down to s/300 when the composition is small)",
			Formula:  "h = s/30, s² the step-weighted mean variance of one step's privacy loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			Compute:  fromPLD(func(a *pld.PLD) (float64, resolve.Skip) { return a.GridStep(), resolve.Skip{} }),
		},
	})...)
}

// fromPLD computes a column from the row's PLD accountant, and skips the
// column with the reason the row has none.
func fromPLD(f func(*pld.PLD) (float64, resolve.Skip)) func(*resolve.Release) (float64, resolve.Skip) {
	return func(r *resolve.Release) (float64, resolve.Skip) {
		if r.PLD == nil {
			return 0, resolve.Skip{Why: r.PLDWhy}
		}
		return f(r.PLD)
	}
}

// The summaries of the column table of docs/outputs.md that several columns share.
const (
	dpsgdRDPBrief  = "a DP-SGD row's ε(δ), advantage and worst-case advantage under RDP accounting, for comparison with published guarantees"
	dpsgdRDPSource = "Mironov et al. 2019; Zhu, Dong & Wang 2022"
	pldBrief       = "how far the PLD accountant's δ(ε) may be above the exact one (discretisation + rounding + truncated tails), and its grid step"
	pldSource      = "Doroshenko et al. 2022"
)
