package registry

import (
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// onerunColumns are the single-target bounds of Swanberg et al.: posterior,
// advantage and the ε that protects a target.
func onerunColumns() []OutputColumn {
	return inFamily("onerun", []OutputColumn{
		{
			Name: "onerun_posterior", Format: table.Probability,
			Brief: "β = e^ε/(e^ε − 1 + 1/p)", Source: "Swanberg et al. 2025, Thm 3.2",
			Applies: Applies{Requires: resolve.NeedBaseline | resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				return formula.Fill("$2*EXP($1)/($2*EXP($1)+1-$2)", x.Eps(), x.Base())
			}},
			Meaning:  "upper bound on the attacker's success on one target after seeing the release (posterior), given its prior success p = baseline; for δ > 0 the success bound adds (1 − β)·δ (see onerun_advantage)",
			Formula:  "β = e^ε/(e^ε − 1 + 1/p), computed as logit β = logit p + ε; " + epsView,
			Citation: swanberg + ", Thm 3.2",
			Needs:    mechanismParams + "; baseline or candidates; delta for gaussian and gdp",
			Assumes:  "ε-DP under replace-one neighbours; the attacker's prior is independent across targets",
			fromEps: func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip) {
				beta := bound.OneRunPosterior(eps, r.Baseline)
				if beta == r.Baseline {
					return beta, resolve.Skip{} // ε = 0: the posterior is the prior, exactly
				}
				return numeric.RoundUp(beta, r.Baseline, 1), resolve.Skip{}
			},
		},
		{
			Name: "onerun_advantage", Format: table.Probability, Round: resolve.RoundUp,
			Brief: "(min(1, β + (1 − β)δ) − p)/(1 − p)", Source: "Swanberg et al. 2025, Thm 3.5 with one target",
			Applies: Applies{Requires: resolve.NeedBaseline | resolve.NeedDelta, BelowOne: true},
			Sheet: formula.Form{Advantage: true, Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				return formula.Fill("$3+(1-$3)*$2*(EXP($1)-1)/(1+$2*(EXP($1)-1))", x.Eps(), x.Base(), x.Delta())
			}},
			Meaning:  "upper bound on the generalized advantage (success − p)/(1 − p) of an attack on one target with prior success p = baseline",
			Formula:  "(min(1, β + (1 − β)·δ) − p)/(1 − p) with β as in onerun_posterior; (β − p)/(1 − p) when δ = 0; " + epsView,
			Citation: swanberg + ", Thm 3.5 with one target (tighter than Cor. 3.4's β + δ); advantage as in Cherubin 2017",
			Needs:    mechanismParams + "; baseline or candidates (below 1); delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP under replace-one neighbours",
			fromEps: alwaysDefinedFromEps(func(r *resolve.Release, eps, delta float64) float64 {
				return bound.OneRunAdvantage(eps, delta, r.Baseline)
			}),
		},
		{
			Name: "onerun_eps_protect", Format: table.Real, Round: resolve.RoundDown,
			Brief: "largest ε with `onerun_advantage` ≤ `target_advantage`", Source: "Swanberg et al. 2025, §5.3",
			Applies: Applies{Asks: AskTarget, Requires: resolve.NeedBaseline | resolve.NeedDelta, BelowOne: true},
			Sheet: formula.Form{Rows: formula.RowsDelta, Formula: func(x *formula.Row) string {
				a, d, b := x.Ref(release.FieldTargetAdvantage), x.Delta(), x.Base()
				x.Need(b.Value > 0 && a.Value <= 1-formula.MinGap)
				return formula.Fill("LN(1+($1-$2)/((1-$1)*$3))", a, d, b)
			}},
			Meaning:  "the largest ε whose onerun_advantage stays at or below target_advantage, at the row's delta and baseline: releases with ε up to this value protect the target",
			Formula:  "ε = ln(1 + e^{logit s − ln p}), s = (target_advantage − δ)/(1 − δ): the inverse of onerun_advantage",
			Citation: swanberg + ", §5.3 (ε_protect), with the Thm 3.5 posterior",
			Needs:    "target_advantage; baseline or candidates (below 1); delta (0 for pure rows)",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; rounded down",
			fromEps: func(r *resolve.Release, _, delta float64) (float64, resolve.Skip) {
				eps, ok := bound.OneRunEpsilonProtect(r.Target, delta, r.Baseline)
				switch {
				case !ok:
					return 0, resolve.Skip{Why: WhyTargetTooLow}
				case math.IsInf(eps, 1):
					return 0, resolve.Skip{Why: whyTargetTrivial}
				}
				return eps, resolve.Skip{}
			},
		},
	})
}

