package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// gbColumns are the bounds of Guerra-Balboa et al. (membership inference,
// reconstruction, attribute inference).
func gbColumns() []OutputColumn {
	return []OutputColumn{
		withBrief(gbMIABrief, gbMIASource, withSheet(formula.Form{Advantage: true, Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("MIN(1,EXP($1)-1)", x.PureEps())
		}}, gbColumn("gb_mia_yeom", "upper bound on membership-inference advantage of Yeom et al., as analysed by Guerra-Balboa et al.", "min(1, e^ε − 1)", "Thm 4.5 (Yeom et al. 2018)", AskedAlways,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				return bound.GBMIAYeom(eps), resolve.Skip{}
			}))),
		withBrief(gbMIABrief, gbMIASource, withSheet(formula.Form{Advantage: true, Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("1-EXP(-$1)", x.PureEps())
		}}, gbColumn("gb_mia_erlingsson", "upper bound on membership-inference advantage (Erlingsson et al.), tighter than Yeom's", "1 − e^{−ε} (the corrected form)", "Thm 4.6 (corrected: e^{−ε}, not e^{−δ})", AskedAlways,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				return bound.GBMIAErlingsson(eps), resolve.Skip{}
			}))),
		withSheet(formula.Form{Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("MIN(EXP($1),1+($2-1)*((EXP($1)-1)/(EXP($1)+1)))/$2", x.PureEps(), x.Candidates())
		}}, gbColumn("gb_rero_exact", "upper bound on the success of exact reconstruction of a record's value among m candidates: drawn uniformly from `candidates` values, or from the loaded distribution of the prior key's attribute (the worst cell)", "min{1, κ₀·e^ε, κ₀·(1 + (m − 1)·t)}, κ₀ = the largest prior probability (1/m if uniform), t = (e^ε − 1)/(e^ε + 1)", "Prop. 5.1 (corrected form; Table 2 rows 5 and 8 are wrong)", AskDistribution,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				if r.Candidates > 0 {
					return bound.GBReRoExactUniform(eps, int(min(r.Candidates, 1<<31))), resolve.Skip{}
				}
				return r.GBWorstOverPrior(func(p bound.GBPrior) float64 { return bound.GBReRoExact(eps, p.Kappa0, p.M) })
			})),
		withSheet(formula.Form{Advantage: true, Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("MIN($2*(EXP($1)-1),(EXP($1)-1)/(EXP($1)+1))", x.PureEps(), x.Base())
		}}, requires(resolve.NeedBaseline, gbColumn("gb_urero", "upper bound on the unbiased reconstruction-robustness advantage (success beyond the best a-priori guess κ = baseline), any tolerance", "min{κ·(e^ε − 1), t}, t = (e^ε − 1)/(e^ε + 1)", "Thm 7.2", AskedAlways,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				return bound.GBUReRo(eps, r.Baseline), resolve.Skip{}
			}))),
		withSheet(formula.Form{Advantage: true, Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("MIN((EXP($1)-1)/$2,($2-1)/$2*((EXP($1)-1)/(EXP($1)+1)))", x.PureEps(), x.Candidates())
		}}, gbColumn("gb_urero_uniform", "the unbiased reconstruction-robustness bound for a uniform prior over `candidates` values; also the informed membership-inference and uniform attribute-inference bound", "min{(e^ε − 1)/m, ((m − 1)/m)·t}, t = (e^ε − 1)/(e^ε + 1)", "Eq. (6)", AskCandidates,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				return bound.GBUReRoUniform(eps, int(min(r.Candidates, 1<<31))), resolve.Skip{}
			})),
		withSheet(formula.Form{Advantage: true, Rows: formula.RowsPure, Formula: func(x *formula.Row) string {
			return formula.Fill("MIN((EXP($1)-1)/$2,(EXP($1)-1)/(EXP($1)+1),($2-1)/$2*((EXP($1)-1)/(EXP($1)+1)),1-1/$2)", x.PureEps(), x.Candidates())
		}}, gbColumn("gb_aia_adv", "upper bound on the advantage of any attribute-inference attack, and on the unbiased reconstruction-robustness advantage of exact reconstruction, with a uniform prior over `candidates` values or the loaded distribution of the prior key's attribute (the worst cell)", "min{κ₀(e^ε − 1), t, κ₀(m − 1)t + κ₀ − κ₀⁻, 1 − μ}: κ₀ the largest and κ₀⁻ the smallest prior probability over the attribute's m values (0 for a value the cell never shows), μ = Σπ²; κ₀ = κ₀⁻ = μ = 1/m if uniform", "Prop. 8.2 with Thm 7.3 (and Thm 7.2, §9)", AskDistribution,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				if r.Candidates > 0 {
					m := int(min(r.Candidates, 1<<31))
					k := 1 / float64(m)
					return bound.GBAIAAdvantage(eps, k, k, k, m), resolve.Skip{}
				}
				return r.GBWorstOverPrior(func(p bound.GBPrior) float64 { return bound.GBAIAAdvantage(eps, p.Kappa0, p.Kappa0Min, p.Mu, p.M) })
			})),
		withFormat(table.Real, requires(resolve.NeedBaseline, gbColumn("gb_eps_for_target", "the largest ε whose unbiased reconstruction-robustness advantage (gb_urero) stays at or below target_advantage at the row's baseline", "inverse of min{κ(e^ε − 1), t} in ε; rounded down", "Thm 7.2, closed-form inverse (derived)", AskTarget,
			func(r *resolve.Release, eps float64) (float64, resolve.Skip) {
				e, ok := bound.GBUReRoEpsilon(r.Target, r.Baseline)
				return inverseResult(e, ok, "ε")
			}))),
		{
			Name: "gb_mia_humphries", Family: "gb", Format: table.Probability,
			Brief: "membership-inference advantage with δ: (e^ε − 1 + 2δ)/(e^ε + 1)", Source: "Guerra-Balboa et al. 2024, Thm 4.9",
			Applies:  Applies{Requires: resolve.NeedDelta},
			Sheet:    epsDeltaAdvantageSheet(),
			Meaning:  "upper bound on the strong membership-inference advantage with δ (Humphries et al.), as analysed by Guerra-Balboa et al.",
			Formula:  "(e^ε − 1 + 2δ)/(e^ε + 1); " + epsView,
			Citation: guerraBalboa + ", Thm 4.9 (Humphries et al. 2023)",
			Needs:    mechanismParams,
			Assumes:  "(ε, δ)-DP under replace-one neighbours",
			fromEps:  alwaysDefinedFromEps(func(r *resolve.Release, eps, delta float64) float64 { return bound.GBMIAHumphries(eps, delta) }),
		},
	}
}

