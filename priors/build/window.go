package build

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/riskbatch/riskbatch/priors"
)

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
	lo, hi, mass := priors.SlidingWindow(xs, cs, e.Tolerance)
	e.Support = len(xs)
	e.Baseline = math.Min(1, float64(mass)/float64(e.Records))
	e.MaxP = e.Baseline
	e.BestGuess = windowGuess(priors.Midpoint(xs[lo], xs[hi]), e.Tolerance)
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
	cr := newCondResult(nk, len(entries), t.miss)
	cr.window = true
	xs := make([]float64, 0, 64)
	cs := make([]int64, 0, 64)
	distinct := make(map[float64]struct{})
	for i, x := range entries {
		cr.set(i, x.kid, formatNumber(x.x), x.c)
		distinct[x.x] = struct{}{}
	}
	cr.offsets()
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
		lo, hi, mass := priors.SlidingWindow(xs, cs, e.Tolerance)
		cr.cellP[k] = math.Min(1, float64(mass)/float64(n))
		cr.cellBest[k] = windowGuess(priors.Midpoint(xs[lo], xs[hi]), e.Tolerance)
		hsum += float64(n) * EntropyBits(cs)
		b.cellFinished(e, cr, k)
	}
	e.Support = len(distinct)
	e.Missing = t.missing
	e.cond = cr
	b.finishCells(e, hsum)
}
