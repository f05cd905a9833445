package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/table"
)

// The comparators Kulynych et al. 2025 set the f-DP bounds against (App.
// B): the reconstruction robustness of Balle et al. and the standard
// analysis of the row's (ε, δ) view.

// reroColumns are the reconstruction-robustness comparators of Balle et
// al., from pure ε-DP, Rényi DP and zCDP.
func reroColumns() []OutputColumn {
	return []OutputColumn{
		{
			Name: "rero_eps", Family: "rero", Format: table.Probability,
			Brief: reroBrief, Source: reroSource,
			Applies: Applies{Mechanisms: pureMechanisms(), Only: OnlyPure, Requires: NeedBaseline},
			Sheet: SheetForm{Rows: sheetRowsPure, formula: func(x *sheetRow) string {
				return form("MIN(1,EXP($1)*$2)", x.pureEps(), x.base())
			}},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound for pure ε-DP, e^ε·baseline",
			Formula:  "min(1, e^ε·baseline) (the t → ∞ limit of Thm B.2)",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", App. B",
			Needs:    "epsilon (pure) or laplace_scale or rr; baseline or candidates",
			Assumes:  "pure ε-DP",
			compute: func(r *Release) (float64, skip) {
				return bound.ReRoPure(r.pureEps, r.Baseline), skip{}
			},
		},
		{
			Name: "rero_rdp", Family: "rero", Format: table.Probability,
			Brief: reroBrief, Source: reroSource,
			Applies: Applies{Mechanisms: []Mechanism{MechanismGaussian, MechanismGDP, MechanismZCDP, MechanismRDP, MechanismDPSGD, MechanismMarginals}, Requires: NeedBaseline},
			Sheet: SheetForm{Rows: sheetRowsRDP, formula: func(x *sheetRow) string {
				return x.reroRDP()
			}},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound from Rényi DP, at the row's order (rdp) or minimised over the orders of its RDP curve",
			Formula:  "min over orders t of min(1, (baseline·e^{ε(t)})^{(t−1)/t}); for zCDP-like rows ε(t) = ρt, whose minimum is rero_zcdp",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", Thm B.2 and Cor. B.2",
			Needs:    "an RDP view; baseline or candidates",
			Assumes:  "Rényi DP under either neighbouring relation",
			compute: func(r *Release) (float64, skip) {
				if r.hasRDP {
					return bound.ReRoRDPCurve(r.rdp.Orders, r.rdp.Epsilons, r.Baseline), skip{}
				}
				return bound.ReRoZCDP(r.rho, r.Baseline), skip{}
			},
		},
		{
			Name: "rero_zcdp", Family: "rero", Format: table.Probability,
			Brief: reroBrief, Source: reroSource,
			Applies: Applies{Mechanisms: []Mechanism{MechanismGaussian, MechanismGDP, MechanismZCDP, MechanismMarginals}, Requires: NeedBaseline},
			Sheet: SheetForm{Rows: sheetRowsRho, formula: func(x *sheetRow) string {
				return x.reroZCDP()
			}},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound for ρ-zCDP (ρ = μ²/2 for Gaussian rows)",
			Formula:  "exp(−(√ln(1/baseline) − √ρ)²) when ρ < ln(1/baseline), else 1",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", Cor. B.1, Eq. (24)",
			Needs:    "rho, or sigma/mu; baseline or candidates",
			Assumes:  "ρ-zCDP under either neighbouring relation",
			compute: func(r *Release) (float64, skip) {
				return bound.ReRoZCDP(r.rho, r.Baseline), skip{}
			},
		},
	}
}

// The summaries of the README's column table that several columns share.
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
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return x.eps().s
			}},
			Meaning:  "the ε at which the release is (ε, δ)-DP for the row's δ: the ε every ε-based column uses",
			Formula:  "the row's epsilon for pure and approx (for approx with compositions: the optimal composition at δ_total = compositions·δ); Gaussian: the root of Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ (Balle & Wang 2018); zcdp, rdp: min over orders of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1) (Balle et al. 2020); dpsgd: the smallest ε with δ(ε) ≤ δ for its PLD accountant (exact for the discrete, pessimistic PLD; see eps_at_delta_rdp for RDP); laplace and rr: their exact privacy profiles",
			Citation: "Balle & Wang 2018; Balle, Barthe, Gaboardi, Hsu & Sato 2020; Kairouz, Oh & Viswanath 2015",
			Needs:    mechanismParams + "; delta for mechanisms without a native ε",
			Assumes:  "the neighbouring relation of the mechanism's parameters; rounded up",
			fromEps: func(r *Release, eps, delta float64) (float64, skip) {
				return eps, skip{}
			},
		},
	}
}

// adpColumns is the standard advantage bound from (ε, δ) alone.
func adpColumns() []OutputColumn {
	return []OutputColumn{
		{
			Name: "adp_advantage", Family: "adp", Format: table.Probability, Round: RoundUp,
			Brief: "(e^ε − 1 + 2δ)/(e^ε + 1), the standard (ε, δ) bound", Source: "Kairouz et al. 2015",
			Applies:  Applies{Requires: NeedDelta},
			Sheet:    epsDeltaAdvantageSheet(),
			Meaning:  "the standard (ε, δ) advantage bound on membership inference and on any binary attack, computed from (ε, δ) alone",
			Formula:  "(e^ε − 1 + 2δ)/(e^ε + 1); " + epsView,
			Citation: "Kairouz, Oh & Viswanath 2015; as restated in " + kulynych + ", Prop. A.1",
			Needs:    "epsilon (and delta); for gaussian and gdp: sigma or mu, and delta",
			Assumes:  "(ε, δ)-DP under the neighbouring relation the parameters were stated for",
			fromEps: func(r *Release, eps, delta float64) (float64, skip) {
				return curve.EpsDelta{Epsilon: eps, Delta: delta}.WorstAdvantage(), skip{}
			},
		},
	}
}

// epsDeltaAdvantageSheet is the spreadsheet formula of the standard (ε, δ)
// advantage (e^ε − 1 + 2δ)/(e^ε + 1), which adp_advantage and
// gb_mia_humphries both state.
func epsDeltaAdvantageSheet() SheetForm {
	return SheetForm{Advantage: true, Rows: sheetRowsEps, formula: func(x *sheetRow) string {
		return form("(EXP($1)-1+2*$2)/(EXP($1)+1)", x.eps(), x.delta())
	}}
}