// onerunTailColumns are the multi-target bounds of Swanberg et al. for one
// run of the mechanism: the tail of the number of successes and its upper
// bound.
func onerunTailColumns() []OutputColumn {
	return inFamily("onerun", []OutputColumn{
		{
			Name: "onerun_tail_prob", Format: table.Probability,
			Brief: "bound on Pr[at least `successes` of the n targets are reconstructed]", Source: "Swanberg et al. 2025, Thm 3.2 / Thm 3.5",
			Applies:  Applies{Asks: AskSuccesses, Requires: resolve.NeedBaseline | resolve.NeedDelta},
			Meaning:  "upper bound on the probability that the attack succeeds on at least `successes` of the row's targets (one run of the mechanism)",
			Formula:  "Pr[S ≥ v] for S = Σᵢ Bernoulli(βᵢ), βᵢ = e^ε/(e^ε − 1 + 1/pᵢ) (Thm 3.2, δ = 0); Pr[S ≥ v] + α·n·δ with α = maxⱼ (Pr[S ≥ v − j] − Pr[S ≥ v])/j (Thm 3.5, δ > 0); S computed exactly (divide-and-conquer FFT convolution, binomial for equal pᵢ); " + epsView,
			Citation: swanberg + ", Thm 3.2 and Thm 3.5",
			Needs:    mechanismParams + "; successes; targets with baseline or candidates, or a prior with one p per target",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the targets' priors are independent",
			Compute: fromTail(func(r *resolve.Release, t *bound.OneRunTail) (float64, resolve.Skip) {
				if _, delta, _ := r.EpsilonDelta(); delta > 0 {
					return t.Thm35(r.Successes), resolve.Skip{}
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
				return v, resolve.Skip{}
			}),
		},
		{
			Name: "onerun_tail_log10", Format: table.Real,
			Brief: "log10 of `onerun_tail_prob`, exact where the probability is too small to print (below 1e-300)", Source: "Swanberg et al. 2025, Thm 3.2 / Thm 3.5",
			Applies:  Applies{Asks: AskSuccesses, Requires: resolve.NeedBaseline | resolve.NeedDelta},
			Meaning:  "log10 of onerun_tail_prob, exact where the probability itself is too small to print (below 1e-300)",
			Formula:  "log10(Pr[S ≥ v]) for δ = 0; log10(Pr[S ≥ v] + α·n·δ) for δ > 0, formed in log space",
			Citation: swanberg + ", Thm 3.2 and Thm 3.5",
			Needs:    "as onerun_tail_prob",
			Assumes:  "as onerun_tail_prob",
			Compute: fromTail(func(r *resolve.Release, t *bound.OneRunTail) (float64, resolve.Skip) {
				lt := t.LogTail(r.Successes)
				if _, delta, _ := r.EpsilonDelta(); delta > 0 {
					if a := t.AlphaLP(r.Successes); a > 0 {
						lt = numeric.LogSumExp(lt, math.Log(a)+math.Log(float64(t.Len()))+numeric.LogPos(delta))
					}
				}
				if math.IsInf(lt, -1) {
					return 0, resolve.Skip{Why: "the tail is exactly 0: no run reaches this many successes"}
				}
				v := math.Min(lt, 0) / math.Ln10
				return v + 1e-12*math.Abs(v), resolve.Skip{} // rounded up
			}),
		},
		successesColumn("onerun_successes_ub", -1),
		{
			Name: "onerun_expected_successes", Format: table.Real,
			Brief: onerunLeakBrief, Source: onerunLeakSource,
			Applies:  Applies{Asks: AskTargets, Requires: resolve.NeedBaseline | resolve.NeedDelta},
			Meaning:  "expected number of targets the dominating attack gets right: an upper bound on the expected successes for δ = 0 (add n·δ for δ > 0)",
			Formula:  "Σᵢ βᵢ with βᵢ as in onerun_tail_prob",
			Citation: swanberg + ", Thm 3.2 (stochastic dominance)",
			Needs:    mechanismParams + "; targets with baseline or candidates, or a prior with one p per target",
			Assumes:  "as onerun_tail_prob",
			Compute: fromTail(func(r *resolve.Release, t *bound.OneRunTail) (float64, resolve.Skip) {
				return numeric.RoundUp(t.ExpectedSuccesses(), 0, float64(t.Len())), resolve.Skip{}
			}),
		},
	})
}

// onerunLeakColumns are the bit-leakage bound of Swanberg et al. and the
// Narcissus comparator.
func onerunLeakColumns() []OutputColumn {
	return sharing("onerun", onerunLeakBrief, onerunLeakSource, []OutputColumn{
		{
			Name: "onerun_bits_leaked", Format: table.Real, Round: resolve.RoundUp,
			Applies: Applies{Requires: resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				e, d, c := x.Eps(), x.Delta(), x.Confidence()
				s := (1 - c.Value - d.Value) / (1 - d.Value)
				x.Need(c.Value >= formula.MinGap && s > 0 && e.Value-math.Log(s) <= formula.MaxExp)
				return formula.Fill("LOG(EXP($1)*$2/(1-$2-$3)+1,2)", e, c, d)
			}},
			Meaning:  "number of bits about one target (uniform over 2^d values) the release leaks with probability at most 1 − confidence",
			Formula:  "d = log2(e^ε·(1/s − 1) + 1) with s = (α − δ)/(1 − δ), α = 1 − confidence: solving β(2^−d) + (1 − β)·δ = α; at δ = 0 this is the paper's log2(e^ε(1/α − 1) + 1)",
			Citation: swanberg + ", §3.2 (bit leakage), with the Thm 3.5 posterior for δ > 0",
			Needs:    mechanismParams + "; confidence (default --confidence); delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the target is uniform over 2^d values",
			fromEps: func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip) {
				alpha := 1 - r.Confidence
				if alpha <= delta {
					return 0, resolve.Skip{Why: "delta is at least 1 − confidence: no bound on the bits leaked at that confidence"}
				}
				bits, err := bound.OneRunBitLeakage(eps, (alpha-delta)/(1-delta))
				if err != nil {
					return 0, resolve.Skip{Why: err.Error()}
				}
				return bits, resolve.Skip{}
			},
		},
		{
			Name: "onerun_narcissus", Format: table.Probability,
			Applies: Applies{Requires: resolve.NeedBaseline | resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				return formula.Fill("MIN(1,EXP($1)*$2+$3)", x.Eps(), x.Base(), x.Delta())
			}},
			Meaning:  "comparator: the Narcissus-resiliency bound on the success against one target with prior p = baseline, looser than onerun_posterior",
			Formula:  "min(1, e^ε·p + δ); " + epsView,
			Citation: swanberg + ", §4.2 (their Thm F.1 bound)",
			Needs:    mechanismParams + "; baseline or candidates; delta for gaussian and gdp",
			Assumes:  "(ε, δ)-DP",
			fromEps: func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip) {
				v, err := bound.OneRunNarcissus(eps, delta, r.Baseline)
				if err != nil {
					return 0, resolve.Skip{Why: err.Error()}
				}
				return v, resolve.Skip{}
			},
		},
	})
}

