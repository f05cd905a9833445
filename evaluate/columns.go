package evaluate

import (
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/table"
)

// OutputColumn describes one computed column: what it means, the formula,
// the paper and equation it comes from, what it needs, and the function
// that computes it. The registry of these drives the evaluator, the notes
// on the workbook's headers, the Columns sheet and `riskbatch columns`.
type OutputColumn struct {
	Name     string
	Family   string // the paper family: fdp, adp, onerun, …
	Meaning  string
	Formula  string
	Citation string
	Needs    string // the inputs it needs, in words
	Assumes  string // neighbouring relation, pure vs approximate DP, …
	// Applies says when the column is filled: which mechanisms, which
	// inputs ask for it and which it requires (see Applies).
	Applies Applies
	Format  table.Format
	// Sheet is how the column is written in a workbook: the spreadsheet
	// formula that recomputes it from the row's inputs where its bound has
	// a closed form, and whether it is an advantage (see SheetForm).
	Sheet      SheetForm
	compute    func(r *Release) (float64, skip)
	mechanisms uint32 // Applies.Mechanisms as a set (mechanismSet)
}

// skip says why a column is empty for a row, in one of the ways Applies
// describes: silent (the column does not apply, or the row did not ask for
// it), need (the row lacks an input it requires: partial), fault (an input
// the row has cannot be used: partial), or why alone (the bound is not
// defined for the row's values: the status is unchanged).
type skip struct {
	why    string
	silent bool
	need   Need
	fault  bool
	// unused marks a why about an input the row filled that the column
	// cannot use for this row (pmp_data with compositions): the status is
	// unchanged, and the message gives it early.
	unused bool
	// bare marks a why or note that names the input it is about
	// ("pmp_data: …"): the message gives it without the column names.
	bare bool
	// note is a warning about a value that is written: the row keeps its
	// status and the message says it, once for the columns that share it.
	note string
}

func (s skip) ok() bool { return s.why == "" && !s.silent && s.need == 0 }

// Reasons shared by several columns, so that a row's message names them once.
const (
	// The inverse columns (…_for_target, onerun_eps_protect) share these,
	// so that a row whose target is out of reach says so once.
	whyTargetTooLow  = "no privacy level meets target_advantage: it is below what delta alone allows"
	whyTargetTrivial = "every privacy level meets target_advantage, so there is no limit to report"
	// whyNumericalFailure marks a value that came out NaN or infinite: a
	// defect of riskbatch, reported rather than written.
	whyNumericalFailure = "not computable for these inputs (numerical failure; please report it)"
)

// The conditions of the pure ε-DP columns beyond the mechanism: a pure
// ε-DP guarantee (an approx row of one composition at δ = 0 is one), and
// for the bounds of Guerra-Balboa et al. one stated without a δ.
const (
	onlyPureApprox = "(approx rows only with delta empty or 0 and one composition)"
	onlyPureRow    = "whose delta is empty or 0 (approx rows: also one composition)"
)

// pureMechanisms are the mechanisms that can state a pure ε-DP guarantee.
func pureMechanisms() []Mechanism {
	return []Mechanism{MechanismPure, MechanismApprox, MechanismLaplace, MechanismRR, MechanismExponential}
}

// fanoMechanisms are the mechanisms with a Rényi or mutual-information
// view (Guo et al.): all but dpsgd, whose accounting is for add/remove
// neighbours; approx rows only as pure ε-DP.
func fanoMechanisms() []Mechanism {
	return []Mechanism{MechanismPure, MechanismApprox, MechanismGaussian, MechanismGDP, MechanismLaplace, MechanismZCDP, MechanismRDP, MechanismRR, MechanismMarginals, MechanismExponential}
}

// whyBaselineOne says why the advantage columns are empty at a baseline of
// 1, naming the prior the 1 came from, if it did.
func (r *Release) whyBaselineOne() string {
	if r.HasPrior {
		return "the advantage is undefined at baseline 1, which comes from prior " + strconv.Quote(r.Prior.Key()) + " (its largest p)"
	}
	return "the advantage is undefined at baseline 1"
}

