package registry

import (
	"math"
	"slices"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// pmpColumns are the practical membership-privacy bounds of Lowy et al.,
// from (ε, δ) and from the pmp_data table.
func pmpColumns() []OutputColumn {
	return append(sharing("pmp", pmpMIABrief, pmpMIASource, []OutputColumn{
		{
			Name: "pmp_mia_success", Format: table.Probability,
			Applies: Applies{Requires: resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				return formula.Fill("(EXP($1)+$2)/(1+EXP($1))", x.Eps(), x.Delta())
			}},
			Meaning:  "upper bound on the success of a practical membership-inference attack (the attacker guesses which of two records, each a member with probability 1/2, is in the data)",
			Formula:  "1/(1 + e^{−ε}) for δ = 0 (Lemma 6); (e^ε + δ)/(1 + e^ε) for δ > 0; " + epsView,
			Citation: lowyCitation + ", Lemma 6 (δ > 0 form derived)",
			Needs:    mechanismParams,
			Assumes:  "(ε, δ)-DP under replace-one neighbours; the attacker's prior on membership is 1/2",
			fromEps: func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip) {
				if delta > 0 {
					return bound.PMPSuccessDelta(eps, delta), resolve.Skip{}
				}
				return bound.PMPSuccess(eps), resolve.Skip{}
			},
		},
		{
			Name: "pmp_eps_for_target", Format: table.Real,
			Applies: Applies{Asks: AskTarget, Requires: resolve.NeedDelta},
			Sheet: formula.Form{Rows: formula.RowsEps, Formula: func(x *formula.Row) string {
				switch x.Mechanism() {
				case release.MechanismPure, release.MechanismExponential, release.MechanismLaplace, release.MechanismRR:
					x.Need(x.Zero(release.FieldDelta))
				case release.MechanismApprox: // δ as the row gives it
				default:
					x.Need(false)
				}
				x.Need(!x.Has(release.FieldCompositions)) // a bisection through the composed profile
				a, d := x.Ref(release.FieldTargetAdvantage), x.Delta()
				x.Need(a.Value <= 1-1e-4 && a.Value >= d.Value) // riskbatch's value is the largest ε whose rounded-up bound meets the target
				return formula.Fill("LN((1+$1-2*$2)/(1-$1))", a, d)
			}},
			Meaning: "the largest ε whose practical membership-inference success, at the δ of pmp_mia_success, stays at or below (1 + target_advantage)/2, i.e. whose advantage 2·success − 1 stays at or below target_advantage; " +
				"on a row of several compositions of an ε mechanism (pure, approx, laplace, rr, exponential), the ε of each step (for laplace rows ε = sensitivity/laplace_scale); empty when the target is below δ, which no ε meets",
			Formula:  "ε = ln((1 + A − 2δ)/(1 − A)) (ε = logit((1 + A)/2) for δ = 0), checked against the rounded forward bound; on a composed row, the largest per-step ε whose c-fold composition has that ε at the row's δ (bisection through the optimal composition theorem's profile, or basic composition c·ε where that certifies more)",
			Citation: lowyCitation + ", Lemma 6 and its δ form (inverted, derived); Kairouz, Oh & Viswanath 2015, Thm 3.3 for the per-step ε",
			Needs:    "target_advantage; delta for the mechanisms without a native ε",
			Assumes:  "(ε, δ)-DP under replace-one neighbours, at the row's δ (δ_total = compositions·δ for approx rows, or report_delta); per step through the optimal composition of (ε, δ) steps (of (ε, 0) steps for laplace, rr, pure and exponential rows, whose exact compositions are no looser); rounded down",
			Compute:  pmpEpsForTarget,
		},
	}),
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
	)
}

// pmpEpsForTarget is pmp_eps_for_target: the inverse of pmp_mia_success's
// (ε, δ) bound at the δ the row's own bound uses (0 for a row without
// one), per step for a composed row of an ε mechanism. A target below δ
// is out of reach and says so.
func pmpEpsForTarget(r *resolve.Release) (float64, resolve.Skip) {
	delta := 0.0
	if r.HasDelta {
		delta = r.Delta // for a composed approx row, compositions·δ (resolveApprox)
	}
	perStep := slices.Contains(release.PureMechanisms(), r.Mechanism)
	if perStep && r.Mixed() {
		// The target bounds the whole composition: an ε typed into the
		// row would be composed with the extra stages again.
		return 0, resolve.Skip{Why: "the row's ε is composed with its extra_stages, so no ε of its own meets the target alone"}
	}
	if r.Compositions > 1 && !perStep {
		why := "a composed " + string(r.Mechanism) + " row has no per-step ε to calibrate"
		if r.HasMu {
			why += "; fdp_mu_for_target calibrates its per-step μ"
		}
		return 0, resolve.Skip{Why: why}
	}
	// A target below δ gives !ok: whyTargetTooLow, shared with the other
	// calibration columns that no ε meets for the same reason.
	eps, ok := bound.PMPEpsilonForAdvantageDelta(r.Target, delta)
	if !ok || math.IsInf(eps, 1) || r.Compositions == 1 {
		return inverseResult(eps, ok, "ε")
	}
	step, ok := largestStep(eps, r.StepDelta, delta, r.Compositions)
	if !ok {
		return 0, resolve.Skip{Why: "no per-step ε meets target_advantage at δ = " + resolve.FormatNumber(delta) + ": the steps' own δ leave more unbounded"}
	}
	return step, resolve.Skip{}
}

