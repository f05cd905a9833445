package bound

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Calibration: the inverse problems of Kulynych et al. 2025 ("Unifying
// Re-Identification, Attribute Inference, and Data Reconstruction Risks in
// Differential Privacy"; Kulynych et al. 2025). Given a target advantage A, find
// the largest privacy parameter (ε, μ, ρ), or the smallest noise (σ), whose
// bound stays at or below A: at the worst-case baseline (Thm 3.4, η ≤ A)
// when no baseline is given, at baseline b (Thm 3.3, 1 − f(b) − b ≤ A)
// otherwise.
//
// Each function starts from a closed-form inverse of the bound (derived
// here; the paper calibrates by bisection) and then checks it
// against the forward bound exactly as riskbatch reports it (rounded up by
// roundUp): the answer x satisfies bound(x) ≤ A as computed, and is the
// largest such float64 up to the last bisection step, so a reported risk
// never exceeds the target it was calibrated to. The second result is false
// when no parameter meets the target (the first is then NaN); the first is
// +Inf when every parameter does (for σ: 0 when any noise does, +Inf when
// only infinite noise does).

// largestNear returns the largest x in [lo, ∞), lo ≥ 0, with f(x) ≤ target
// for a non-decreasing f, starting from an accurate guess: a bracket of relative
// width 1e-9 around it is checked and bisected; if it does not bracket the
// answer, the search widens (doubling from the guess) and bisects. It
// returns +Inf if f stays at or below the target up to the largest float,
// and lo when f(lo) already equals the target (the bounds here grow
// strictly with the parameter, so nothing larger meets it exactly).
// f(lo) ≤ target must hold.
func largestNear(f func(float64) float64, target, guess, lo float64) float64 {
	ok := func(x float64) bool { return f(x) <= target }
	if f(lo) >= target { // the target is what the smallest parameter gives
		return lo
	}
	if !(guess >= lo) || math.IsInf(guess, 1) {
		guess = lo
	}
	// The closed forms are accurate to a few ulps: a bracket of ±1024 ulps
	// (11 halvings) almost always holds the answer; then ±1e-9 relative.
	if a, b := math.Max(lo, numeric.UlpsAway(guess, -1024)), numeric.UlpsAway(guess, 1024); guess > lo && ok(a) && !ok(b) {
		x, _ := numeric.BracketFloats(ok, a, b)
		return x
	}
	d := 1e-9 * math.Max(math.Abs(guess), 1e-300)
	a, b := math.Max(lo, guess-d), guess+d
	if ok(a) && !ok(b) {
		x, _ := numeric.BracketFloats(ok, a, b)
		return x
	}
	// Widen: find a point above the answer by doubling.
	prev, b, inf := doubleWhile(ok, math.Max(2*math.Abs(guess), 1))
	if inf {
		return math.Inf(1)
	}
	a = lo
	if !math.IsNaN(prev) {
		a = prev
	}
	x, _ := numeric.BracketFloats(ok, a, b)
	return x
}

// doubleWhile doubles x while cond(x) holds and returns the first value at
// which it fails, with the value before it (prev; NaN when cond fails at
// the start). Past MaxFloat64/2 it tries MaxFloat64 itself and reports inf
// when cond holds even there.
func doubleWhile(cond func(float64) bool, x float64) (prev, first float64, inf bool) {
	prev = math.NaN()
	for cond(x) {
		prev = x
		if x > math.MaxFloat64/2 {
			if cond(math.MaxFloat64) {
				return prev, math.Inf(1), true
			}
			return prev, math.MaxFloat64, false
		}
		x *= 2
	}
	return prev, x, false
}

// smallestNear returns the smallest x > 0 with f(x) ≤ target for a
// non-increasing f on (0, ∞), starting from an accurate guess > 0: a
// bracket of relative width 1e-9 around it is checked and bisected; if it
// does not bracket the answer, the search widens by doubling and halving.
// It returns +Inf if f stays above the target up to the largest float.
func smallestNear(f func(float64) float64, target, guess float64) float64 {
	bad := func(x float64) bool { return !(f(x) <= target) } // true below the answer
	if !(guess > 0) || math.IsInf(guess, 1) {
		guess = 1
	}
	a, b := guess*(1-1e-9), guess*(1+1e-9)
	if !(bad(a) && !bad(b)) {
		var inf bool
		if _, b, inf = doubleWhile(bad, guess); inf {
			return math.Inf(1)
		}
		a = b
		for !bad(a) {
			if a < math.SmallestNonzeroFloat64*2 {
				return a
			}
			a /= 2
		}
	}
	_, x := numeric.BracketFloats(bad, a, b)
	return x
}

// EpsilonForWorstAdvantage returns the largest ε such that an (ε, δ)-DP
// mechanism has worst-case advantage η_{ε,δ} = (e^ε − 1 + 2δ)/(e^ε + 1) at
// most A (Kulynych et al. Thm 3.4 with Prop. A.1):
//
//	ε = ln((1 + A − 2δ)/(1 − A)) = log1p(2(A − δ)/(1 − A)).
//
// Either neighbouring relation; approximate DP with δ fixed. A < δ has no
// solution (η ≥ δ at ε = 0); A ≥ 1 gives +Inf.
func EpsilonForWorstAdvantage(target, delta float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(delta) {
		return math.NaN(), false
	}
	fwd := func(eps float64) float64 {
		return numeric.RoundUp(curve.EpsDelta{Epsilon: eps, Delta: delta}.WorstAdvantage(), 0, 1)
	}
	return largestForWorst(fwd, target, math.Log1p(2*(target-delta)/(1-target)))
}

// EpsilonForAdvantage returns the largest ε such that an (ε, δ)-DP
// mechanism keeps the advantage over baseline b at most A, i.e.
// 1 − f_{ε,δ}(b) − b ≤ A (Kulynych et al. Thm 3.3, Eq. 11 with Eq. 2;
// Kulynych et al. 2025). With s = b + A the success must satisfy
// min(δ + e^ε·b, 1 − e^{−ε}(1 − δ − b)) ≤ s, so
//
//	ε = max(ln((s − δ)/b), ln((1 − δ − b)/(1 − s))) = log1p((A − δ)/min(b, 1 − b − A)).
//
// Either neighbouring relation. A < δ has no solution when b > 0 (the
// advantage at ε = 0 is min(δ, 1 − b)); A ≥ 1 − b, or b = 0 with A ≥ δ,
// gives +Inf.
func EpsilonForAdvantage(target, delta, base float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(delta) || !numeric.IsProbability(base) {
		return math.NaN(), false
	}
	fwd := func(eps float64) float64 {
		return numeric.RoundUp(curve.EpsDelta{Epsilon: eps, Delta: delta}.Advantage(base), 0, 1-base)
	}
	switch {
	case target >= 1-base:
		return math.Inf(1), true
	case !(fwd(0) <= target):
		return math.NaN(), false
	case base == 0:
		return math.Inf(1), true
	}
	guess := math.Log1p((target - delta) / math.Min(base, 1-base-target))
	return largestNear(fwd, target, guess, 0), true
}

// MuForWorstAdvantage returns the largest μ such that μ-GDP (the Gaussian
// mechanism with μ = Δ/σ) has worst-case advantage η = 2Φ(μ/2) − 1 at most
// A (Kulynych et al. Thm 3.4; Dong, Roth & Su 2022; Kulynych et al. 2025):
//
//	μ = 2Φ⁻¹((1 + A)/2) = 2√2·erf⁻¹(A),
//
// evaluated through erf⁻¹ so that small A keeps its relative precision.
// Either neighbouring relation (the one Δ was computed for). A ≥ 1 gives
// +Inf; A < 0 has no solution.
func MuForWorstAdvantage(target float64) (float64, bool) {
	if math.IsNaN(target) {
		return math.NaN(), false
	}
	fwd := func(mu float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: mu}.WorstAdvantage(), 0, 1) }
	return largestForWorst(fwd, target, 2*math.Sqrt2*math.Erfinv(target))
}