// outputColumns is the registry, in output order. confidences are the
// levels of the one-run success upper bound (see WithConfidence).
func outputColumns(confidences []float64) []OutputColumn {
	const (
		kulynych = "Kulynych, Gomez, Kaissis, Hayes, Balle, Calmon & Raisaro 2025, \"Unifying Re-Identification, Attribute Inference, and Data Reconstruction Risks in Differential Privacy\""
		guerra   = guerraBalboa
		swanberg = "Swanberg, Annamalai, Hayes, Balle & Smith 2025, \"Beyond the Worst Case: Extending Differential Privacy Guarantees to Realistic Adversaries\""
		curves   = "f = f_{ε,δ}(α) = max{0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)} for pure and approx (Eq. 2); " +
			"f = G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) for gaussian (μ = sensitivity/σ), gdp and marginals (μ = √K·√2/σ); " +
			"the exact Laplace curve (Dong, Roth & Su 2022) for laplace; the exact k-ary randomized-response curve for rr; " +
			"the optimal conversion of Rényi DP to a trade-off curve (Zhu, Dong & Wang 2022), over all orders, for zcdp and rdp; " +
			"for dpsgd the symmetrised trade-off curve of its privacy-loss distribution (a PLD accountant: connect-the-dots discretisation, Doroshenko et al. 2022; Neyman–Pearson tests on the discrete PLD, Kulynych et al. 2024, Alg. 1; Dong, Roth & Su 2022, Def. F.1), rounded pessimistically, with extra_stages composed in, and tightened by the RDP curve where that is tighter (far tails only); " +
			"compositions: μ√c, cρ, c·ε_α, and the optimal composition theorem (Kairouz, Oh & Viswanath 2015) for pure, approx, laplace and rr"
		mechs   = "a mechanism's parameters (see riskbatch columns: epsilon/delta, sigma, mu, laplace_scale, rho, rdp_order/rdp_epsilon, dpsgd, rr, marginals)"
		epsView = "ε is the row's epsilon (pure, approx, laplace, rr); for the other mechanisms, eps_at_delta: their ε at the row's delta"
	)
	cols := []OutputColumn{
		{
			Name: "fdp_success", Family: "fdp", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline},
			Sheet: SheetForm{Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				return x.success(x.curve(), x.base()).s
			}},
			Meaning:  "upper bound on the success probability of any re-identification (singling-out), attribute-inference or reconstruction attack, given the baseline success of the best attack that does not see the release",
			Formula:  "1 − f(baseline), with " + curves,
			Citation: kulynych + ", Thm 3.2, Eq. (10)",
			Needs:    mechs + "; baseline or candidates",
			Assumes:  "f-DP under add/remove or replace-one neighbours, as the mechanism's parameters were stated; the attacker knows every other record (strong threat model)",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				adv := r.advantage()
				if adv == 0 {
					return r.Baseline, skip{}
				}
				return numeric.RoundUp(r.Baseline+adv, r.Baseline, 1), skip{}
			},
		},
		{
			Name: "fdp_advantage", Family: "fdp", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				return form("$1-$2", x.output("fdp_success"), x.base())
			}},
			Meaning:  "upper bound on the attack's advantage over the baseline (success − baseline)",
			Formula:  "1 − f(baseline) − baseline, with f as for fdp_success",
			Citation: kulynych + ", Thm 3.3, Eq. (11)",
			Needs:    mechs + "; baseline or candidates",
			Assumes:  "as fdp_success",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				return numeric.RoundUp(r.advantage(), 0, 1-r.Baseline), skip{}
			},
		},
		{
			Name: "fdp_worst_advantage", Family: "fdp", Format: table.Probability,
			Applies: Applies{},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				return x.worst(x.curve())
			}},
			Meaning:  "baseline-free bound on the advantage of any such attack (the worst case over all baselines); also the bound on membership-inference advantage TPR − FPR",
			Formula:  "η = max_α (1 − f(α) − α): (e^ε − 1 + 2δ)/(e^ε + 1) for pure and approx (Prop. A.1); 2Φ(μ/2) − 1 for gaussian and gdp",
			Citation: kulynych + ", Thm 3.4, Eq. (12); Prop. A.1",
			Needs:    mechs,
			Assumes:  "as fdp_success",
			compute: func(r *Release) (float64, skip) {
				return numeric.RoundUp(r.Curve.WorstAdvantage(), 0, 1), skip{}
			},
		},
		{
			Name: "fdp_norm_advantage", Family: "fdp", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				b := x.base()
				x.need(b.v <= 1-minSheetGap)
				return form("$1/(1-$2)", x.output("fdp_advantage"), b)
			}},
			Meaning:  "the advantage as a share of what was left to gain over the baseline: (success − baseline)/(1 − baseline)",
			Formula:  "(1 − f(baseline) − baseline)/(1 − baseline), with f as for fdp_success",
			Citation: kulynych + ", Thm 3.3 with the normalisation of Guo et al. 2023 (L150)",
			Needs:    mechs + "; baseline or candidates (below 1)",
			Assumes:  "as fdp_success",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				if r.Baseline >= 1 {
					return 0, skip{why: r.whyBaselineOne()}
				}
				return bound.NormalizedAdvantage(r.advantage(), r.Baseline), skip{}
			},
		},
		{
			Name: "fdp_binary_success", Family: "fdp", Format: table.Probability,
			Applies: Applies{Asks: "a baseline of at least 0.5"},
			Sheet: SheetForm{Rows: sheetRowsBinary, formula: func(x *sheetRow) string {
				return x.binarySuccess(x.curve(), x.base())
			}},
			Meaning:  "bound on the success of inferring a binary attribute (two candidates) whose more likely value has prior probability π = baseline; tighter than fdp_success for this case",
			Formula:  "1 − R_f(π), R_f(π) = min_α π·α + (1 − π)·f(α) (Bayes risk); closed forms for the Gaussian, (ε, δ) and Laplace curves",
			Citation: kulynych + ", Thm D.1 (App. D), Def. D.1",
			Needs:    mechs + "; baseline ≥ 0.5 (binary attribute)",
			Assumes:  "f-DP under replace-one neighbours; two candidate values",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline || r.Baseline < 0.5 {
					return 0, skip{silent: true}
				}
				return bound.BinarySuccess(r.Curve, r.Baseline), skip{}
			},
		},
		{
			Name: "fdp_eps_for_target", Family: "fdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismPure, MechanismApprox, MechanismLaplace}, Only: "of one composition", Asks: "target_advantage"},
			Meaning:  "the largest ε whose advantage bound stays at or below target_advantage: at the row's baseline when it has one, else in the worst case (for laplace rows: ε = sensitivity/b of the Laplace curve)",
			Formula:  "inverse of fdp_advantage (with a baseline) or fdp_worst_advantage (without) in ε, at the row's δ; closed forms of §9, checked against the rounded forward bound",
			Citation: kulynych + ", Thm 3.3/3.4 and §9 (calibration)",
			Needs:    "target_advantage; epsilon (and delta) or laplace_scale; baseline optional",
			Assumes:  "as fdp_success; rounded down",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || !(r.Mechanism == MechanismPure || r.Mechanism == MechanismApprox || r.Mechanism == MechanismLaplace) {
					return 0, skip{silent: true}
				}
				if _, composed := r.Curve.(*curve.ComposedApprox); composed {
					return 0, skip{silent: true} // Applies.Only: one composition
				}
				var eps float64
				var ok bool
				switch {
				case r.Mechanism == MechanismLaplace && r.HasBaseline:
					eps, ok = bound.LaplaceEpsilonForAdvantage(r.Target, r.Baseline)
				case r.Mechanism == MechanismLaplace:
					eps, ok = bound.LaplaceEpsilonForWorstAdvantage(r.Target)
				case r.HasBaseline:
					eps, ok = bound.EpsilonForAdvantage(r.Target, r.rowDelta(), r.Baseline)
				default:
					eps, ok = bound.EpsilonForWorstAdvantage(r.Target, r.rowDelta())
				}
				return inverseResult(eps, ok, "ε")
			},
		},
		{
			Name: "fdp_mu_for_target", Family: "fdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismGaussian, MechanismGDP}, Asks: "target_advantage"},
			Meaning:  "the largest μ (Gaussian DP) whose advantage bound stays at or below target_advantage: at the row's baseline when it has one, else in the worst case",
			Formula:  "μ = Φ⁻¹(1 − b) − Φ⁻¹(1 − b − A) at baseline b; μ = 2Φ⁻¹((1 + A)/2) in the worst case",
			Citation: kulynych + ", §9 (calibration)",
			Needs:    "target_advantage; sigma or mu; baseline optional",
			Assumes:  "the Gaussian mechanism; rounded down",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || !(r.Mechanism == MechanismGaussian || r.Mechanism == MechanismGDP) {
					return 0, skip{silent: true}
				}
				mu, ok := bound.MuForWorstAdvantage(r.Target)
				if r.HasBaseline {
					mu, ok = bound.MuForAdvantage(r.Target, r.Baseline)
				}
				return inverseResult(mu, ok, "μ")
			},
		},
		{
			Name: "fdp_sigma_for_target", Family: "fdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismGaussian}, Asks: "target_advantage"},
			Meaning:  "the smallest noise standard deviation σ whose advantage bound stays at or below target_advantage, for the row's sensitivity (and compositions)",
			Formula:  "σ = sensitivity·√compositions/μ with μ as in fdp_mu_for_target",
			Citation: kulynych + ", §9 (calibration)",
			Needs:    "target_advantage; sigma (and sensitivity); baseline optional",
			Assumes:  "the Gaussian mechanism; rounded up",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || r.Mechanism != MechanismGaussian || r.sensitiv == 0 {
					return 0, skip{silent: true}
				}
				var mu float64
				var ok bool
				if r.HasBaseline {
					mu, ok = bound.MuForAdvantage(r.Target, r.Baseline)
				} else {
					mu, ok = bound.MuForWorstAdvantage(r.Target)
				}
				if !ok {
					return 0, skip{why: whyTargetTooLow}
				}
				if math.IsInf(mu, 1) {
					return 0, skip{why: whyTargetTrivial}
				}
				if mu == 0 {
					return 0, skip{why: "only infinite noise meets target_advantage"}
				}
				// μ of the composed release is μ₁·√c: each σ must give μ₁ = μ/√c.
				c := (r.mu / (r.sensitiv / r.sigma)) // √compositions
				return numeric.RoundUp(r.sensitiv*c/mu, 0, math.Inf(1)), skip{}
			},
		},
		{
			Name: "fdp_noise_for_target", Family: "fdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Asks: "target_advantage"},
			Meaning:  "the smallest DP-SGD noise multiplier whose advantage bound stays at or below target_advantage, at the row's sample_rate and steps (and extra_stages, kept fixed): at the row's baseline when it has one, else in the worst case; PLD accounting (or RDP accounting where that needs less noise, which happens only for targets near 1e-9)",
			Formula:  "a safeguarded secant search on ln σ of the PLD accountant's 1 − f(b) − b (or η), to 0.01% of σ, returning the end that meets the target; the smaller of that and fdp_noise_for_target_rdp",
			Citation: kulynych + ", §4.2 and §9 (calibration, \"less noise\")",
			Needs:    "target_advantage; noise_multiplier, sample_rate, steps; baseline optional",
			Assumes:  "Poisson-subsampled Gaussian under add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				return r.noiseForTarget(false)
			},
		},
		{
			Name: "fdp_noise_for_target_rdp", Family: "fdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Asks: "target_advantage"},
			Meaning:  "comparison: fdp_noise_for_target under RDP accounting, the conservative accountant most published DP-SGD guarantees use",
			Formula:  "bisection on 1/σ of the RDP-based curve's 1 − f(b) − b (or η) (the optimal RDP → f-DP conversion over dp_accounting's 156 orders), returning the conservative end",
			Citation: kulynych + ", §4.2 (\"Balle et al.\", RDP optimised over orders); Mironov, Talwar & Zhang 2019",
			Needs:    "as fdp_noise_for_target",
			Assumes:  "as fdp_noise_for_target",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				return r.noiseForTarget(true)
			},
		},
		{
			Name: "fdp_noise_reduction", Family: "fdp", Format: table.Probability,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Asks: "target_advantage"},
			Meaning:  "the share of noise that tight (PLD) accounting saves over RDP accounting for the same risk target (Kulynych et al.'s \"≈ 20% less noise\")",
			Formula:  "1 − fdp_noise_for_target / fdp_noise_for_target_rdp",
			Citation: kulynych + ", Fig. 1 and §4.2",
			Needs:    "as fdp_noise_for_target",
			Assumes:  "as fdp_noise_for_target; both noise multipliers rounded up, so the ratio is indicative to 0.01%",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget || r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				tight, s := r.noiseForTarget(false)
				if !s.ok() {
					return 0, s
				}
				loose, s := r.noiseForTarget(true)
				if !s.ok() {
					return 0, s
				}
				return 1 - tight/loose, skip{}
			},
		},
		{
			Name: "spso_success", Family: "fdp", Format: table.Probability,
			Applies: Applies{Asks: "w"},
			Sheet: SheetForm{Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				return x.success(x.curve(), x.ref(FieldPredicateWeight)).s
			}},
			Meaning:  "bound on the success of singling out a record with a predicate of weight w that matches no other record (strong threat model)",
			Formula:  "1 − f(w), with f as for fdp_success (the baseline is w)",
			Citation: kulynych + ", Thm 3.2 for SPSO (Def. 3.2; base = w, §4.1)",
			Needs:    mechs + "; w",
			Assumes:  "as fdp_success",
			compute: func(r *Release) (float64, skip) {
				if !r.HasWeight {
					return 0, skip{silent: true}
				}
				return numeric.RoundUp(r.Weight+r.Curve.Advantage(r.Weight), r.Weight, 1), skip{}
			},
		},
		{
			Name: "pso_baseline", Family: "fdp", Format: table.Probability,
			Applies: Applies{Asks: "records and w"},
			Sheet: SheetForm{Rows: sheetRowsAll, formula: func(x *sheetRow) string {
				n, w := x.ref(FieldRecords), x.ref(FieldPredicateWeight)
				x.need(n.v <= maxSheetRecords)
				return form("$1*$2*(1-$2)^($1-1)", n, w)
			}},
			Meaning:  "the success of the best predicate singling-out attack that does not see the release, over a dataset of `records` i.i.d. records",
			Formula:  "n·w·(1 − w)^(n−1), w ≤ 1/n",
			Citation: kulynych + ", Eq. (5), §4.1 (after Cohen & Nissim 2020)",
			Needs:    "records; w",
			Assumes:  "i.i.d. records",
			compute: func(r *Release) (float64, skip) {
				if !r.HasWeight || r.Records == 0 {
					return 0, skip{silent: true}
				}
				return bound.PSOBaseline(r.Records, r.Weight), skip{}
			},
		},
		{
			Name: "pso_cohen_nissim", Family: "fdp", Format: table.Probability,
			Applies: Applies{Asks: "records and w", Requires: NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				n, e, w := x.ref(FieldRecords), x.eps(), x.ref(FieldPredicateWeight)
				x.need(math.Log(n.v)+e.v+numeric.LogPos(w.v) <= maxSheetExp) // n·e^ε·w must not overflow
				return form("MIN(1,$1*(EXP($2)*$3+$4))", n, e, w, x.delta())
			}},
			Meaning:  "comparator: Cohen & Nissim's bound on predicate singling-out success from (ε, δ)",
			Formula:  "min(1, n·(e^ε·w + δ)); " + epsView,
			Citation: kulynych + ", Thm B.1, Eqs. (21)–(22) (Cohen & Nissim 2020)",
			Needs:    mechs + "; records; w",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; w ≤ 1/records",
			compute: func(r *Release) (float64, skip) {
				if !r.HasWeight || r.Records == 0 {
					return 0, skip{silent: true}
				}
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				return bound.PSOCohenNissim(eps, delta, r.Records, r.Weight), skip{}
			},
		},
		{
			Name: "pso_fdp", Family: "fdp", Format: table.Probability,
			Applies: Applies{Asks: "records and w"},
			Sheet: SheetForm{Rows: sheetRowsCurve, formula: func(x *sheetRow) string {
				return form("MIN(1,$1*$2)", x.ref(FieldRecords), x.output("spso_success"))
			}},
			Meaning:  "bound on predicate singling-out success from the mechanism's trade-off curve",
			Formula:  "min(1, n·(1 − f(w))), with f as for fdp_success",
			Citation: kulynych + ", Thm F.2, Eq. (48)",
			Needs:    mechs + "; records; w",
			Assumes:  "f-DP under replace-one neighbours; predicates of weight exactly w ≤ 1/records",
			compute: func(r *Release) (float64, skip) {
				if !r.HasWeight || r.Records == 0 {
					return 0, skip{silent: true}
				}
				return bound.PSOFDP(r.Curve, r.Records, r.Weight), skip{}
			},
		},
		{
			Name: "rero_eps", Family: "rero", Format: table.Probability,
			Applies: Applies{Mechanisms: pureMechanisms(), Only: onlyPureApprox, Requires: NeedBaseline},
			Sheet: SheetForm{Rows: sheetRowsPure, formula: func(x *sheetRow) string {
				return form("MIN(1,EXP($1)*$2)", x.pureEps(), x.base())
			}},
			Meaning:  "comparator: Balle et al.'s reconstruction-robustness bound for pure ε-DP, e^ε·baseline",
			Formula:  "min(1, e^ε·baseline) (the t → ∞ limit of Thm B.2)",
			Citation: "Balle, Cherubin & Hayes 2022; " + kulynych + ", App. B (L211)",
			Needs:    "epsilon (pure) or laplace_scale or rr; baseline or candidates",
			Assumes:  "pure ε-DP",
			compute: func(r *Release) (float64, skip) {
				if !r.hasPure {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				return bound.ReRoPure(r.pureEps, r.Baseline), skip{}
			},
		},
		{
			Name: "rero_rdp", Family: "rero", Format: table.Probability,
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
				if !r.hasRDP && !r.hasRho {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				if r.hasRDP {
					return bound.ReRoRDPCurve(r.rdp.Orders, r.rdp.Epsilons, r.Baseline), skip{}
				}
				return bound.ReRoZCDP(r.rho, r.Baseline), skip{}
			},
		},
		{
			Name: "rero_zcdp", Family: "rero", Format: table.Probability,
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
				if !r.hasRho {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				return bound.ReRoZCDP(r.rho, r.Baseline), skip{}
			},
		},
		{
			Name: "eps_at_delta", Family: "conversion", Format: table.Real,
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return x.eps().s
			}},
			Meaning:  "the ε at which the release is (ε, δ)-DP for the row's δ: the ε every ε-based column uses",
			Formula:  "the row's epsilon for pure and approx (for approx with compositions: the optimal composition at δ_total = compositions·δ); Gaussian: the root of Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ (Balle & Wang 2018); zcdp, rdp: min over orders of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1) (Balle et al. 2020); dpsgd: the smallest ε with δ(ε) ≤ δ for its PLD accountant (exact for the discrete, pessimistic PLD; see eps_at_delta_rdp for RDP); laplace and rr: their exact privacy profiles",
			Citation: "Balle & Wang 2018; Balle, Barthe, Gaboardi, Hsu & Sato 2020; Kairouz, Oh & Viswanath 2015",
			Needs:    mechs + "; delta for mechanisms without a native ε",
			Assumes:  "the neighbouring relation of the mechanism's parameters; rounded up",
			compute: func(r *Release) (float64, skip) {
				eps, _, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				return eps, skip{}
			},
		},
		{
			Name: "eps_at_delta_rdp", Family: "dpsgd", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Requires: NeedDelta},
			Meaning:  "comparison: eps_at_delta of a dpsgd row under RDP accounting",
			Formula:  "min over dp_accounting's 156 orders α of ε_α + ln((α−1)/α) − (ln δ + ln α)/(α − 1), ε_α the composed RDP of the Poisson-subsampled Gaussian",
			Citation: "Mironov, Talwar & Zhang 2019; Balle, Barthe, Gaboardi, Hsu & Sato 2020",
			Needs:    "noise_multiplier, sample_rate, steps; delta",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				if r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				if !r.hasDelta || r.delta == 0 {
					return 0, skip{need: NeedDelta} // DP-SGD has no finite ε at δ = 0
				}
				return r.rdp.EpsilonAt(r.delta), skip{}
			},
		},
		{
			Name: "fdp_advantage_rdp", Family: "dpsgd", Format: table.Probability,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}, Requires: NeedBaseline},
			Meaning:  "comparison: fdp_advantage of a dpsgd row under RDP accounting",
			Formula:  "1 − f(baseline) − baseline for the optimal conversion of the composed RDP curve (Zhu, Dong & Wang 2022)",
			Citation: kulynych + ", §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps; baseline or candidates",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				if r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				return numeric.RoundUp(r.rdp.Advantage(r.Baseline), 0, 1-r.Baseline), skip{}
			},
		},
		{
			Name: "fdp_worst_advantage_rdp", Family: "dpsgd", Format: table.Probability,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "comparison: fdp_worst_advantage of a dpsgd row under RDP accounting",
			Formula:  "η = max_α (1 − f(α) − α) for the optimal conversion of the composed RDP curve",
			Citation: kulynych + ", Thm 3.4 and §4.2; Mironov, Talwar & Zhang 2019",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours; rounded up",
			compute: func(r *Release) (float64, skip) {
				if r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				return numeric.RoundUp(r.rdp.WorstAdvantage(), 0, 1), skip{}
			},
		},
		{
			Name: "pld_error", Family: "dpsgd", Format: table.Probability,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "how much the PLD accountant's δ(ε) may exceed the exact δ(ε) of the continuous mechanism, for every ε; the same bounds the excess of fdp_advantage, fdp_worst_advantage and 1 − fdp_success of dpsgd rows (the accountant is pessimistic, so its values are never below the exact ones)",
			Formula:  "discretisation (twice the largest difference between δ on a grid twice as coarse and δ on the grid used, at the grid points and midway between them: connect-the-dots error falls as the square of the grid step where δ is smooth and as the grid step at its kinks, so this covers both) + floating-point round-off (a rigorous bound) + the tail mass moved to an infinite loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022 (connect-the-dots); Koskela, Jälkö & Honkela 2020 (error terms)",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			compute: func(r *Release) (float64, skip) {
				if r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				if r.pld == nil {
					return 0, skip{why: r.pldWhy}
				}
				e, err := r.pld.Errors()
				if err != nil {
					return 0, skip{why: "the PLD error estimate failed: " + err.Error()}
				}
				return numeric.RoundUp(e.Delta(), 0, 1), skip{}
			},
		},
		{
			Name: "pld_grid_step", Family: "dpsgd", Format: table.Real,
			Applies:  Applies{Mechanisms: []Mechanism{MechanismDPSGD}},
			Meaning:  "the grid step h of the PLD accountant's privacy-loss grid (chosen per row: a thirtieth of one step's privacy-loss standard deviation, coarsened so that the composed grid stays near 2^17 points, refined to at least 2^13 points down to s/300 when the composition is small)",
			Formula:  "h = s/30, s² the step-weighted mean variance of one step's privacy loss",
			Citation: "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022",
			Needs:    "noise_multiplier, sample_rate, steps",
			Assumes:  "add/remove neighbours",
			compute: func(r *Release) (float64, skip) {
				if r.Mechanism != MechanismDPSGD {
					return 0, skip{silent: true}
				}
				if r.pld == nil {
					return 0, skip{why: r.pldWhy}
				}
				return r.pld.GridStep(), skip{}
			},
		},
		{
			Name: "adp_advantage", Family: "adp", Format: table.Probability,
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("(EXP($1)-1+2*$2)/(EXP($1)+1)", x.eps(), x.delta())
			}},
			Meaning:  "the standard (ε, δ) advantage bound on membership inference and on any binary attack, computed from (ε, δ) alone",
			Formula:  "(e^ε − 1 + 2δ)/(e^ε + 1); " + epsView,
			Citation: "Kairouz, Oh & Viswanath 2015; as restated in " + kulynych + ", Prop. A.1",
			Needs:    "epsilon (and delta); for gaussian and gdp: sigma or mu, and delta",
			Assumes:  "(ε, δ)-DP under the neighbouring relation the parameters were stated for",
			compute: func(r *Release) (float64, skip) {
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				return numeric.RoundUp(curve.EpsDelta{Epsilon: eps, Delta: delta}.WorstAdvantage(), 0, 1), skip{}
			},
		},
		withSheet(SheetForm{Advantage: true, Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("MIN(1,EXP($1)-1)", x.pureEps())
		}}, gbColumn("gb_mia_yeom", "upper bound on membership-inference advantage of Yeom et al., as analysed by Guerra-Balboa et al.", "min(1, e^ε − 1)", "Thm 4.5 (Yeom et al. 2018)", "",
			func(r *Release, eps float64) (float64, skip) { return bound.GBMIAYeom(eps), skip{} })),
		withSheet(SheetForm{Advantage: true, Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("1-EXP(-$1)", x.pureEps())
		}}, gbColumn("gb_mia_erlingsson", "upper bound on membership-inference advantage (Erlingsson et al.), tighter than Yeom's", "1 − e^{−ε} (the corrected form)", "Thm 4.6 (corrected: e^{−ε}, not e^{−δ})", "",
			func(r *Release, eps float64) (float64, skip) { return bound.GBMIAErlingsson(eps), skip{} })),
		withSheet(SheetForm{Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("MIN(EXP($1),1+($2-1)*((EXP($1)-1)/(EXP($1)+1)))/$2", x.pureEps(), x.candidates())
		}}, gbColumn("gb_rero_exact", "upper bound on the success of exact reconstruction of a record's value among m candidates: drawn uniformly from `candidates` values, or from the loaded distribution of the prior key's attribute (the worst cell)", "min{1, κ₀·e^ε, κ₀·(1 + (m − 1)·t)}, κ₀ = the largest prior probability (1/m if uniform), t = (e^ε − 1)/(e^ε + 1)", "Prop. 5.1 (corrected form; Table 2 rows 5 and 8 are wrong)", requestPrior,
			func(r *Release, eps float64) (float64, skip) {
				if r.Candidates > 0 {
					return bound.GBReRoExactUniform(eps, int(min(r.Candidates, 1<<31))), skip{}
				}
				return r.gbWorstOverPrior(func(p bound.GBPrior) float64 { return bound.GBReRoExact(eps, p.Kappa0, p.M) })
			})),
		withSheet(SheetForm{Advantage: true, Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("MIN($2*(EXP($1)-1),(EXP($1)-1)/(EXP($1)+1))", x.pureEps(), x.base())
		}}, requires(NeedBaseline, gbColumn("gb_urero", "upper bound on the unbiased reconstruction-robustness advantage (success beyond the best a-priori guess κ = baseline), any tolerance", "min{κ·(e^ε − 1), t}, t = (e^ε − 1)/(e^ε + 1)", "Thm 7.2", "",
			func(r *Release, eps float64) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				return bound.GBUReRo(eps, r.Baseline), skip{}
			}))),
		withSheet(SheetForm{Advantage: true, Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("MIN((EXP($1)-1)/$2,($2-1)/$2*((EXP($1)-1)/(EXP($1)+1)))", x.pureEps(), x.candidates())
		}}, gbColumn("gb_urero_uniform", "the unbiased reconstruction-robustness bound for a uniform prior over `candidates` values; also the informed membership-inference and uniform attribute-inference bound", "min{(e^ε − 1)/m, ((m − 1)/m)·t}, t = (e^ε − 1)/(e^ε + 1)", "Eq. (6)", "candidates",
			func(r *Release, eps float64) (float64, skip) {
				if r.Candidates == 0 {
					return 0, skip{silent: true}
				}
				return bound.GBUReRoUniform(eps, int(min(r.Candidates, 1<<31))), skip{}
			})),
		withSheet(SheetForm{Advantage: true, Rows: sheetRowsPure, formula: func(x *sheetRow) string {
			return form("MIN((EXP($1)-1)/$2,(EXP($1)-1)/(EXP($1)+1),($2-1)/$2*((EXP($1)-1)/(EXP($1)+1)),1-1/$2)", x.pureEps(), x.candidates())
		}}, gbColumn("gb_aia_adv", "upper bound on the advantage of any attribute-inference attack, and on the unbiased reconstruction-robustness advantage of exact reconstruction, with a uniform prior over `candidates` values or the loaded distribution of the prior key's attribute (the worst cell)", "min{κ₀(e^ε − 1), t, κ₀(m − 1)t + κ₀ − κ₀⁻, 1 − μ}: κ₀ the largest and κ₀⁻ the smallest prior probability over the attribute's m values (0 for a value the cell never shows), μ = Σπ²; κ₀ = κ₀⁻ = μ = 1/m if uniform", "Prop. 8.2 with Thm 7.3 (and Thm 7.2, §9)", requestPrior,
			func(r *Release, eps float64) (float64, skip) {
				if r.Candidates > 0 {
					m := int(min(r.Candidates, 1<<31))
					k := 1 / float64(m)
					return bound.GBAIAAdvantage(eps, k, k, k, m), skip{}
				}
				return r.gbWorstOverPrior(func(p bound.GBPrior) float64 { return bound.GBAIAAdvantage(eps, p.Kappa0, p.Kappa0Min, p.Mu, p.M) })
			})),
		withFormat(table.Real, requires(NeedBaseline, gbColumn("gb_eps_for_target", "the largest ε whose unbiased reconstruction-robustness advantage (gb_urero) stays at or below target_advantage at the row's baseline", "inverse of min{κ(e^ε − 1), t} in ε; rounded down", "§5.2 (inverse formulas), Thm 7.2", "target_advantage",
			func(r *Release, eps float64) (float64, skip) {
				if !r.HasTarget {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				e, ok := bound.GBUReRoEpsilon(r.Target, r.Baseline)
				return inverseResult(e, ok, "ε")
			}))),
		{
			Name: "gb_mia_humphries", Family: "gb", Format: table.Probability,
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("(EXP($1)-1+2*$2)/(EXP($1)+1)", x.eps(), x.delta())
			}},
			Meaning:  "upper bound on the strong membership-inference advantage with δ (Humphries et al.), as analysed by Guerra-Balboa et al.",
			Formula:  "(e^ε − 1 + 2δ)/(e^ε + 1); " + epsView,
			Citation: guerra + ", Thm 4.9 (Humphries et al. 2023)",
			Needs:    mechs,
			Assumes:  "(ε, δ)-DP under replace-one neighbours",
			compute: func(r *Release) (float64, skip) {
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				return bound.GBMIAHumphries(eps, delta), skip{}
			},
		},
		withSheet(SheetForm{Advantage: true}, fanoColumn("fano_adv_alpha1", fanoAdvantage+"Algorithm 1, the mutual-information (α = 1) bound", func(a1, _ bound.FanoBound) float64 { return a1.Advantage })),
		withSheet(SheetForm{Advantage: true}, fanoColumn("fano_adv_opt", fanoAdvantage+"Algorithm 2 optimised over Rényi orders (never above fano_adv_alpha1)", func(_, best bound.FanoBound) float64 { return best.Advantage })),
		fanoColumn("fano_success_opt", "bound on the success probability P(correct) of reconstructing a target's value among M candidates (a probability, not an advantage): Algorithm 2 optimised over Rényi orders, as fano_adv_opt", func(_, best bound.FanoBound) float64 { return best.Success }),
		{
			Name: "pmp_mia_success", Family: "pmp", Format: table.Probability,
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("(EXP($1)+$2)/(1+EXP($1))", x.eps(), x.delta())
			}},
			Meaning:  "upper bound on the success of a practical membership-inference attack (the attacker guesses which of two records, each a member with probability 1/2, is in the data)",
			Formula:  "1/(1 + e^{−ε}) for δ = 0 (Lemma 6); (e^ε + δ)/(1 + e^ε) for δ > 0; " + epsView,
			Citation: lowyCitation + ", Lemma 6 (and the catalog's δ form)",
			Needs:    mechs,
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the attacker's prior on membership is 1/2",
			compute: func(r *Release) (float64, skip) {
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				if delta > 0 {
					return bound.PMPSuccessDelta(eps, delta), skip{}
				}
				return bound.PMPSuccess(eps), skip{}
			},
		},
		{
			Name: "pmp_eps_for_target", Family: "pmp", Format: table.Real,
			Applies: Applies{Asks: "target_advantage"},
			Sheet: SheetForm{Rows: sheetRowsAll, formula: func(x *sheetRow) string {
				a := x.ref(FieldTargetAdvantage)
				x.need(a.v <= 1-1e-4) // riskbatch's value is the largest ε whose rounded-up bound meets the target
				return form("LN((1+$1)/(1-$1))", a)
			}},
			Meaning:  "the largest ε whose practical membership-inference success stays at or below (1 + target_advantage)/2, i.e. whose advantage 2·success − 1 stays at or below target_advantage",
			Formula:  "ε = logit((1 + A)/2), checked against the rounded forward bound",
			Citation: lowyCitation + ", Lemma 6 (inverted)",
			Needs:    "target_advantage",
			Assumes:  "pure ε-DP under replace-one neighbours; rounded down",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget {
					return 0, skip{silent: true}
				}
				e, ok := bound.PMPEpsilonForSuccess((1 + r.Target) / 2)
				return inverseResult(e, ok, "ε")
			},
		},
		pmpDataColumn("pmp_data_eps", table.Real,
			"the practical-membership-privacy parameter ε̃ of the release with respect to the attacker's parent set X in the pmp_data table: the smallest ε̃ such that the release is (ε̃, δ)-PMP for X (gaussian rows, at the row's δ) or ε̃-PMP (exponential rows); compare with the DP ε",
			func(eps, _ float64) float64 { return eps }),
		pmpDataColumn("pmp_data_success", table.Probability,
			"upper bound on the success of a practical membership-inference attack against the release, for records of the pmp_data parent set (each a member with probability 1/2)",
			func(eps, delta float64) float64 {
				if delta > 0 {
					return bound.PMPSuccessDelta(eps, delta)
				}
				return bound.PMPSuccess(eps)
			}),
		{
			Name: "onerun_posterior", Family: "onerun", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline | NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("$2*EXP($1)/($2*EXP($1)+1-$2)", x.eps(), x.base())
			}},
			Meaning:  "upper bound on the attacker's success on one target after seeing the release (posterior), given its prior success p = baseline; for δ > 0 the success bound adds (1 − β)·δ (see onerun_advantage)",
			Formula:  "β = e^ε/(e^ε − 1 + 1/p), computed as logit β = logit p + ε; " + epsView,
			Citation: swanberg + ", Thm 3.2",
			Needs:    mechs + "; baseline or candidates; delta for gaussian and gdp",
			Assumes:  "ε-DP under replace-one neighbours; the attacker's prior is independent across targets",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				eps, _, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				beta := bound.OneRunPosterior(eps, r.Baseline)
				if beta == r.Baseline {
					return beta, skip{} // ε = 0: the posterior is the prior, exactly
				}
				return numeric.RoundUp(beta, r.Baseline, 1), skip{}
			},
		},
		{
			Name: "onerun_advantage", Family: "onerun", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline | NeedDelta},
			Sheet: SheetForm{Advantage: true, Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("$3+(1-$3)*$2*(EXP($1)-1)/(1+$2*(EXP($1)-1))", x.eps(), x.base(), x.delta())
			}},
			Meaning:  "upper bound on the generalized advantage (success − p)/(1 − p) of an attack on one target with prior success p = baseline",
			Formula:  "(min(1, β + (1 − β)·δ) − p)/(1 − p) with β as in onerun_posterior; (β − p)/(1 − p) when δ = 0; " + epsView,
			Citation: swanberg + ", Thm 3.5 with one target (tighter than Cor. 3.4's β + δ); advantage as in Cherubin 2017",
			Needs:    mechs + "; baseline or candidates (below 1); delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP under replace-one neighbours",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				if r.Baseline >= 1 {
					return 0, skip{why: r.whyBaselineOne()}
				}
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				return numeric.RoundUp(bound.OneRunAdvantage(eps, delta, r.Baseline), 0, 1), skip{}
			},
		},
		{
			Name: "onerun_eps_protect", Family: "onerun", Format: table.Real,
			Applies: Applies{Asks: "target_advantage", Requires: NeedBaseline | NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsDelta, formula: func(x *sheetRow) string {
				a, d, b := x.ref(FieldTargetAdvantage), x.delta(), x.base()
				x.need(b.v > 0 && a.v <= 1-minSheetGap)
				return form("LN(1+($1-$2)/((1-$1)*$3))", a, d, b)
			}},
			Meaning:  "the largest ε whose onerun_advantage stays at or below target_advantage, at the row's delta and baseline: releases with ε up to this value protect the target",
			Formula:  "ε = ln(1 + e^{logit s − ln p}), s = (target_advantage − δ)/(1 − δ): the inverse of onerun_advantage",
			Citation: swanberg + ", §5.3 (ε_protect), with the Thm 3.5 posterior",
			Needs:    "target_advantage; baseline or candidates (below 1); delta (0 for pure rows)",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; rounded down",
			compute: func(r *Release) (float64, skip) {
				if !r.HasTarget {
					return 0, skip{silent: true}
				}
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				if r.Baseline >= 1 {
					return 0, skip{why: r.whyBaselineOne()}
				}
				_, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				eps, ok := bound.OneRunEpsilonProtect(r.Target, delta, r.Baseline)
				switch {
				case !ok:
					return 0, skip{why: whyTargetTooLow}
				case math.IsInf(eps, 1):
					return 0, skip{why: whyTargetTrivial}
				}
				return numeric.RoundDown(eps, 0, math.Inf(1)), skip{}
			},
		},
		{
			Name: "onerun_tail_prob", Family: "onerun", Format: table.Probability,
			Applies:  Applies{Asks: "successes", Requires: NeedBaseline | NeedDelta},
			Meaning:  "upper bound on the probability that the attack succeeds on at least `successes` of the row's targets (one run of the mechanism)",
			Formula:  "Pr[S ≥ v] for S = Σᵢ Bernoulli(βᵢ), βᵢ = e^ε/(e^ε − 1 + 1/pᵢ) (Thm 3.2, δ = 0); Pr[S ≥ v] + α·n·δ with α = maxⱼ (Pr[S ≥ v − j] − Pr[S ≥ v])/j (Thm 3.5, δ > 0); S computed exactly (divide-and-conquer FFT convolution, binomial for equal pᵢ); " + epsView,
			Citation: swanberg + ", Thm 3.2 and Thm 3.5",
			Needs:    mechs + "; successes; targets with baseline or candidates, or a prior with one p per target",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the targets' priors are independent",
			compute: func(r *Release) (float64, skip) {
				if !r.HasSuccesses {
					return 0, skip{silent: true}
				}
				t, s := r.Tail()
				if !s.ok() {
					return 0, s
				}
				if _, delta, _ := r.EpsilonDelta(); delta > 0 {
					return t.Thm35(r.Successes), skip{}
				}
				// Tail carries an absolute allowance for rounding (≈ 1e-22 at
				// n = 1000); far in the tail the log-space value, accurate in
				// relative terms, is the tighter upper bound.
				v := t.Tail(r.Successes)
				if lt := t.LogTail(r.Successes); !math.IsInf(lt, -1) {
					// A positive tail below the smallest float64 prints as
					// that float, never as 0 (onerun_tail_log10 has its size).
					e := math.Max(math.Exp(lt)*(1+1e-9), math.SmallestNonzeroFloat64)
					v = math.Min(v, e)
				}
				return v, skip{}
			},
		},
		{
			Name: "onerun_tail_log10", Family: "onerun", Format: table.Real,
			Applies:  Applies{Asks: "successes", Requires: NeedBaseline | NeedDelta},
			Meaning:  "log10 of onerun_tail_prob, exact where the probability itself is too small to print (below 1e-300)",
			Formula:  "log10(Pr[S ≥ v]) for δ = 0; log10(Pr[S ≥ v] + α·n·δ) for δ > 0, formed in log space",
			Citation: swanberg + ", Thm 3.2 and Thm 3.5",
			Needs:    "as onerun_tail_prob",
			Assumes:  "as onerun_tail_prob",
			compute: func(r *Release) (float64, skip) {
				if !r.HasSuccesses {
					return 0, skip{silent: true}
				}
				t, s := r.Tail()
				if !s.ok() {
					return 0, s
				}
				lt := t.LogTail(r.Successes)
				if _, delta, _ := r.EpsilonDelta(); delta > 0 {
					if a := t.AlphaLP(r.Successes); a > 0 {
						lt = numeric.LogSumExp(lt, math.Log(a)+math.Log(float64(t.Len()))+numeric.LogPos(delta))
					}
				}
				if math.IsInf(lt, -1) {
					return 0, skip{why: "the tail is exactly 0: no run reaches this many successes"}
				}
				v := math.Min(lt, 0) / math.Ln10
				return v + 1e-12*math.Abs(v), skip{} // rounded up
			},
		},
		successesColumn("onerun_successes_ub", -1),
		{
			Name: "onerun_expected_successes", Family: "onerun", Format: table.Real,
			Applies:  Applies{Asks: "targets or prior", Requires: NeedBaseline | NeedDelta},
			Meaning:  "expected number of targets the dominating attack gets right: an upper bound on the expected successes for δ = 0 (add n·δ for δ > 0)",
			Formula:  "Σᵢ βᵢ with βᵢ as in onerun_tail_prob",
			Citation: swanberg + ", Thm 3.2 (stochastic dominance)",
			Needs:    mechs + "; targets with baseline or candidates, or a prior with one p per target",
			Assumes:  "as onerun_tail_prob",
			compute: func(r *Release) (float64, skip) {
				t, s := r.Tail()
				if !s.ok() {
					return 0, s
				}
				return numeric.RoundUp(t.ExpectedSuccesses(), 0, float64(t.Len())), skip{}
			},
		},
		{
			Name: "onerun_bits_leaked", Family: "onerun", Format: table.Real,
			Applies: Applies{Requires: NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				e, d, c := x.eps(), x.delta(), x.confidence()
				s := (1 - c.v - d.v) / (1 - d.v)
				x.need(c.v >= minSheetGap && s > 0 && e.v-math.Log(s) <= maxSheetExp)
				return form("LOG(EXP($1)*$2/(1-$2-$3)+1,2)", e, c, d)
			}},
			Meaning:  "number of bits about one target (uniform over 2^d values) the release leaks with probability at most 1 − confidence",
			Formula:  "d = log2(e^ε·(1/s − 1) + 1) with s = (α − δ)/(1 − δ), α = 1 − confidence: solving β(2^−d) + (1 − β)·δ = α; at δ = 0 this is the paper's log2(e^ε(1/α − 1) + 1)",
			Citation: swanberg + ", §3.2 (bit leakage), with the Thm 3.5 posterior for δ > 0",
			Needs:    mechs + "; confidence (default --confidence); delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the target is uniform over 2^d values",
			compute: func(r *Release) (float64, skip) {
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				alpha := 1 - r.Confidence
				if alpha <= delta {
					return 0, skip{why: "delta is at least 1 − confidence: no bound on the bits leaked at that confidence"}
				}
				bits, err := bound.OneRunBitLeakage(eps, (alpha-delta)/(1-delta))
				if err != nil {
					return 0, skip{why: err.Error()}
				}
				return numeric.RoundUp(bits, 0, math.Inf(1)), skip{}
			},
		},
		{
			Name: "onerun_narcissus", Family: "onerun", Format: table.Probability,
			Applies: Applies{Requires: NeedBaseline | NeedDelta},
			Sheet: SheetForm{Rows: sheetRowsEps, formula: func(x *sheetRow) string {
				return form("MIN(1,EXP($1)*$2+$3)", x.eps(), x.base(), x.delta())
			}},
			Meaning:  "comparator: the Narcissus-resiliency bound on the success against one target with prior p = baseline, looser than onerun_posterior",
			Formula:  "min(1, e^ε·p + δ); " + epsView,
			Citation: swanberg + ", §4.2 (their Thm F.1 bound)",
			Needs:    mechs + "; baseline or candidates; delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP",
			compute: func(r *Release) (float64, skip) {
				if !r.HasBaseline {
					return 0, skip{need: NeedBaseline}
				}
				eps, delta, s := r.epsDelta()
				if !s.ok() {
					return 0, s
				}
				v, err := bound.OneRunNarcissus(eps, delta, r.Baseline)
				if err != nil {
					return 0, skip{why: err.Error()}
				}
				return v, skip{}
			},
		},
	}
	if len(confidences) > 1 {
		for _, c := range confidences {
			cols = append(cols, successesColumn("onerun_successes_ub_"+confidenceSuffix(c), c))
		}
	}
	for i := range cols {
		cols[i].mechanisms = mechanismSet(cols[i].Applies.Mechanisms)
	}
	return cols
}