// guerraBalboa cites Guerra-Balboa et al. 2024.
const guerraBalboa = "Guerra-Balboa, Sauer & Strufe 2024, \"Analysis and Measurement of Attack Resilience of Differential Privacy\""

// gbColumn is a bound of Guerra-Balboa et al., which all assume pure ε-DP
// under replace-one neighbours: rows that are not pure ε-DP leave it empty
// without a message (it does not apply to them).
func gbColumn(name, meaning, formula, where string, request Ask, f func(r *resolve.Release, eps float64) (float64, resolve.Skip)) OutputColumn {
	return OutputColumn{
		Name: name, Family: "gb", Format: table.Probability,
		Brief: gbReconstructionBrief, Source: gbReconstructionSource,
		Applies:  Applies{Mechanisms: release.PureMechanisms(), Only: OnlyPureRow, Asks: request},
		Meaning:  meaning,
		Formula:  formula + "; ε is the row's pure ε (pure, laplace, rr rows; δ must be 0)",
		Citation: guerraBalboa + ", " + where,
		Needs:    "a pure ε-DP row (epsilon without delta, laplace_scale, or rr)" + map[bool]string{true: "; " + request.String(), false: ""}[request != AskedAlways],
		Assumes:  "pure ε-DP under replace-one neighbours (an ε stated for add/remove neighbours must be doubled)",
		Compute: func(r *resolve.Release) (float64, resolve.Skip) {
			return f(r, r.PureEps)
		},
	}
}

// The summaries of the Guerra-Balboa et al. columns in the column table of
// docs/outputs.md: the reconstruction bounds (gbColumn's), and the membership
// bounds without δ (withBrief).
const (
	gbMIABrief             = "membership-inference advantage: min(1, e^ε − 1); 1 − e^{−ε}"
	gbMIASource            = "Guerra-Balboa et al. 2024, Thm 4.5, 4.6 (corrected)"
	gbReconstructionBrief  = "exact reconstruction (Prop. 5.1, corrected), unbiased reconstruction robustness (Thm 7.2, Eq. 6), attribute inference (Prop. 8.2), and the largest ε for a target; pure ε-DP only"
	gbReconstructionSource = "Guerra-Balboa et al. 2024"
)
