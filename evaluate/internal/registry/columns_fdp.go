// The output columns of Kulynych et al. 2025: the f-DP bounds at the row's
// baseline and in the worst case, their calibrations, predicate singling
// out, the comparators the paper sets them against (App. B) and the
// accounting comparisons of DP-SGD rows (§4.2).

package registry

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// fdpColumns are the bounds of Kulynych et al. from the trade-off curve at
// the row's baseline, and the baseline-free worst case.
func fdpColumns() []OutputColumn {
	return inFamily("fdp", []OutputColumn{
		{
			Name: "fdp_success", Format: table.Probability,
			Brief: "1 − f(baseline): bound on re-identification, attribute-inference and reconstruction success", Source: "Kulynych et al. 2025, Thm 3.2",
			Applies: Applies{Requires: resolve.NeedBaseline},
			Sheet: formula.Form{Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				return x.Success(x.Curve(), x.Base()).Text
			}},
			Meaning:  "upper bound on the success probability of any re-identification (singling-out), attribute-inference or reconstruction attack, given the baseline success of the best attack that does not see the release",
			Formula:  "1 − f(baseline), with " + fdpCurves,
			Citation: kulynych + ", Thm 3.2, Eq. (10)",
			Needs:    mechanismParams + "; baseline or candidates",
			Assumes:  "f-DP under add/remove or replace-one neighbours, as the mechanism's parameters were stated; the attacker knows every other record (strong threat model)",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				adv := r.Advantage()
				if adv == 0 {
					return r.Baseline, resolve.Skip{}
				}
				return numeric.RoundUp(r.Baseline+adv, r.Baseline, 1), resolve.Skip{}
			},
		},
		{
			Name: "fdp_advantage", Format: table.Probability,
			Brief: "1 − f(baseline) − baseline", Source: "Kulynych et al. 2025, Thm 3.3",
			Applies: Applies{Requires: resolve.NeedBaseline},
			Sheet: formula.Form{Advantage: true, Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				return formula.Fill("$1-$2", x.Output("fdp_success"), x.Base())
			}},
			Meaning:  "upper bound on the attack's advantage over the baseline (success − baseline)",
			Formula:  "1 − f(baseline) − baseline, with f as for fdp_success",
			Citation: kulynych + ", Thm 3.3, Eq. (11)",
			Needs:    mechanismParams + "; baseline or candidates",
			Assumes:  "as fdp_success",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return numeric.RoundUp(r.Advantage(), 0, 1-r.Baseline) }),
		},
		{
			Name: "fdp_worst_advantage", Format: table.Probability, Round: resolve.RoundUp,
			Brief: "η = max_α(1 − f(α) − α), the baseline-free bound", Source: "Kulynych et al. 2025, Thm 3.4, Prop. A.1",
			Sheet: formula.Form{Advantage: true, Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				return x.Worst(x.Curve())
			}},
			Meaning:  "baseline-free bound on the advantage of any such attack (the worst case over all baselines); also the bound on membership-inference advantage TPR − FPR",
			Formula:  "η = max_α (1 − f(α) − α): (e^ε − 1 + 2δ)/(e^ε + 1) for pure and approx (Prop. A.1); 2Φ(μ/2) − 1 for gaussian and gdp",
			Citation: kulynych + ", Thm 3.4, Eq. (12); Prop. A.1",
			Needs:    mechanismParams,
			Assumes:  "as fdp_success",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return r.Curve.WorstAdvantage() }),
		},
		{
			Name: "fdp_norm_advantage", Format: table.Probability,
			Brief: "(success − baseline)/(1 − baseline)", Source: "Kulynych et al. 2025, Thm 3.3",
			Applies: Applies{Requires: resolve.NeedBaseline, BelowOne: true},
			Sheet: formula.Form{Advantage: true, Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				b := x.Base()
				x.Need(b.Value <= 1-formula.MinGap)
				return formula.Fill("$1/(1-$2)", x.Output("fdp_advantage"), b)
			}},
			Meaning:  "the advantage as a share of what was left to gain over the baseline: (success − baseline)/(1 − baseline)",
			Formula:  "(1 − f(baseline) − baseline)/(1 − baseline), with f as for fdp_success",
			Citation: kulynych + ", Thm 3.3 with the normalisation of Guo et al. 2023 (§3.3, after Eq. (11))",
			Needs:    mechanismParams + "; baseline or candidates (below 1)",
			Assumes:  "as fdp_success",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.NormalizedAdvantage(r.Advantage(), r.Baseline) }),
		},
		{
			Name: "fdp_binary_success", Format: table.Probability,
			Brief: "binary attribute with prior π = baseline ≥ 0.5: 1 − R_f(π)", Source: "Kulynych et al. 2025, Thm D.1",
			Applies: Applies{Asks: AskBinary},
			Sheet: formula.Form{Rows: formula.RowsBinary, Formula: func(x *formula.Row) string {
				return x.BinarySuccess(x.Curve(), x.Base())
			}},
			Meaning:  "bound on the success of inferring a binary attribute (two candidates) whose more likely value has prior probability π = baseline; tighter than fdp_success for this case",
			Formula:  "1 − R_f(π), R_f(π) = min_α π·α + (1 − π)·f(α) (Bayes risk); closed forms for the Gaussian, (ε, δ) and Laplace curves",
			Citation: kulynych + ", Thm D.1 (App. D), Def. D.1",
			Needs:    mechanismParams + "; baseline ≥ 0.5 (binary attribute)",
			Assumes:  "f-DP under replace-one neighbours; two candidate values",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.BinarySuccess(r.Curve, r.Baseline) }),
		},
	})
}

