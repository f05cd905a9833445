package priors

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Window is the best approximate-reconstruction guess for an ordinal or
// numeric attribute: the guess z succeeds on every value x with
// |x − z| ≤ E, and the window [Z − E, Z + E] holds the most probability.
type Window struct {
	Z      float64 // the Bayes-optimal guess z* (the midpoint of Lo and Hi)
	Lo, Hi float64 // the smallest and largest value inside the window
	Weight float64 // the weight inside the window
	P      float64 // Weight over the total weight: the prior success p*
}

// BestWindow returns the Bayes-optimal approximate-reconstruction guess
// for the distribution with the given values and weights (counts or
// probabilities, not necessarily normalised) under L1 tolerance E
// (Swanberg et al. 2025, §6.4):
//
//	p* = max_z Σ_{x : |x − z| ≤ E} D(x),   D(x) = weight(x)/Σ weight.
//
// z ranges over all reals. A window [z − E, z + E] holding the most mass
// can always be moved right until its left end meets a value x_i, so p*
// is the largest mass of the values in [x_i, x_i + 2E] over the values
// x_i: a sliding window over the sorted values, O(m log m). The guess is
// z* = (Lo + Hi)/2 for the first (smallest) best window, which satisfies
// |x − z*| ≤ E for every x in it. E = 0 is exact match (p* = the largest
// probability). Two values whose difference exceeds 2E by a few units in
// the last place (rounding) count as inside the window, which can only
// raise p*, the safe direction for a bound.
//
// Values must be finite, weights finite and ≥ 0 with a positive sum, E
// finite and ≥ 0; equal values are merged.
func BestWindow(values, weights []float64, tolerance float64) (Window, error) {
	if len(values) != len(weights) {
		return Window{}, fmt.Errorf("best window: %d values but %d weights", len(values), len(weights))
	}
	if math.IsNaN(tolerance) || math.IsInf(tolerance, 0) || tolerance < 0 {
		return Window{}, fmt.Errorf("best window: the tolerance E must be a finite number ≥ 0, not %v", tolerance)
	}
	idx := make([]int, 0, len(values))
	for i, x := range values {
		w := weights[i]
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Window{}, fmt.Errorf("best window: value %d is %v; values must be finite", i+1, x)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return Window{}, fmt.Errorf("best window: the weight of value %d is %v; weights must be finite and ≥ 0", i+1, w)
		}
		if w > 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return Window{}, errors.New("best window: no positive weight")
	}
	sort.Slice(idx, func(a, b int) bool { return values[idx[a]] < values[idx[b]] })
	xs := make([]float64, 0, len(idx))
	ws := make([]float64, 0, len(idx))
	total := 0.0
	for _, i := range idx {
		x := values[i] + 0 // −0 → +0
		if n := len(xs); n > 0 && xs[n-1] == x {
			ws[n-1] += weights[i]
		} else {
			xs = append(xs, x)
			ws = append(ws, weights[i])
		}
		total += weights[i]
	}
	lo, hi, mass := SlidingWindow(xs, ws, tolerance)
	return Window{Z: Midpoint(xs[lo], xs[hi]), Lo: xs[lo], Hi: xs[hi], Weight: mass, P: math.Min(1, mass/total)}, nil
}

// Weight is the weight type of SlidingWindow: exact integer counts (as
// package build counts records), or float64 weights (BestWindow).
type Weight interface{ ~int64 | ~float64 }

// SlidingWindow returns the first window [xs[lo], xs[hi]] with
// xs[hi] − xs[lo] ≤ 2E (up to rounding, see inWindow) of the largest
// weight, for sorted distinct xs. Each window is summed afresh from a
// running prefix so that float weights accumulate no drift. Its guess is
// Midpoint(xs[lo], xs[hi]).
func SlidingWindow[T Weight](xs []float64, ws []T, e float64) (lo, hi int, best T) {
	prefix := make([]T, len(ws)+1)
	for i, w := range ws {
		prefix[i+1] = prefix[i] + w
	}
	j := 0
	best = -1
	for i := range xs {
		if j < i {
			j = i
		}
		for j+1 < len(xs) && inWindow(xs[i], xs[j+1], e) {
			j++
		}
		if m := prefix[j+1] - prefix[i]; m > best {
			lo, hi, best = i, j, m
		}
	}
	return lo, hi, best
}

// inWindow reports whether b − a ≤ 2E, allowing 4 units of rounding in
// the last place of the largest magnitude involved.
func inWindow(a, b, e float64) bool {
	d := b - a
	scale := math.Max(math.Max(math.Abs(a), math.Abs(b)), 2*e)
	return d <= 2*e+4*scale*0x1p-52
}

// Midpoint returns (a + b)/2 without overflow: the guess z* of the window
// [a, b].
func Midpoint(a, b float64) float64 { return a + (b-a)/2 }
