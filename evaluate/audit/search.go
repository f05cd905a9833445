package audit

import (
	"fmt"
	"math"
)

// searchTol is the width of the final bracket of every search: the
// returned lower bound is refuted and a value at most searchTol above it
// is not.
const searchTol = 1e-9

// searchLimit is the largest parameter value a search brackets to. Every
// method here stops refuting far below it (the tails tend to 1 as ε or μ
// grows); reaching it is reported as an error rather than a bound.
const searchLimit = 1 << 20

// refutedRange finds the end of the range of refuted claims x ≥ 0 of a
// test whose gap(x) is negative exactly when the claim x is refuted (the
// log p-value minus the log significance, or the significance margin of an
// f-DP test). gap(0) must be negative (checked by the caller).
//
// Bracketing starts at start (1 when start is not a positive finite
// number) and doubles until a claim is not refuted; then regula
// falsi with the Illinois modification (the retained end's gap is halved
// when the same end is kept twice) narrows the bracket [lo, hi], falling
// back to a bisection step whenever two steps have not halved it, until
// hi − lo ≤ 1e-9. It returns (lo, gap(lo) < 0) and hi (gap(hi) ≥ 0).
//
// flat is the value gap takes where the test saturates (p-value 1, or the
// f-DP recursion's value when the trade-off is 0): gap is constant beyond
// that point, so an end at flat carries no slope and the step there is a
// bisection.
func refutedRange(gap func(float64) (float64, error), g0, flat, start float64) (lo, hi float64, err error) {
	lo, glo := 0.0, g0
	hi = 1.0
	if start > 0 && !math.IsInf(start, 1) {
		hi = start
	}
	ghi, err := gap(hi)
	for err == nil && ghi < 0 {
		lo, glo = hi, ghi
		if hi *= 2; hi > searchLimit {
			return 0, 0, fmt.Errorf("claims are refuted up to %v: no end to the search", lo)
		}
		ghi, err = gap(hi)
	}
	if err != nil {
		return 0, 0, err
	}
	side, steps, ref := 0, 0, hi-lo
	for hi-lo > searchTol {
		w := hi - lo
		x := lo + w/2
		if steps < 2 && !math.IsInf(glo, 0) && ghi < flat && ghi > glo {
			x = lo + w*(-glo/(ghi-glo))
			x = min(max(x, lo+searchTol/4), hi-searchTol/4)
		}
		if !(x > lo && x < hi) { // the bracket is a few ulps wide
			break
		}
		g, err := gap(x)
		if err != nil {
			return 0, 0, err
		}
		if g < 0 {
			lo, glo = x, g
			if side < 0 {
				ghi /= 2
			}
			side = -1
		} else {
			hi, ghi = x, g
			if side > 0 {
				glo /= 2
			}
			side = 1
		}
		if steps++; hi-lo <= ref/2 {
			ref, steps = hi-lo, 0
		}
	}
	return lo, hi, nil
}