// fdpTargetColumns invert the advantage bounds of Kulynych et al.: the
// largest ε or μ, and the smallest σ, that keep the advantage within
// target_advantage.
func fdpTargetColumns() []OutputColumn {
	return sharing("fdp", fdpTargetBrief, fdpTargetSource, []OutputColumn{
		{
			Name: "fdp_eps_for_target", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismPure, release.MechanismApprox, release.MechanismLaplace}, Only: OnlyOneComposition, Asks: AskTarget},
			Meaning:  "the largest ε whose advantage bound stays at or below target_advantage: at the row's baseline when it has one, else in the worst case (for laplace rows: ε = sensitivity/b of the Laplace curve)",
			Formula:  "inverse of fdp_advantage (with a baseline) or fdp_worst_advantage (without) in ε, at the row's δ; closed-form inverse (derived), checked against the rounded forward bound",
			Citation: kulynych + ", Thm 3.3/3.4; closed-form inverse (derived)",
			Needs:    "target_advantage; epsilon (and delta) or laplace_scale; baseline optional",
			Assumes:  "as fdp_success; rounded down",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				var eps float64
				var ok bool
				switch {
				case r.Mechanism == release.MechanismLaplace && r.HasBaseline:
					eps, ok = bound.LaplaceEpsilonForAdvantage(r.Target, r.Baseline)
				case r.Mechanism == release.MechanismLaplace:
					eps, ok = bound.LaplaceEpsilonForWorstAdvantage(r.Target)
				case r.HasBaseline:
					eps, ok = bound.EpsilonForAdvantage(r.Target, r.RowDelta(), r.Baseline)
				default:
					eps, ok = bound.EpsilonForWorstAdvantage(r.Target, r.RowDelta())
				}
				return inverseResult(eps, ok, "ε")
			},
		},
		{
			Name: "fdp_mu_for_target", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian, release.MechanismGDP}, Asks: AskTarget},
			Meaning:  "the largest μ (Gaussian DP) whose advantage bound stays at or below target_advantage: at the row's baseline when it has one, else in the worst case; on a row of several compositions, the μ of each step (what the row's mu would be)",
			Formula:  "μ = Φ⁻¹(1 − b) − Φ⁻¹(1 − b − A) at baseline b; μ = 2Φ⁻¹((1 + A)/2) in the worst case; divided by √compositions (c steps of G_μ compose to G_{μ√c})",
			Citation: kulynych + ", closed-form inverse (derived); Dong, Roth & Su 2022, Cor. 3.3 (composition of Gaussian DP)",
			Needs:    "target_advantage; sigma or mu; baseline optional",
			Assumes:  "the Gaussian mechanism; per step; rounded down",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				mu, s := muForTarget(r)
				if !s.OK() {
					return 0, s
				}
				return mu, resolve.Skip{}
			},
		},
		{
			Name: "fdp_sigma_for_target", Format: table.Real, Round: resolve.RoundUp,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian}, Asks: AskTarget},
			Meaning:  "the smallest noise standard deviation σ whose advantage bound stays at or below target_advantage, for the row's sensitivity, per step of the row's compositions (what the row's sigma would be)",
			Formula:  "σ = sensitivity/μ with μ as in fdp_mu_for_target (per step)",
			Citation: kulynych + ", closed-form inverse (derived)",
			Needs:    "target_advantage; sigma (and sensitivity); baseline optional",
			Assumes:  "the Gaussian mechanism; rounded up",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				if r.Sensitivity == 0 {
					// Sensitivity 0: the release does not depend on the data.
					return 0, resolve.Skip{Why: whyTargetTrivial}
				}
				mu, s := muForTarget(r)
				if !s.OK() {
					return 0, s
				}
				if mu == 0 {
					return 0, resolve.Skip{Why: "only infinite noise meets target_advantage"}
				}
				return r.Sensitivity / mu, resolve.Skip{}
			},
		},
	})
}

