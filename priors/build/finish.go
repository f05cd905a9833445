package build

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/priors"
)

// finish turns the counts into entries.
func (b *builder) finish() (*Result, error) {
	r := b.res
	if b.known != nil {
		nk := b.known.count()
		n := len(b.known.cols)
		r.knownVals = make([][]string, nk)
		for k := 0; k < nk; k++ {
			vals := make([]string, n)
			for j, c := range b.known.cols {
				vals[j] = b.cols[c].in.vals[b.known.parts[k*n+j]]
			}
			r.knownVals[k] = vals
		}
		r.cellOrder = make([]int, nk)
		for k := range r.cellOrder {
			r.cellOrder[k] = k
		}
		slices.SortFunc(r.cellOrder, func(a, c int) int { return slices.Compare(r.knownVals[a], r.knownVals[c]) })
	}
	for _, t := range b.order {
		switch t := t.(type) {
		case *catTarget:
			if t.dropped {
				continue
			}
			cols := make([]string, len(t.cols))
			for i, c := range t.cols {
				cols[i] = b.cols[c].name
			}
			e := b.newEntry(cols, nil, false)
			t.finishMarginal(b, e)
			if err := b.fitZipf(t, e); err != nil {
				return nil, err
			}
			r.Entries = append(r.Entries, e)
			if t.conditional {
				ce := b.newEntry(cols, r.Given, false)
				t.finishConditional(b, ce)
				r.Entries = append(r.Entries, ce)
			}
		case *winTarget:
			cols := []string{t.name}
			e := b.newEntry(cols, nil, true)
			t.finishMarginal(b, e)
			r.Entries = append(r.Entries, e)
			if t.cond != nil {
				ce := b.newEntry(cols, r.Given, true)
				t.finishConditional(b, ce)
				r.Entries = append(r.Entries, ce)
			}
		}
	}
	b.notes()
	return r, nil
}

// newEntry starts an entry.
func (b *builder) newEntry(target, given []string, window bool) *Entry {
	e := &Entry{
		Target: target, Given: given, Window: window, res: b.res,
		Smoothed: !window && b.opts.Smoothing > 0,
	}
	if window {
		e.Tolerance = b.opts.Tolerance
	}
	e.Key = priors.KeySpec{Name: b.res.Name, Target: target, Given: given, Window: window, Tolerance: e.Tolerance}.String()
	return e
}

// fitZipf fits Zipf(s, N) to a marginal's counts ranked by frequency.
func (b *builder) fitZipf(t *catTarget, e *Entry) error {
	n := b.zipfDomain(t.name)
	if n != 0 && n < float64(e.Support) {
		return fmt.Errorf("priors: the Zipf domain size of %q is %v, but %d distinct values were observed", t.name, n, e.Support)
	}
	if e.Support < 2 {
		if n != 0 {
			e.Warnings = append(e.Warnings, "no Zipf fit: fewer than two distinct values")
		}
		return nil
	}
	counts := make([]float64, len(e.marginal))
	for i, f := range e.marginal {
		counts[i] = float64(f.Count)
	}
	fit, err := priors.FitZipf(counts, n)
	if err != nil {
		e.Warnings = append(e.Warnings, "no Zipf fit: "+strings.TrimPrefix(err.Error(), "fitting Zipf(s, N): "))
		return nil
	}
	e.Zipf = &fit
	return nil
}

// notes explains the result's conventions.
func (b *builder) notes() {
	r := b.res
	if r.MissingAsValue {
		r.Notes = append(r.Notes, "missing values: an empty attribute cell is a value of its own (shown empty)")
	} else {
		r.Notes = append(r.Notes, "missing values: a record whose attribute cell is empty is not a target of that attribute and is left out of its distribution (column missing)")
	}
	if len(r.Given) > 0 {
		r.Notes = append(r.Notes, "an empty cell in a known column is a value of its own: the attacker knows the value is missing")
		if r.MinCellCount > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("cells of known values with fewer than %d records are flagged (column warning): their p_i rests on few records", r.MinCellCount))
		}
		for _, t := range b.cats {
			if !t.dropped && !t.conditional && t.joint != nil {
				r.Notes = append(r.Notes, fmt.Sprintf("the joint attribute %q includes a known column: no conditional prior", t.name))
			}
		}
	}
	if r.Smoothing > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("additive smoothing α = %v: P(u | k) = (count(k, u) + α)/(n_k + α·m); it lowers the largest probability, so the smoothed p_i are not safe upper bounds (Swanberg et al. 2025, §3.3, §7.1: the bounds need p_i at least the true prior success)", r.Smoothing))
	} else {
		r.Notes = append(r.Notes, "no smoothing: probabilities are plain frequencies")
	}
	r.Notes = append(r.Notes, b.dropped...)
	if r.CountColumn != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("pre-aggregated input: each row stands for the number of records in column %q", r.CountColumn))
	}
}