// MuForAdvantage returns the largest μ such that μ-GDP keeps the advantage
// over baseline b at most A, Φ(Φ⁻¹(b) + μ) − b ≤ A (Kulynych et al.
// Thm 3.3 with G_μ; Kulynych et al. 2025):
//
//	μ = Φ⁻¹(b + A) − Φ⁻¹(b) = Φ⁻¹(1 − b) − Φ⁻¹(1 − b − A),
//
// with the quantile of b + A taken through its upper tail when b + A > ½.
// Either neighbouring relation. A ≥ 1 − b, b = 0 or b = 1 (advantage 0 for
// every μ) give +Inf; A < 0 has no solution.
func MuForAdvantage(target, base float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(base) {
		return math.NaN(), false
	}
	fwd := func(mu float64) float64 { return numeric.RoundUp(curve.Gaussian{Mu: mu}.Advantage(base), 0, 1-base) }
	var zs float64
	if s := base + target; s <= 0.5 {
		zs = numeric.NormQuantile(s)
	} else {
		zs = -numeric.NormQuantile((1 - base) - target)
	}
	return largestForAdvantage(fwd, target, base, zs-numeric.NormQuantile(base))
}

// SigmaForWorstAdvantage returns the smallest noise standard deviation σ of
// the Gaussian mechanism with L2 sensitivity Δ > 0 whose worst-case
// advantage stays at most A: σ = Δ/μ with μ from MuForWorstAdvantage
// (Kulynych et al. 2025), checked against the bound at μ = Δ/σ as the evaluator
// computes it. The first result is 0 when any noise meets the target
// (A ≥ 1) and +Inf when only infinite noise does (A = 0).
func SigmaForWorstAdvantage(target, sensitivity float64) (float64, bool) {
	mu, ok := MuForWorstAdvantage(target)
	fwd := func(sigma float64) float64 {
		return numeric.RoundUp(curve.Gaussian{Mu: sensitivity / sigma}.WorstAdvantage(), 0, 1)
	}
	return sigmaFromMu(mu, ok, sensitivity, target, fwd)
}

