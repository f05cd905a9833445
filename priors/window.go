package priors

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
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
	lo, hi, mass := slidingWindow(xs, ws, tolerance)
	return Window{Z: midpoint(xs[lo], xs[hi]), Lo: xs[lo], Hi: xs[hi], Weight: mass, P: math.Min(1, mass/total)}, nil
}

// number is the weight type of slidingWindow: exact integer counts in the
// builder, float64 weights in BestWindow.
type number interface{ ~int64 | ~float64 }

// slidingWindow returns the first window [xs[lo], xs[hi]] with
// xs[hi] − xs[lo] ≤ 2E (up to rounding, see inWindow) of the largest
// weight, for sorted distinct xs. Each window is summed afresh from a
// running prefix so that float weights accumulate no drift.
func slidingWindow[T number](xs []float64, ws []T, e float64) (lo, hi int, best T) {
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

// midpoint returns (a + b)/2 without overflow.
func midpoint(a, b float64) float64 { return a + (b-a)/2 }

// windowGuess formats a window guess as "z ± E".
func windowGuess(z, e float64) string {
	return strconv.FormatFloat(z, 'g', -1, 64) + " ± " + strconv.FormatFloat(e, 'g', -1, 64)
}

// winKey is a (cell, value) pair of a conditional window attribute.
type winKey struct {
	kid uint32
	x   float64
}

// winTarget accumulates an ordinal or numeric attribute reconstructed
// within a tolerance E (a window).
type winTarget struct {
	name    string
	col     int               // builder column index
	counts  map[float64]int64 // value → count
	missing int64
	cond    map[winKey]int64 // nil without known columns
	miss    bitset
}

// add counts one record of weight w with value x (present false: missing)
// in cell kid, record index rec.
func (t *winTarget) add(x float64, present bool, w int64, kid uint32, rec int, perRecord bool) {
	if !present {
		t.missing += w
		if perRecord {
			t.miss.set(rec)
		}
		return
	}
	t.counts[x] += w
	if t.cond != nil {
		t.cond[winKey{kid, x}] += w
	}
}

// formatNumber is the display text of a numeric value.
func formatNumber(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// finishMarginal builds the window entry of the attribute's marginal
// distribution: p* = max_z Σ_{|x − z| ≤ E} P(x) (see BestWindow), from
// exact integer counts.
func (t *winTarget) finishMarginal(b *builder, e *Entry) {
	e.Missing = t.missing
	if len(t.counts) == 0 {
		e.Warnings = append(e.Warnings, "no values: every record's value is missing")
		return
	}
	xs := make([]float64, 0, len(t.counts))
	for x := range t.counts {
		xs = append(xs, x)
	}
	slices.Sort(xs)
	cs := make([]int64, len(xs))
	counts := make([]int64, len(xs))
	freq := make([]Frequency, len(xs))
	for i, x := range xs {
		cs[i] = t.counts[x]
		counts[i] = cs[i]
		e.Records += cs[i]
	}
	for i, x := range xs {
		freq[i] = Frequency{Value: formatNumber(x), Count: cs[i], P: float64(cs[i]) / float64(e.Records)}
	}
	lo, hi, mass := slidingWindow(xs, cs, e.Tolerance)
	e.Support = len(xs)
	e.Baseline = math.Min(1, float64(mass)/float64(e.Records))
	e.MaxP = e.Baseline
	e.BestGuess = windowGuess(midpoint(xs[lo], xs[hi]), e.Tolerance)
	e.EntropyBits = EntropyBits(counts)
	e.marginal = freq
}

// finishConditional builds the window entry given the known columns: in
// each cell k, p_k = max_z Σ_{|x − z| ≤ E} count(k, x)/n_k, and a record in
// cell k gets p_i = p_k.
func (t *winTarget) finishConditional(b *builder, e *Entry) {
	type kx struct {
		kid uint32
		x   float64
		c   int64
	}
	entries := make([]kx, 0, len(t.cond))
	for k, c := range t.cond {
		entries = append(entries, kx{k.kid, k.x, c})
	}
	t.cond = nil
	slices.SortFunc(entries, func(a, c kx) int {
		if x := cmp.Compare(a.kid, c.kid); x != 0 {
			return x
		}
		return cmp.Compare(a.x, c.x)
	})
	nk := b.known.count()
	cr := &condResult{
		cellN:    make([]int64, nk),
		cellP:    make([]float64, nk),
		cellBest: make([]string, nk),
		warn:     make([]string, nk),
		off:      make([]int, nk+1),
		flat:     make([]Frequency, len(entries)),
		miss:     t.miss,
		window:   true,
	}
	xs := make([]float64, 0, 64)
	cs := make([]int64, 0, 64)
	distinct := make(map[float64]struct{})
	for i, x := range entries {
		cr.flat[i] = Frequency{Value: formatNumber(x.x), Count: x.c}
		cr.cellN[x.kid] += x.c
		cr.off[x.kid+1]++
		distinct[x.x] = struct{}{}
	}
	for k := 0; k < nk; k++ {
		cr.off[k+1] += cr.off[k]
	}
	var hsum float64
	for k := 0; k < nk; k++ {
		n := cr.cellN[k]
		if n == 0 {
			continue
		}
		xs, cs = xs[:0], cs[:0]
		for i := cr.off[k]; i < cr.off[k+1]; i++ {
			xs = append(xs, entries[i].x)
			cs = append(cs, entries[i].c)
			cr.flat[i].P = float64(entries[i].c) / float64(n)
		}
		lo, hi, mass := slidingWindow(xs, cs, e.Tolerance)
		cr.cellP[k] = math.Min(1, float64(mass)/float64(n))
		cr.cellBest[k] = windowGuess(midpoint(xs[lo], xs[hi]), e.Tolerance)
		hsum += float64(n) * EntropyBits(cs)
		b.cellFinished(e, cr, k)
	}
	e.Support = len(distinct)
	e.Missing = t.missing
	e.cond = cr
	b.finishCells(e, hsum)
}
