package dataset

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// SolveSmooth is Solve for a real unknown whose risk is a smooth function
// of it (the composed total's measure is), in fewer evaluations: from
// Start it brackets the boundary in steps of a factor 2, 4, 16, 256, …,
// narrows the bracket to 1e-7 relatively by the Illinois variant of
// regula falsi on the risk's excess over the target against log x (a few
// evaluations where bisection takes 25), and hands the narrow bracket to
// Solve, which settles it to RelativeStep as it always does: the Solution
// keeps Solve's guarantees (Value meets the target, Next does not).
// Values it evaluates twice are computed once. Where its walk reaches an
// end of the bracket still on Start's side, it decides at that end as
// Solve would (AtLimit at the aggressive end, or an *UnmetError at the
// safe end) without Solve's walk. An integer Problem is Solve's alone.
func SolveSmooth(p Problem) (Solution, error) {
	if p.Integer || p.Risk == nil {
		return Solve(p)
	}
	if err := p.Target.Check(); err != nil {
		return Solution{}, err
	}
	if err := p.checkBracket(); err != nil {
		return Solution{}, err
	}
	if !(p.Lo > 0) {
		return Solve(p)
	}
	memo := map[float64]Risk{}
	calls := 0
	risk := func(x float64) (Risk, error) {
		if r, ok := memo[x]; ok {
			return r, nil
		}
		r, err := p.Risk(x)
		calls++
		if err == nil {
			memo[x] = r
		}
		return r, err
	}
	// fallback is Solve on the whole bracket, the values already computed
	// remembered.
	fallback := func() (Solution, error) {
		q := p
		q.Risk = risk
		sol, err := Solve(q)
		sol.Evaluations = calls
		return sol, err
	}
	// excess is the risk above the target (≤ 0 meets); +Inf where the
	// risk is not a number.
	excess := func(x float64) (float64, error) {
		r, err := risk(x)
		if err != nil {
			return 0, err
		}
		v := r.Bound + math.Max(r.Error, 0) - p.Target.Value
		if math.IsNaN(v) || !p.Target.Meets(r.Bound, r.Error) && v <= 0 {
			v = math.Inf(1) // not met, whatever the sum says
		}
		return v, nil
	}
	// t is log x; the aggressive direction is +t when Increasing.
	dir := -1.0
	if p.Increasing {
		dir = 1
	}
	tLo, tHi := math.Log(p.Lo), math.Log(p.Hi)
	clampT := func(t float64) float64 { return math.Min(math.Max(t, tLo), tHi) }
	start := p.Start
	if !(start >= p.Lo && start <= p.Hi) {
		start = math.Sqrt(p.Lo) * math.Sqrt(p.Hi)
	}
	t0 := math.Log(start)
	h0, err := excess(start)
	if err != nil {
		return fallback()
	}
	// Bracket: good (meets) and bad ends, stepping from t0 away from its
	// side of the boundary.
	tGood, tBad, hGood, hBad := t0, t0, h0, h0
	step := math.Ln2 * dir
	if h0 > 0 {
		step = -step // t0 fails: step to the safe side
	}
	found, clamped := false, false
	for range 12 {
		t := clampT(tGood + step)
		if h0 > 0 {
			t = clampT(tBad + step)
		}
		h, err := excess(math.Exp(t))
		if err != nil {
			return fallback()
		}
		if (h <= 0) == (h0 <= 0) {
			if h0 <= 0 {
				tGood, hGood = t, h
			} else {
				tBad, hBad = t, h
			}
			if t == tLo || t == tHi {
				clamped = true
				break
			}
			step *= 2
			continue
		}
		if h0 <= 0 {
			tBad, hBad = t, h
		} else {
			tGood, hGood = t, h
		}
		found = true
		break
	}
	if !found && clamped {
		// The walk reached an end of the bracket still on start's side:
		// the whole bracket meets the target (the aggressive end, exactly,
		// is the answer) or none of it does (the safe end reaches more).
		// Decided at the end itself, as Solve would, rather than by Solve
		// walking the bracket again: exp(log x) need not be x.
		end := p.Lo
		if (h0 <= 0) == p.Increasing {
			end = p.Hi
		}
		r, err := risk(end)
		if err != nil {
			return fallback()
		}
		met := p.Target.Meets(r.Bound, r.Error)
		switch {
		case h0 <= 0 && met:
			return Solution{Value: end, Risk: r, Next: math.NaN(), AtLimit: true, Evaluations: calls}, nil
		case h0 > 0 && !met:
			return Solution{}, &UnmetError{Target: p.Target, At: end, Reached: numeric.AddUp(r.Bound, math.Max(r.Error, 0))}
		}
	}
	if !found {
		return fallback() // no boundary within reach: Solve says why
	}
	// Illinois on h(t) until the bracket is 1e-7 wide in log x.
	side := 0
	for range 40 {
		if math.Abs(tBad-tGood) <= 1e-7 {
			break
		}
		t := 0.5 * (tGood + tBad)
		if !math.IsInf(hBad, 0) && !math.IsInf(hGood, 0) && hBad != hGood {
			if s := tGood - hGood*(tBad-tGood)/(hBad-hGood); s > math.Min(tGood, tBad) && s < math.Max(tGood, tBad) {
				t = s
			}
		}
		h, err := excess(math.Exp(t))
		if err != nil {
			return fallback()
		}
		if h <= 0 {
			tGood, hGood = t, h
			if side == -1 {
				hBad /= 2
			}
			side = -1
		} else {
			tBad, hBad = t, h
			if side == 1 {
				hGood /= 2
			}
			side = 1
		}
	}
	good, bad := math.Exp(tGood), math.Exp(tBad)
	// exp may round a bracket end across the boundary: check both ends as
	// Solve would, widening them a little if need be.
	q := p
	q.Risk = risk
	for range 8 {
		hg, err1 := excess(good)
		hb, err2 := excess(bad)
		if err1 != nil || err2 != nil {
			return fallback()
		}
		if hg <= 0 && hb > 0 {
			break
		}
		w := math.Abs(bad-good) + math.Abs(good)*1e-12
		if hg > 0 {
			good -= dir * w
		}
		if hb <= 0 {
			bad += dir * w
		}
	}
	q.Lo, q.Hi = math.Max(math.Min(good, bad), p.Lo), math.Min(math.Max(good, bad), p.Hi)
	q.Start = good
	if !(q.Lo < q.Hi) {
		return fallback()
	}
	sol, err := Solve(q)
	if err != nil || sol.AtLimit {
		return fallback() // the narrow bracket did not hold the boundary
	}
	sol.Evaluations = calls
	return sol, nil
}