// fromTail computes a column from the row's dominating distribution
// (Release.Tail), and skips the column with the reason the row has none.
func fromTail(f func(*resolve.Release, *bound.OneRunTail) (float64, resolve.Skip)) func(*resolve.Release) (float64, resolve.Skip) {
	return func(r *resolve.Release) (float64, resolve.Skip) {
		t, s := r.Tail()
		if !s.OK() {
			return 0, s
		}
		return f(r, t)
	}
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
		Brief:    "with probability ≥ confidence, at most this many targets are reconstructed; one column per `--confidence` level when there are several (`onerun_successes_ub_95`)",
		Source:   "Swanberg et al. 2025, §3.1",
		Applies:  Applies{Asks: AskTargets, Requires: resolve.NeedBaseline | resolve.NeedDelta},
		Meaning:  "upper bound on the number of targets the attack gets right: with probability at least the confidence, at most this many, " + at,
		Formula:  "v_UB = min{u : B(u + 1) ≤ 1 − confidence}, B the bound of onerun_tail_prob (Thm 3.2 for δ = 0, the non-increasing envelope of Thm 3.5 for δ > 0); n when B never gets that low",
		Citation: "Swanberg, Annamalai, Hayes, Balle & Smith 2025, \"Beyond the Worst Case: Extending Differential Privacy Guarantees to Realistic Adversaries\", §3.1 and Thm 3.5",
		Needs:    "as onerun_tail_prob, without successes",
		Assumes:  "as onerun_tail_prob",
		Compute: fromTail(func(r *resolve.Release, t *bound.OneRunTail) (float64, resolve.Skip) {
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
				return 0, resolve.Skip{Why: err.Error()}
			}
			return float64(v[0]), resolve.Skip{}
		}),
	}
}

// confidenceSuffix names a confidence level in a column name: 0.95 → "95",
// 0.999 → "99_9".
func confidenceSuffix(c float64) string {
	pct := math.Round(c*1e6) / 1e4 // 0.95 → 95, not 95.00000000000001
	return strings.ReplaceAll(strconv.FormatFloat(pct, 'f', -1, 64), ".", "_")
}

// The summaries of the column table of docs/outputs.md that several columns share.
const (
	onerunLeakBrief  = "Σβ_i; bits leaked with probability ≤ 1 − confidence; the Narcissus comparator e^ε·p + δ"
	onerunLeakSource = "Swanberg et al. 2025, §3.2, §4.2"
)