// successesColumn is the one-run success upper bound at a fixed confidence
// level, or at the row's confidence when level < 0.
func successesColumn(name string, level float64) OutputColumn {
	at := "at the row's confidence (default: the highest --confidence level)"
	if level >= 0 {
		at = "at confidence " + strconv.FormatFloat(level, 'g', -1, 64)
	}
	return OutputColumn{
		Name: name, Family: "onerun", Format: table.Count,
		Applies:  Applies{Asks: "targets or prior", Requires: NeedBaseline | NeedDelta},
		Meaning:  "upper bound on the number of targets the attack gets right: with probability at least the confidence, at most this many, " + at,
		Formula:  "v_UB = min{u : B(u + 1) ≤ 1 − confidence}, B the bound of onerun_tail_prob (Thm 3.2 for δ = 0, the non-increasing envelope of Thm 3.5 for δ > 0); n when B never gets that low",
		Citation: "Swanberg, Annamalai, Hayes, Balle & Smith 2025, \"Beyond the Worst Case: Extending Differential Privacy Guarantees to Realistic Adversaries\", §3.1 and Thm 3.5",
		Needs:    "as onerun_tail_prob, without successes",
		Assumes:  "as onerun_tail_prob",
		compute: func(r *Release) (float64, skip) {
			t, s := r.Tail()
			if !s.ok() {
				return 0, s
			}
			c := level
			if c < 0 {
				c = r.Confidence
			}
			which := bound.OneRunPure
			if _, delta, _ := r.EpsilonDelta(); delta > 0 {
				which = bound.OneRunThm35
			}
			v, err := t.SuccessUpperBounds(which, []float64{c})
			if err != nil {
				return 0, skip{why: err.Error()}
			}
			return float64(v[0]), skip{}
		},
	}
}