// SigmaForAdvantage returns the smallest σ of the Gaussian mechanism with
// L2 sensitivity Δ > 0 whose advantage over baseline b stays at most A:
// σ = Δ/μ with μ from MuForAdvantage (Kulynych et al. 2025), checked against the
// bound at μ = Δ/σ. 0 when any noise meets the target; +Inf when only
// infinite noise does.
func SigmaForAdvantage(target, base, sensitivity float64) (float64, bool) {
	mu, ok := MuForAdvantage(target, base)
	fwd := func(sigma float64) float64 {
		return numeric.RoundUp(curve.Gaussian{Mu: sensitivity / sigma}.Advantage(base), 0, 1-base)
	}
	return sigmaFromMu(mu, ok, sensitivity, target, fwd)
}

// sigmaFromMu turns a largest μ into the smallest σ = Δ/μ that meets the
// target under fwd (non-increasing in σ).
func sigmaFromMu(mu float64, ok bool, sensitivity, target float64, fwd func(float64) float64) (float64, bool) {
	switch {
	case !(sensitivity > 0) || math.IsInf(sensitivity, 1):
		return math.NaN(), false
	case !ok:
		return math.NaN(), false
	case math.IsInf(mu, 1):
		return 0, true
	case mu == 0:
		return math.Inf(1), true
	}
	return smallestNear(fwd, target, sensitivity/mu), true
}

// LaplaceEpsilonForWorstAdvantage returns the largest ε = Δ/b of the
// Laplace mechanism whose worst-case advantage η = 1 − e^{−ε/2} stays at
// most A (derived from Kulynych et al. 2025; Kulynych et al. Thm 3.4):
//
//	ε = −2·ln(1 − A).
//
// Pure ε-DP, either neighbouring relation. A ≥ 1 gives +Inf; A < 0 has no
// solution.
func LaplaceEpsilonForWorstAdvantage(target float64) (float64, bool) {
	if math.IsNaN(target) {
		return math.NaN(), false
	}
	fwd := func(eps float64) float64 { return numeric.RoundUp(curve.Laplace{Epsilon: eps}.WorstAdvantage(), 0, 1) }
	return largestForWorst(fwd, target, -2*math.Log1p(-target))
}

