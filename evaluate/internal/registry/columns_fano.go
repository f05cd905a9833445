package registry

import (
	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// fanoColumns are the Fano bounds of Guo et al. on reconstruction among M
// candidates.
func fanoColumns() []OutputColumn {
	return []OutputColumn{
		withSheet(formula.Form{Advantage: true}, fanoColumn("fano_adv_alpha1", fanoAdvantage+"Algorithm 1, the mutual-information (α = 1) bound", func(a1, _ bound.FanoBound) float64 { return a1.Advantage })),
		withSheet(formula.Form{Advantage: true}, fanoColumn("fano_adv_opt", fanoAdvantage+"Algorithm 2 optimised over Rényi orders (never above fano_adv_alpha1)", func(_, best bound.FanoBound) float64 { return best.Advantage })),
		fanoColumn("fano_success_opt", "bound on the success probability P(correct) of reconstructing a target's value among M candidates (a probability, not an advantage): Algorithm 2 optimised over Rényi orders, as fano_adv_opt", func(_, best bound.FanoBound) float64 { return best.Success }),
	}
}

// fanoAdvantage begins the meaning of the Fano advantage columns.
const fanoAdvantage = "bound on the advantage (P(correct) − p*)/(1 − p*) of reconstructing a target's value among M candidates, p* the best a-priori guess: "

// guoCitation cites Guo et al. 2023.
const guoCitation = "Guo, Sablayrolles & Sanjabi 2023, \"Analyzing Privacy Leakage in Machine Learning via Multiple Hypothesis Testing: A Lesson From Fano\""

// fanoColumn is a bound of Guo et al. on the attacker's chance to pick the
// target among `candidates` equally likely values (the bound uses the
// mechanism's Rényi-DP or mutual-information view); meaning says what it
// bounds, the advantage or the success probability.
func fanoColumn(name, meaning string, pick func(alpha1, best bound.FanoBound) float64) OutputColumn {
	return OutputColumn{
		Name: name, Family: "fano", Format: table.Probability,
		Brief:   "reconstruction among M = `candidates` values (or the attribute distribution of a prior key): Fano's inequality with the mutual information (Algorithm 1) and optimised over Rényi orders (Algorithm 2)",
		Source:  "Guo et al. 2023",
		Applies: Applies{Mechanisms: fanoMechanisms(), Only: OnlyRenyiView, Asks: AskDistribution},
		Meaning: meaning,
		Formula: "Fano's inequality with I(X; M(X)) ≤ μ: H(X) − μ ≤ h(P_e) + P_e·ln(M − 1), solved for P(correct) = 1 − P_e; Rényi version D_α(Ber(P)‖Ber(1/M)) ≤ μ_α; " +
			"μ from the mechanism: ρ (zcdp, and μ²/2 for gaussian, gdp, marginals, whose α = 1 bound uses Thm 2's tighter −Σ p_m·ln(p_m + (1 − p_m)·e^{−μ²/2})), the RDP guarantee (rdp: ε at every order up to its own), the Rényi curve of binary randomized response at ε (pure, exponential, approx with δ = 0: the largest of any ε-DP pair) and of the Laplace mechanism (laplace; Mironov 2017, Prop. 6), composed additively over compositions; the exact mutual information at α = 1 and k-ary randomized response's Rényi curve (rr); " +
			"Algorithm 2 is optimised over α ≥ 1: for ε(α) = ρα (zcdp, gaussian, gdp, marginals) the best order is solved with the bound (the bound is stationary in α there; order 1 where the bound rises from it), for the other curves over a grid of 16 orders a decade refined by golden-section search, and α = ∞; any order gives a valid bound",
		Citation: guoCitation + ", Algorithms 1 and 2, Thm 1 and Thm 2; Mironov 2017, \"Rényi Differential Privacy\", Prop. 1 and 6; Kairouz, Oh & Viswanath 2015, Thm 2.2 (every ε-DP pair is post-processed randomized response)",
		Needs:    "candidates or uniform(M) (a uniform prior), or a prior key whose frequency table is loaded (the attribute's distribution: M is its number of values); a mechanism with a Rényi or mutual-information view",
		Assumes:  "the mechanism's parameters are stated for replace-one neighbours (for add/remove Gaussian parameters ρ is 4 times larger); the prior is uniform over the M candidates, or the loaded distribution of the target's attribute (given its known columns); with several distributions (cells) the worst one is reported",
		Compute: func(r *resolve.Release) (float64, resolve.Skip) {
			a1, best, why := r.Fano()
			switch why {
			case "":
			case resolve.WhyFanoAddRemove, resolve.WhyFanoNoRenyi, resolve.WhyFanoComposedRR:
				return 0, resolve.Skip{Silent: true} // Applies: not this mechanism
			default:
				return 0, resolve.Skip{Why: why}
			}
			return pick(a1, best), resolve.Skip{}
		},
	}
}

// fanoMechanisms are the mechanisms with a Rényi or mutual-information
// view (Guo et al.): all but dpsgd, whose accounting is for add/remove
// neighbours; approx rows only as pure ε-DP.
func fanoMechanisms() []release.Mechanism {
	return []release.Mechanism{release.MechanismPure, release.MechanismApprox, release.MechanismGaussian, release.MechanismGDP, release.MechanismLaplace, release.MechanismZCDP, release.MechanismRDP, release.MechanismRR, release.MechanismMarginals, release.MechanismExponential}
}