// confidenceSuffix names a confidence level in a column name: 0.95 → "95",
// 0.999 → "99_9".
func confidenceSuffix(c float64) string {
	pct := math.Round(c*1e6) / 1e4 // 0.95 → 95, not 95.00000000000001
	return strings.ReplaceAll(strconv.FormatFloat(pct, 'f', -1, 64), ".", "_")
}

// inverseResult turns a calibration result (x, ok) into a cell: ok false
// means no parameter meets the target, +Inf that every one does.
func inverseResult(x float64, ok bool, name string) (float64, skip) {
	switch {
	case !ok || math.IsNaN(x):
		return 0, skip{why: whyTargetTooLow}
	case math.IsInf(x, 1):
		return 0, skip{why: whyTargetTrivial}
	}
	return x, skip{}
}

// guerraBalboa cites Guerra-Balboa et al. 2024.
const guerraBalboa = "Guerra-Balboa, Sauer & Strufe 2024, \"Analysis and Measurement of Attack Resilience of Differential Privacy\""

// gbColumn is a bound of Guerra-Balboa et al., which all assume pure ε-DP
// under replace-one neighbours: rows that are not pure ε-DP leave it empty
// without a message (it does not apply to them).
func gbColumn(name, meaning, formula, where, request string, f func(r *Release, eps float64) (float64, skip)) OutputColumn {
	return OutputColumn{
		Name: name, Family: "gb", Format: table.Probability,
		Applies:  Applies{Mechanisms: pureMechanisms(), Only: onlyPureRow, Asks: request},
		Meaning:  meaning,
		Formula:  formula + "; ε is the row's pure ε (pure, laplace, rr rows; δ must be 0)",
		Citation: guerraBalboa + ", " + where,
		Needs:    "a pure ε-DP row (epsilon without delta, laplace_scale, or rr)" + map[bool]string{true: "; " + request, false: ""}[request != ""],
		Assumes:  "pure ε-DP under replace-one neighbours (an ε stated for add/remove neighbours must be doubled)",
		compute: func(r *Release) (float64, skip) {
			if (request == "candidates" && r.Candidates == 0) || (request == "target_advantage" && !r.HasTarget) ||
				(request == requestPrior && r.Candidates == 0 && r.priorDistributions() == nil) {
				return 0, skip{silent: true} // not asked for: no message
			}
			if !r.hasPure || r.rowDelta() > 0 {
				return 0, skip{silent: true} // Applies.Only: not a pure ε-DP row
			}
			return f(r, r.pureEps)
		},
	}
}