// LaplaceEpsilonForAdvantage returns the largest ε of the Laplace mechanism
// whose advantage over baseline b stays at most A (derived here for the
// bounds of Kulynych et al. 2025, inverting the three pieces of Laplace.TradeOff at
// success s = b + A):
//
//	b < ½, s < ½:  ε = ln(s/b) = log1p(A/b)
//	b < ½, s ≥ ½:  ε = −ln(4b(1 − s))
//	b ≥ ½:         ε = ln((1 − b)/(1 − s)) = −log1p(−A/(1 − b))
//
// Pure DP, either neighbouring relation. A ≥ 1 − b, b = 0 or b = 1 give
// +Inf; A < 0 has no solution.
func LaplaceEpsilonForAdvantage(target, base float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(base) {
		return math.NaN(), false
	}
	fwd := func(eps float64) float64 {
		return numeric.RoundUp(curve.Laplace{Epsilon: eps}.Advantage(base), 0, 1-base)
	}
	var guess float64
	switch s := base + target; {
	case base < 0.5 && s < 0.5:
		guess = math.Log1p(target / base)
	case base < 0.5:
		guess = -numeric.LogPos(4 * base * ((1 - base) - target))
	default:
		guess = -math.Log1p(-target / (1 - base))
	}
	return largestForAdvantage(fwd, target, base, guess)
}

// RhoForAdvantage returns the largest ρ such that the zCDP reconstruction
// bound of Balle et al. 2022 (Kulynych et al. Cor. B.1, ReRoZCDP) keeps the
// advantage over baseline b at most A, i.e. success ≤ s = b + A
// (Kulynych et al. 2025):
//
//	ρ = (√ln(1/b) − √ln(1/s))² = (ln(s/b)/(√ln(1/b) + √ln(1/s)))²,
//
// the second form without cancellation. Either neighbouring relation.
// A ≥ 1 − b, b = 0 or b = 1 give +Inf; A < 0 has no solution.
func RhoForAdvantage(target, base float64) (float64, bool) {
	if math.IsNaN(target) || !numeric.IsProbability(base) {
		return math.NaN(), false
	}
	fwd := func(rho float64) float64 { return ReRoZCDP(rho, base) - base }
	lb, ls := -numeric.LogPos(base), -numeric.LogPos(base+target)
	r := math.Log1p(target/base) / (math.Sqrt(lb) + math.Sqrt(ls))
	return largestForAdvantage(fwd, target, base, r*r)
}

// RhoForWorstAdvantage returns the largest ρ such that the true worst case
// over baselines of the zCDP reconstruction bound (Kulynych et al.
// Cor. B.1, maximised over b as in Kulynych et al. 2025 by
// MaxAdvantageOverBaseline) stays at most A. There is no closed form; the
// worst case is non-decreasing in ρ, so ρ is bisected with
// LargestParameter. Either neighbouring relation. A ≥ 1 gives +Inf; A < 0
// has no solution.
func RhoForWorstAdvantage(target float64) (float64, bool) {
	if math.IsNaN(target) {
		return math.NaN(), false
	}
	fwd := func(rho float64) float64 {
		adv, _ := MaxAdvantageOverBaseline(func(b float64) float64 { return ReRoZCDP(rho, b) })
		return adv
	}
	switch {
	case target >= 1:
		return math.Inf(1), true
	case !(fwd(0) <= target):
		return math.NaN(), false
	}
	hi := 1.0
	for fwd(hi) <= target {
		if hi > 1e300 {
			return math.Inf(1), true
		}
		hi *= 4
	}
	return numeric.LargestParameter(fwd, target, 0, hi)
}

// largestForWorst returns the largest parameter whose worst-case advantage
// fwd (rounded up, non-decreasing in the parameter) stays at most target,
// with the search started at guess (largestNear): +Inf for target ≥ 1, and
// no solution (NaN, false) when even the parameter 0 exceeds target.
func largestForWorst(fwd func(float64) float64, target, guess float64) (float64, bool) {
	switch {
	case target >= 1:
		return math.Inf(1), true
	case !(fwd(0) <= target):
		return math.NaN(), false
	}
	return largestNear(fwd, target, guess, 0), true
}

// largestForAdvantage is largestForWorst at a baseline b: the largest
// parameter whose advantage fwd at b stays at most target, with the search
// started at guess. No solution (NaN, false) when even the parameter 0
// exceeds target; +Inf when every parameter meets it (target ≥ 1 − b, or
// b = 0 or 1, where the advantage is 0 for every parameter). guess is
// only read when a search is needed.
func largestForAdvantage(fwd func(float64) float64, target, base, guess float64) (float64, bool) {
	switch {
	case !(fwd(0) <= target):
		return math.NaN(), false
	case target >= 1-base || base == 0 || base == 1:
		return math.Inf(1), true
	}
	return largestNear(fwd, target, guess, 0), true
}