// muForTarget returns the largest per-step μ of the row's Gaussian
// mechanism whose composed advantage bound (at the baseline, or in the worst
// case) stays at or below target_advantage, rounded down: the μ of the
// composed release divided by √compositions, lowered until the row's own
// composition (μ·√c rounded up, setGaussian) stays at or below it.
func muForTarget(r *resolve.Release) (float64, resolve.Skip) {
	mu, ok := bound.MuForWorstAdvantage(r.Target)
	if r.HasBaseline {
		mu, ok = bound.MuForAdvantage(r.Target, r.Baseline)
	}
	if !ok || math.IsInf(mu, 1) || math.IsNaN(mu) {
		return inverseResult(mu, ok, "μ")
	}
	if r.Compositions > 1 {
		c := numeric.SqrtUp(float64(r.Compositions))
		total := mu
		mu /= c
		for mu > 0 && numeric.MulUp(mu, c) > total {
			mu = math.Nextafter(mu, 0)
		}
	}
	return mu, resolve.Skip{}
}

// fdpNoiseColumns calibrate the noise of a DP-SGD row to target_advantage,
// under PLD and RDP accounting.
func fdpNoiseColumns() []OutputColumn {
	return append([]OutputColumn{
		{
			Name: "fdp_noise_for_target", Family: "fdp", Format: table.Real,
			Brief: "the smallest DP-SGD noise multiplier that keeps the advantage ≤ `target_advantage` (at the baseline, or in the worst case), PLD accounting", Source: "Kulynych et al. 2025, §4.2",
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Asks: AskTarget},
			Meaning:  "the smallest DP-SGD noise multiplier whose advantage bound stays at or below target_advantage, at the row's sample_rate and steps (and extra_stages, kept fixed): at the row's baseline when it has one, else in the worst case; PLD accounting (or RDP accounting where that needs less noise, which happens only for targets near 1e-9)",
			Formula:  "a safeguarded secant search on ln σ of the PLD accountant's 1 − f(b) − b (or η), to 0.01% of σ, returning the end that meets the target; the smaller of that and fdp_noise_for_target_rdp",
			Citation: kulynych + ", §4.2 (calibrating noise, \"less noise\")",
			Needs:    "target_advantage; noise_multiplier, sample_rate, steps; baseline optional",
			Assumes:  "Poisson-subsampled Gaussian under add/remove neighbours; rounded up",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				return r.NoiseForTarget(false)
			},
		},
	}, sharing("fdp", fdpNoiseRDPBrief, fdpNoiseRDPSource, []OutputColumn{
		{
			Name: "fdp_noise_for_target_rdp", Format: table.Real,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Asks: AskTarget},
			Meaning:  "comparison: fdp_noise_for_target under RDP accounting, the conservative accountant most published DP-SGD guarantees use",
			Formula:  "bisection on 1/σ of the RDP-based curve's 1 − f(b) − b (or η) (the optimal RDP → f-DP conversion over dp_accounting's 156 orders), returning the conservative end",
			Citation: kulynych + ", §4.2 (\"Balle et al.\", RDP optimised over orders); Mironov, Talwar & Zhang 2019",
			Needs:    "as fdp_noise_for_target",
			Assumes:  "as fdp_noise_for_target",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				return r.NoiseForTarget(true)
			},
		},
		{
			Name: "fdp_noise_reduction", Format: table.Probability,
			Applies:  Applies{Mechanisms: []release.Mechanism{release.MechanismDPSGD}, Asks: AskTarget},
			Meaning:  "the share of noise that tight (PLD) accounting saves over RDP accounting for the same risk target (Kulynych et al.'s \"≈ 20% less noise\")",
			Formula:  "1 − fdp_noise_for_target / fdp_noise_for_target_rdp",
			Citation: kulynych + ", Fig. 1 and §4.2",
			Needs:    "as fdp_noise_for_target",
			Assumes:  "as fdp_noise_for_target; both noise multipliers rounded up, so the ratio is indicative to 0.01%",
			Compute: func(r *resolve.Release) (float64, resolve.Skip) {
				tight, s := r.NoiseForTarget(false)
				if !s.OK() {
					return 0, s
				}
				loose, s := r.NoiseForTarget(true)
				if !s.OK() {
					return 0, s
				}
				return 1 - tight/loose, resolve.Skip{}
			},
		},
	})...)
}