// requestPrior is the request of the columns computed from the whole
// prior: a uniform one (candidates, uniform(M)) or a prior key whose
// frequency table is loaded.
const requestPrior = "candidates or a prior with its frequency table"

// requires sets the inputs a column requires (Applies.Requires).
func requires(n Need, c OutputColumn) OutputColumn {
	c.Applies.Requires = n
	return c
}

// withFormat sets a column's display format.
func withFormat(f table.Format, c OutputColumn) OutputColumn {
	c.Format = f
	return c
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
		Applies: Applies{Mechanisms: fanoMechanisms(), Only: "(approx rows only with delta empty or 0 and one composition, rr rows only with one composition)", Asks: requestPrior},
		Meaning: meaning,
		Formula: "Fano's inequality with I(X; M(X)) ≤ μ: H(X) − μ ≤ h(P_e) + P_e·ln(M − 1), solved for P(correct) = 1 − P_e; Rényi version D_α(Ber(P)‖Ber(1/M)) ≤ μ_α; " +
			"μ from the mechanism: ρ (zcdp, and μ²/2 for gaussian, gdp, marginals, whose α = 1 bound uses Thm 2's tighter −Σ p_m·ln(p_m + (1 − p_m)·e^{−μ²/2})), the RDP curve (rdp), ε at order ∞ (pure, laplace), the exact mutual information (rr)",
		Citation: guoCitation + ", Algorithms 1 and 2, Thm 1 and Thm 2",
		Needs:    "candidates or uniform(M) (a uniform prior), or a prior key whose frequency table is loaded (the attribute's distribution: M is its number of values); a mechanism with a Rényi or mutual-information view",
		Assumes:  "the mechanism's parameters are stated for replace-one neighbours (for add/remove Gaussian parameters ρ is 4 times larger); the prior is uniform over the M candidates, or the loaded distribution of the target's attribute (given its known columns); with several distributions (cells) the worst one is reported",
		compute: func(r *Release) (float64, skip) {
			if r.Candidates == 0 && r.priorDistributions() == nil {
				return 0, skip{silent: true}
			}
			a1, best, why := r.fano()
			switch why {
			case "":
			case whyFanoAddRemove, whyFanoNoRenyi, whyFanoComposedRR:
				return 0, skip{silent: true} // Applies: not this mechanism
			default:
				return 0, skip{why: why}
			}
			return pick(a1, best), skip{}
		},
	}
}

