package dataset

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/enum"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// A target for a dataset: the bound its total must stay within, in the
// measure of one of the total row's columns.

// TargetKind names the measure of the total a Target bounds.
type TargetKind uint8

const (
	// TargetAdvantage bounds the total's worst-case advantage η
	// (fdp_worst_advantage; Kulynych et al. 2025, Thm 3.4).
	TargetAdvantage TargetKind = iota + 1
	// TargetSuccess bounds the total's success at Target.Baseline
	// (fdp_success; Kulynych et al. 2025, Thm 3.2).
	TargetSuccess
	// TargetEpsilon bounds the total's ε at Target.Delta (eps_at_delta;
	// Balle & Wang 2018 for Gaussian totals).
	TargetEpsilon
)

func (k TargetKind) String() string {
	return enum.Name("TargetKind", int(k), int(TargetAdvantage), "worst-case advantage", "success", "ε")
}

// Target is what a dataset's total must meet: its measure (Kind) at most
// Value.
type Target struct {
	Kind  TargetKind
	Value float64
	// Baseline is the success of the best attack that does not see the
	// releases, for TargetSuccess: the dataset's shared baseline.
	Baseline float64
	// Delta is the δ at which ε is reported, for TargetEpsilon.
	Delta float64
}

// TargetError is a target no solver can work with: a value outside its
// measure's range.
type TargetError struct {
	Target Target
	Why    string
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("target %s %s: %s", e.Target.Kind, formatValue(e.Target.Value), e.Why)
}

// Check returns a *TargetError unless the target's value and parameters
// are in range: an advantage in (0, 1); a success in (baseline, 1) with the
// baseline in (0, 1); an ε > 0, finite, at a δ in (0, 1).
func (t Target) Check() error {
	bad := func(why string) error { return &TargetError{Target: t, Why: why} }
	switch t.Kind {
	case TargetAdvantage:
		if !(t.Value > 0 && t.Value < 1) {
			return bad("expected a worst-case advantage in (0, 1)")
		}
	case TargetSuccess:
		switch {
		case !(t.Value > 0 && t.Value < 1):
			return bad("expected a success in (0, 1)")
		case !(t.Baseline > 0 && t.Baseline < 1):
			return bad("the baseline " + formatValue(t.Baseline) + " is not in (0, 1)")
		case !(t.Value > t.Baseline):
			return bad("at or below the baseline " + formatValue(t.Baseline) + ", which any release reaches")
		}
	case TargetEpsilon:
		switch {
		case !(t.Value > 0) || math.IsInf(t.Value, 1):
			return bad("expected a finite ε > 0")
		case !(t.Delta > 0 && t.Delta < 1):
			return bad("the δ " + formatValue(t.Delta) + " is not in (0, 1)")
		}
	default:
		return bad("no such kind of target")
	}
	return nil
}

// Meets reports whether a risk in the target's measure, with the error
// of its computation counted against the target (risk + err ≤ Value,
// rounded up), meets it. NaN does not.
func (t Target) Meets(risk, err float64) bool {
	return numeric.AddUp(risk, math.Max(err, 0)) <= t.Value
}

// GaussianRisk is the measure of the target for a μ-GDP total, as the
// total row reports it (a Gaussian-only dataset's total is the gdp row of
// Total.Synthetic):
//
//	advantage: η = 2Φ(μ/2) − 1, rounded up (Kulynych et al. 2025, Thm 3.4;
//	           fdp_worst_advantage)
//	success:   Φ(Φ⁻¹(b) + μ), rounded up (Kulynych et al. 2025, Thm 3.2
//	           with G_μ; fdp_success)
//	ε:         the root of Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ
//	           (Balle & Wang 2018, Thm 8; eps_at_delta)
//
// computed by curve.Gaussian's own functions, so that a value meeting the
// target here meets it in the total row.
func (t Target) GaussianRisk(mu float64) float64 { return t.measure(curve.Gaussian{Mu: mu}) }

// profile is a trade-off curve with its (ε, δ) view.
type profile interface {
	curve.Curve
	EpsilonAt(delta float64) float64
}

// measure is the target's measure of a curve as the total row's column
// computes it: fdp_worst_advantage rounded up, fdp_success = b + advantage
// rounded up (b where the advantage is 0), eps_at_delta as the curve
// gives it.
func (t Target) measure(c profile) float64 {
	switch t.Kind {
	case TargetAdvantage:
		return numeric.RoundUp(c.WorstAdvantage(), 0, 1)
	case TargetSuccess:
		adv := c.Advantage(t.Baseline)
		if adv == 0 {
			return t.Baseline
		}
		return numeric.RoundUp(t.Baseline+adv, t.Baseline, 1)
	case TargetEpsilon:
		return c.EpsilonAt(t.Delta)
	}
	return math.NaN()
}