// psoColumns are the predicate singling-out bounds of Kulynych et al.
// (§4.1, App. B and F).
func psoColumns() []OutputColumn {
	return sharing("fdp", psoBrief, psoSource, []OutputColumn{
		{
			Name: "spso_success", Format: table.Probability,
			Applies: Applies{Asks: AskWeight},
			Sheet: formula.Form{Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				return x.Success(x.Curve(), x.Ref(release.FieldPredicateWeight)).Text
			}},
			Meaning:  "bound on the success of singling out a record with a predicate of weight w that matches no other record (strong threat model)",
			Formula:  "1 − f(w), with f as for fdp_success (the baseline is w)",
			Citation: kulynych + ", Thm 3.2 for SPSO (Def. 3.2; base = w, §4.1)",
			Needs:    mechanismParams + "; w",
			Assumes:  "as fdp_success",
			Compute: alwaysDefined(func(r *resolve.Release) float64 {
				return numeric.RoundUp(r.Weight+r.Curve.Advantage(r.Weight), r.Weight, 1)
			}),
		},
		{
			Name: "pso_baseline", Format: table.Probability,
			Applies: Applies{Asks: AskRecords},
			Sheet: formula.Form{Rows: formula.RowsAll, Formula: func(x *formula.Row) string {
				n, w := x.Ref(release.FieldRecords), x.Ref(release.FieldPredicateWeight)
				x.Need(n.Value <= formula.MaxRecords)
				return formula.Fill("$1*$2*(1-$2)^($1-1)", n, w)
			}},
			Meaning:  "the success of the best predicate singling-out attack that does not see the release, over a dataset of `records` i.i.d. records",
			Formula:  "n·w·(1 − w)^(n−1), w ≤ 1/n",
			Citation: kulynych + ", Eq. (5), §4.1 (after Cohen & Nissim 2020)",
			Needs:    "records; w",
			Assumes:  "i.i.d. records",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.PSOBaseline(r.Records, r.Weight) }),
		},
		{
			Name: "pso_cohen_nissim", Format: table.Probability,
			Applies: Applies{Asks: AskRecords, Requires: resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				n, e, w := x.Ref(release.FieldRecords), x.Eps(), x.Ref(release.FieldPredicateWeight)
				x.Need(math.Log(n.Value)+e.Value+numeric.LogPos(w.Value) <= formula.MaxExp) // n·e^ε·w must not overflow
				return formula.Fill("MIN(1,$1*(EXP($2)*$3+$4))", n, e, w, x.Delta())
			}},
			Meaning:  "comparator: Cohen & Nissim's bound on predicate singling-out success from (ε, δ)",
			Formula:  "min(1, n·(e^ε·w + δ)); " + epsView,
			Citation: kulynych + ", Thm B.1, Eqs. (21)–(22) (Cohen & Nissim 2020)",
			Needs:    mechanismParams + "; records; w",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; w ≤ 1/records",
			fromEps: alwaysDefinedFromEps(func(r *resolve.Release, eps, delta float64) float64 {
				return bound.PSOCohenNissim(eps, delta, r.Records, r.Weight)
			}),
		},
		{
			Name: "pso_fdp", Format: table.Probability,
			Applies: Applies{Asks: AskRecords},
			Sheet: formula.Form{Rows: formula.RowsCurve, Formula: func(x *formula.Row) string {
				return formula.Fill("MIN(1,$1*$2)", x.Ref(release.FieldRecords), x.Output("spso_success"))
			}},
			Meaning:  "bound on predicate singling-out success from the mechanism's trade-off curve",
			Formula:  "min(1, n·(1 − f(w))), with f as for fdp_success",
			Citation: kulynych + ", Thm F.2, Eq. (48)",
			Needs:    mechanismParams + "; records; w",
			Assumes:  "f-DP under replace-one neighbours; predicates of weight exactly w ≤ 1/records",
			Compute:  alwaysDefined(func(r *resolve.Release) float64 { return bound.PSOFDP(r.Curve, r.Records, r.Weight) }),
		},
	})
}

// The summaries of the column table of docs/outputs.md that several columns share.
const (
	fdpNoiseRDPBrief  = "the same under RDP accounting, and the share of noise the PLD saves: 1 − PLD σ / RDP σ"
	fdpNoiseRDPSource = "Kulynych et al. 2025, Fig. 1"
	fdpTargetBrief    = "the largest ε or μ, or the smallest σ, that keeps the advantage ≤ `target_advantage`"
	fdpTargetSource   = "Kulynych et al. 2025, Thm 3.3, inverted"
	psoBrief          = "singling out: 1 − f(w); n w (1 − w)^(n−1); Cohen & Nissim's n(e^ε w + δ); n(1 − f(w))"
	psoSource         = "Kulynych et al. 2025, §4.1, Thm B.1, Thm F.2"
)
