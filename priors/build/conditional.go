package build

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/words"
)

// catTarget accumulates an exact-match attribute: one column, or several
// columns reconstructed jointly. Its value ids are the column's own for a
// single column, else the ids of the value tuples (joint).
type catTarget struct {
	name    string
	cols    []int            // builder column indexes
	auto    bool             // chosen by default (dropped beyond MaxCategories)
	dropped bool             // auto and too many values
	joint   *interner        // tuple → joint id; nil for a single column
	parts   []uint32         // joint id → its column value ids, len(cols) each
	counts  []int64          // by value id
	missing int64            // records without a value (left out)
	cond    map[uint64]int64 // (cell id << 32 | value id) → count; nil without known columns
	miss    bitset           // records without a value, when per-record output is kept
	// conditional: known columns are given and none is among cols.
	conditional bool
}

// condKey packs a cell id and a value id.
func condKey(cell, val uint32) uint64 { return uint64(cell)<<32 | uint64(val) }

// add counts one record of weight w whose value id is v (noID: missing)
// in cell kid (noID when there are no known columns), record index rec.
func (t *catTarget) add(v uint32, w int64, kid uint32, rec int, perRecord bool) {
	if v == noID {
		t.missing += w
		if perRecord {
			t.miss.set(rec)
		}
		return
	}
	for int(v) >= len(t.counts) {
		t.counts = append(t.counts, 0)
	}
	t.counts[v] += w
	if t.cond != nil {
		t.cond[condKey(kid, v)] += w
	}
}

// drop releases an auto target that turned out to have too many values.
func (t *catTarget) drop() {
	t.dropped = true
	t.counts, t.cond, t.miss, t.joint, t.parts = nil, nil, nil, nil, nil
}

// value returns the display text of value id v.
func (t *catTarget) value(b *builder, v uint32) string {
	if t.joint == nil {
		return b.cols[t.cols[0]].in.vals[v]
	}
	n := len(t.cols)
	vals := make([]string, n)
	for j, c := range t.cols {
		vals[j] = b.cols[c].in.vals[t.parts[int(v)*n+j]]
	}
	return displayTuple(vals)
}

// finishMarginal builds the entry of the attribute's marginal
// distribution: p = max_u P(u) (the Bayes-optimal a-priori guess), with
// P(u) = (c_u + α)/(C + α·m) under additive smoothing α over the m
// observed values (α = 0: the plain frequency).
func (t *catTarget) finishMarginal(b *builder, e *Entry) {
	alpha := b.opts.Smoothing
	var freq []Frequency
	var counts []int64
	for v, c := range t.counts {
		if c > 0 {
			freq = append(freq, Frequency{Value: t.value(b, uint32(v)), Count: c})
			counts = append(counts, c)
			e.Records += c
		}
	}
	m := len(freq)
	e.Support = m
	for i := range freq {
		freq[i].P = smoothedP(freq[i].Count, e.Records, alpha, m)
	}
	sortFrequencies(freq)
	e.marginal = freq
	e.Missing = t.missing
	if m == 0 {
		e.Warnings = append(e.Warnings, "no values: every record's value is missing")
		return
	}
	e.Baseline = freq[0].P
	e.MaxP = e.Baseline
	e.BestGuess = freq[0].Value
	e.EntropyBits = smoothedEntropy(counts, e.Records, alpha, m)
	if m > 1 && freq[1].Count == freq[0].Count {
		e.Warnings = append(e.Warnings, "several values tie for the best guess; the first in byte order is shown")
	}
}

