package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/table"
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