// largestStep returns the largest per-step ε, rounded down, such that c
// compositions of (ε, δ_step)-DP mechanisms are (total, δ)-DP by the
// optimal composition theorem (Kairouz, Oh & Viswanath 2015, Thm 3.3):
// a bisection over the floats of ε on the composed privacy profile,
// δ_c(total) ≤ δ, or basic composition (c·ε ≤ total where δ ≥ c·δ_step),
// whichever certifies it (ComposedApprox.EpsilonAt reads the row's own ε
// the same two ways, curve.BasicComposes deciding δ ≥ c·δ_step exactly, so the row retyped with the result meets total).
// Pure steps (laplace, rr, pure, exponential) take δ_step = 0: their own
// compositions are no looser than (ε, 0)'s. false when no ε ≥ 0 does.
func largestStep(total, stepDelta, delta float64, c int) (float64, bool) {
	k := float64(c)
	lt := numeric.LogPos(delta)
	ok := func(e float64) bool {
		if math.FMA(k, e, -total) <= 0 && curve.BasicComposes(c, stepDelta, delta) { // k·e ≤ total exactly, not after rounding
			return true
		}
		ca, err := curve.NewComposedApprox(e, stepDelta, c)
		return err == nil && ca.LogDeltaAt(total) <= lt
	}
	lo := total / k
	for lo > 0 && math.FMA(lo, k, -total) > 0 {
		lo = math.Nextafter(lo, 0)
	}
	if !ok(lo) {
		if lo = 0; !ok(0) {
			return 0, false
		}
	}
	// An upper end that fails: from max(total, 1) (at total = 0 the
	// profile may still allow a small ε > 0), doubling a bounded number
	// of times; one that never fails is returned, valid as computed.
	hi := math.Max(total, 1)
	for i := 0; ok(hi); i++ {
		if i == 64 || hi > math.MaxFloat64/2 {
			return hi, true
		}
		hi *= 2
	}
	lo, _ = numeric.BracketFloats(ok, lo, hi)
	return lo, true
}

// pmpDataColumn is a column of the data-dependent PMP parameter of Lowy et
// al. (Prop. 12 for gaussian rows, Prop. 9 for exponential rows), computed
// once per row from the pmp_data table (evaluate/celldata).
func pmpDataColumn(name string, format table.Format, meaning string, f func(eps, delta float64) float64) OutputColumn {
	return OutputColumn{
		Name: name, Family: "pmp", Format: format,
		Brief:   "practical membership privacy for the records of `pmp_data`: Prop. 12 for `gaussian` rows (at the row's δ), Prop. 9, exactly, for `exponential` rows (at most 22 records); and the attack-success bound at that ε̃",
		Source:  "Lowy et al. 2024",
		Applies: Applies{Mechanisms: []release.Mechanism{release.MechanismGaussian, release.MechanismExponential}, Asks: AskPMPData, AskedBy: []release.Field{release.FieldPMPData}, Requires: resolve.NeedDelta},
		Meaning: meaning,
		Formula: "gaussian: ε̃ = min{ε ≥ 0 : max_x B(x; ε) ≤ δ}, B(x; ε) = (1/(2n − 1))·Σ_{x' ≠ x} δ_G(ε; ‖f(x) − f(x')‖₂/σ), δ_G(ε; μ) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ); " +
			"exponential: ε̃ = max_{x, w} |ln Σ_{D ∋ x} P(w|D) − ln Σ_{D ∌ x} P(w|D)| over the C(2n, n) halves D of X, P(w|D) ∝ exp(−ε·Σ_{i ∈ D} loss(w, x_i)/(2Δ)); " +
			"success: 1/(1 + e^{−ε̃}), or (e^ε̃ + δ)/(1 + e^ε̃) with δ",
		Citation: lowyCitation + ", Prop. 12 (Gaussian mechanism, sum-form query) and Prop. 9 (exponential mechanism, exact), with errata (derived: Cor. 4's δ, the absolute value of Prop. 9)",
		Needs:    "pmp_data; gaussian rows: sigma (the noise standard deviation in the units of the query vectors) and delta; exponential rows: epsilon and sensitivity (of the loss; default 1)",
		Assumes:  "replace-one neighbours; the training set is a uniformly random half of the 2n records of pmp_data (n records); gaussian: the query is the sum of the records' vectors; exponential: the loss is the sum of the records' losses, with at most 22 records (C(22, 11) halves are enumerated)",
		Compute: func(r *resolve.Release) (float64, resolve.Skip) {
			eps, delta, why := r.PMPFromData()
			switch {
			case why != "" && r.Compositions > 1:
				return 0, resolve.Skip{Why: why, Bare: true, Unused: true}
			case why != "":
				// The parent set cannot be used: pmp_data is as good as missing.
				return 0, resolve.Skip{Why: why, Bare: true, Fault: true}
			}
			return f(eps, delta), resolve.Skip{Note: r.PMPNote, Bare: true}
		},
	}
}

// lowyCitation cites Lowy et al. 2024.
const lowyCitation = "Lowy, Li, Liu, Koike-Akino, Parsons & Wang 2024, \"Why Does Differential Privacy with Large ε Defend Against Practical Membership Inference Attacks?\""

// The summaries of the column table of docs/outputs.md that several columns share.
const (
	pmpMIABrief  = "practical membership inference: 1/(1 + e^{−ε}) (with δ: (e^ε + δ)/(1 + e^ε)), and its inverse"
	pmpMIASource = "Lowy et al. 2024, Lemma 6"
)