// ComposedRisk is the target's Risk of a composed total (any stages,
// curve.Compose), with the composition's error (Composition.Error: the
// PLD accountant's, 0 for the closed forms; Kulynych et al. 2025, App. G)
// counted against the target (the total row shows it as
// fdp_composition_error): for an advantage or a success it is the Risk's
// Error, added to the bound; for ε at δ, where it bounds the excess of
// δ(ε), the ε is read at δ − error instead, rounded down (rounded to
// nearest it may lie above the exact difference; +Inf when the error
// reaches δ), which meets ε_target only if δ(ε_target) + error ≤ δ.
func (t Target) ComposedRisk(c *curve.Composition) (Risk, error) {
	e, err := c.Error()
	if err != nil {
		return Risk{}, err
	}
	if t.Kind != TargetEpsilon {
		return Risk{Bound: t.measure(c), Error: e}, nil
	}
	if e >= t.Delta {
		return Risk{Bound: math.Inf(1)}, nil
	}
	at := t
	at.Delta = numeric.SubDown(t.Delta, e)
	return Risk{Bound: at.measure(c)}, nil
}

// LargestMu returns the largest μ_total whose μ-GDP total meets the target
// (GaussianRisk(μ) ≤ Value, as computed): the next float64 above it does
// not. It starts from the inverse of the bound, exact where a closed form
// exists,
//
//	advantage: μ = 2Φ⁻¹((1 + η)/2)          (bound.MuForWorstAdvantage)
//	success:   μ = Φ⁻¹(s) − Φ⁻¹(b)           (bound.MuForAdvantage, A = s − b)
//	ε:         μ = Δ/σ of the analytic Gaussian calibration at (ε, δ)
//	           (Balle & Wang 2018, Alg. 1; curve.GaussianSigma)
//
// and narrows it to adjacent floats against GaussianRisk, the bound as the
// total row computes it. The error is a *TargetError, or an *UnmetError
// where not even the smallest float μ meets the target.
func (t Target) LargestMu() (float64, error) {
	if err := t.Check(); err != nil {
		return math.NaN(), err
	}
	var guess float64
	var ok bool
	switch t.Kind {
	case TargetAdvantage:
		guess, ok = bound.MuForWorstAdvantage(t.Value)
	case TargetSuccess:
		guess, ok = bound.MuForAdvantage(t.Value-t.Baseline, t.Baseline)
	case TargetEpsilon:
		sigma, err := curve.GaussianSigma(curve.AnalyticCalibration, t.Value, t.Delta, 1)
		guess, ok = 1/sigma, err == nil
	}
	if !ok || !(guess > 0) || math.IsInf(guess, 0) {
		guess = 1
	}
	meets := func(mu float64) bool { return t.Meets(t.GaussianRisk(mu), 0) }
	mu, ok := extremeMeeting(meets, guess, true)
	if !ok {
		return math.NaN(), &UnmetError{Target: t, At: math.NaN(), Reached: t.GaussianRisk(mu)}
	}
	return mu, nil
}

// extremeMeeting returns, for a predicate meets on (0, ∞) that holds on one
// side of a boundary and fails on the other, the float64 next to the
// boundary on the side where it holds: the largest x with meets(x) when
// larger (meets holds below), else the smallest. It starts from guess > 0,
// a close estimate: a bracket of ±1e-6 relative around it, widened by
// doubling where it does not hold the boundary, then narrowed to adjacent
// floats (numeric.BracketFloats). It returns +Inf (larger) or 0 (not
// larger) where meets holds up to the largest float or down to the
// smallest. Where meets holds nowhere it reports false, with the safest
// value tried (the smallest float when larger, else the largest), which
// does not meet. A guess that is not a finite positive number starts
// from 1.
func extremeMeeting(meets func(float64) bool, guess float64, larger bool) (float64, bool) {
	if !(guess > 0) || math.IsInf(guess, 1) {
		guess = 1
	}
	lo, hi := guess*(1-1e-6), guess*(1+1e-6)
	if !larger {
		// meets holds above the boundary: bracket [fail, meet].
		for !meets(hi) {
			if hi > math.MaxFloat64/2 {
				return math.MaxFloat64, meets(math.MaxFloat64)
			}
			lo, hi = hi, 2*hi
		}
		for meets(lo) {
			if lo < 2*math.SmallestNonzeroFloat64 {
				return 0, true
			}
			hi, lo = lo, lo/2
		}
		_, x := numeric.BracketFloats(func(x float64) bool { return !meets(x) }, lo, hi)
		return x, true
	}
	for !meets(lo) {
		if lo < 2*math.SmallestNonzeroFloat64 {
			return math.SmallestNonzeroFloat64, meets(math.SmallestNonzeroFloat64)
		}
		hi, lo = lo, lo/2
	}
	for meets(hi) {
		if hi > math.MaxFloat64/2 {
			return math.Inf(1), true
		}
		lo, hi = hi, 2*hi
	}
	x, _ := numeric.BracketFloats(meets, lo, hi)
	return x, true
}

func formatValue(v float64) string { return fmt.Sprintf("%.6g", v) }