// finishConditional builds the entry of the attribute given the known
// columns. For each cell k (a combination of known values) with n_k
// records, P(u | k) = (count(k, u) + α)/(n_k + α·m) and the cell's prior is
// p_k = max_u P(u | k); a record in cell k gets p_i = p_k. For a joint
// attribute u is the tuple of values, so p_k is the max-product over the
// joint (Swanberg et al. 2025), not a product of per-column maxima. The
// population baseline is the mean of p_i over the records,
// Σ_k n_k p_k / N, and the entropy the conditional entropy
// H(U | K) = Σ_k (n_k/N) H(U | K = k).
func (t *catTarget) finishConditional(b *builder, e *Entry) {
	alpha := b.opts.Smoothing
	m := 0
	for _, c := range t.counts {
		if c > 0 {
			m++
		}
	}
	type cv struct {
		kid, v uint32
		c      int64
	}
	entries := make([]cv, 0, len(t.cond))
	for k, c := range t.cond {
		entries = append(entries, cv{uint32(k >> 32), uint32(k), c})
	}
	t.cond = nil
	vals := make([]string, len(t.counts))
	for v, c := range t.counts {
		if c > 0 {
			vals[v] = t.value(b, uint32(v))
		}
	}
	slices.SortFunc(entries, func(a, c cv) int {
		if x := cmp.Compare(a.kid, c.kid); x != 0 {
			return x
		}
		if x := cmp.Compare(c.c, a.c); x != 0 {
			return x
		}
		return strings.Compare(vals[a.v], vals[c.v])
	})
	cr := newCondResult(b.known.count(), len(entries), t.miss)
	cr.smoothM = m
	for i, x := range entries {
		cr.set(i, x.kid, vals[x.v], x.c)
	}
	cr.offsets()
	nk := b.known.count()
	var hsum float64
	counts := make([]int64, 0, 16)
	for k := 0; k < nk; k++ {
		n := cr.cellN[k]
		if n == 0 {
			continue
		}
		cell := cr.flat[cr.off[k]:cr.off[k+1]]
		counts = counts[:0]
		for i := range cell {
			cell[i].P = smoothedP(cell[i].Count, n, alpha, m)
			counts = append(counts, cell[i].Count)
		}
		cr.cellBest[k] = cell[0].Value
		cr.cellP[k] = cell[0].P
		hsum += float64(n) * smoothedEntropy(counts, n, alpha, m)
		b.cellFinished(e, cr, k)
	}
	e.Support = m
	e.Missing = t.missing
	e.cond = cr
	b.finishCells(e, hsum)
}

// condResult holds a conditional entry's cells, indexed by cell id.
type condResult struct {
	cellN    []int64   // records of the cell with the attribute present
	cellP    []float64 // p_k
	cellBest []string  // the Bayes-optimal guess in the cell
	warn     []string  // the small-cell warning, or ""
	off      []int     // flat[off[k]:off[k+1]] is cell k's distribution
	flat     []Frequency
	miss     bitset // records without the attribute
	window   bool   // values are numbers sorted increasingly
	smoothM  int    // support size m used by smoothing (exact match)
}

// newCondResult returns the cells of a conditional entry with nk cells
// and n (cell, value) counts in all.
func newCondResult(nk, n int, miss bitset) *condResult {
	return &condResult{
		cellN:    make([]int64, nk),
		cellP:    make([]float64, nk),
		cellBest: make([]string, nk),
		warn:     make([]string, nk),
		off:      make([]int, nk+1),
		flat:     make([]Frequency, n),
		miss:     miss,
	}
}

// set puts the count c of value in cell kid at flat[i]; the counts come
// sorted by cell. offsets completes off afterwards.
func (cr *condResult) set(i int, kid uint32, value string, c int64) {
	cr.flat[i] = Frequency{Value: value, Count: c}
	cr.cellN[kid] += c
	cr.off[kid+1]++
}

// offsets turns the counts of values per cell that set left in off into
// the offsets of the cells in flat.
func (cr *condResult) offsets() {
	for k := 0; k+1 < len(cr.off); k++ {
		cr.off[k+1] += cr.off[k]
	}
}

// cellFinished adds cell k of cr to the entry's totals and flags it when
// it has fewer than MinCellCount records.
func (b *builder) cellFinished(e *Entry, cr *condResult, k int) {
	n, p := cr.cellN[k], cr.cellP[k]
	e.Records += n
	e.Cells++
	e.Baseline += float64(n) * p // divided by Records in finishCells
	e.MaxP = math.Max(e.MaxP, p)
	if min := b.opts.MinCellCount; min > 0 && n < int64(min) {
		e.SmallCells++
		e.SmallCellRecords += n
		cr.warn[k] = "the cell of known values has " + words.Count(n, "record", "records") + " with this attribute, fewer than " + strconv.Itoa(min)
	}
}

// finishCells completes a conditional entry's totals; hsum is
// Σ_k n_k H(U | K = k).
func (b *builder) finishCells(e *Entry, hsum float64) {
	if e.Records == 0 {
		e.Warnings = append(e.Warnings, "no values: every record's value is missing")
		return
	}
	e.Baseline /= float64(e.Records)
	e.Baseline = math.Min(e.Baseline, e.MaxP) // rounding
	e.EntropyBits = hsum / float64(e.Records)
	if e.SmallCells > 0 {
		e.Warnings = append(e.Warnings, words.Count(int64(e.SmallCells), "cell", "cells")+" of known values ("+
			words.Count(e.SmallCellRecords, "record", "records")+") with fewer than "+strconv.Itoa(b.opts.MinCellCount)+
			" records: their p_i rests on few records")
	}
}