// pmpDataColumn is a column of the data-dependent PMP parameter of Lowy et
// al. (Prop. 12 for gaussian rows, Prop. 9 for exponential rows), computed
// once per row from the pmp_data table (pmpdata.go).
func pmpDataColumn(name string, format table.Format, meaning string, f func(eps, delta float64) float64) OutputColumn {
	return OutputColumn{
		Name: name, Family: "pmp", Format: format,
		Applies: Applies{Mechanisms: []Mechanism{MechanismGaussian, MechanismExponential}, Asks: "pmp_data", AskedBy: []Field{FieldPMPData}, Requires: NeedDelta},
		Meaning: meaning,
		Formula: "gaussian: ε̃ = min{ε ≥ 0 : max_x B(x; ε) ≤ δ}, B(x; ε) = (1/(2n − 1))·Σ_{x' ≠ x} δ_G(ε; ‖f(x) − f(x')‖₂/σ), δ_G(ε; μ) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ); " +
			"exponential: ε̃ = max_{x, w} |ln Σ_{D ∋ x} P(w|D) − ln Σ_{D ∌ x} P(w|D)| over the C(2n, n) halves D of X, P(w|D) ∝ exp(−ε·Σ_{i ∈ D} loss(w, x_i)/(2Δ)); " +
			"success: 1/(1 + e^{−ε̃}), or (e^ε̃ + δ)/(1 + e^ε̃) with δ",
		Citation: lowyCitation + ", Prop. 12 (Gaussian mechanism, sum-form query) and Prop. 9 (exponential mechanism, exact), with the catalog's errata (Cor. 4's δ, the absolute value of Prop. 9)",
		Needs:    "pmp_data; gaussian rows: sigma (the noise standard deviation in the units of the query vectors) and delta; exponential rows: epsilon and sensitivity (of the loss; default 1)",
		Assumes:  "replace-one neighbours; the training set is a uniformly random half of the 2n records of pmp_data (n records); gaussian: the query is the sum of the records' vectors; exponential: the loss is the sum of the records' losses, with at most 22 records (C(22, 11) halves are enumerated)",
		compute: func(r *Release) (float64, skip) {
			if r.pmpPath == "" {
				return 0, skip{silent: true}
			}
			if r.Mechanism == MechanismGaussian && !(r.delta > 0) {
				return 0, skip{need: NeedDelta} // Prop. 12 gives ε̃ at the row's δ
			}
			eps, delta, why := r.pmpFromData()
			switch {
			case why != "" && r.compositions > 1:
				return 0, skip{why: why, bare: true, unused: true}
			case why != "":
				// The parent set cannot be used: pmp_data is as good as missing.
				return 0, skip{why: why, bare: true, fault: true}
			}
			return f(eps, delta), skip{note: r.pmpNote, bare: true}
		},
	}
}

// lowyCitation cites Lowy et al. 2024.
const lowyCitation = "Lowy, Li, Liu, Koike-Akino, Parsons & Wang 2024, \"Why Does Differential Privacy with Large ε Defend Against Practical Membership Inference Attacks?\""
