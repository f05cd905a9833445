package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/table"
)

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
