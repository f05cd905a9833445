package bound

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// Exact enumeration: exponential mechanism (Prop. 9) and generic discrete
// mechanisms (Lemma 3 (3) with δ = 0).

// PMPExact is the result of an exact PMP computation by enumeration.
type PMPExact struct {
	// Epsilon is ε̃(X) = max_{x, a} |ln Σ_{D∋x} P(a|D) − ln Σ_{D∌x} P(a|D)|,
	// rounded up; +Inf when an output is possible only with x in (or only
	// with x out).
	Epsilon float64
	// Record and Output are the maximising record x* and output a* (the
	// first in index order); −1 when Epsilon is 0.
	Record, Output int
	// InOverOut is true when the binding direction is ln(in/out) > 0 (the
	// direction Prop. 9 prints), false when it is the reverse direction that
	// the erratum's absolute value adds.
	InOverOut bool
	// Subsets is C(2n, n), the number of training sets enumerated.
	Subsets int
}

// PMPDiscrete returns the exact PMP parameter of a mechanism with finitely
// many outputs w.r.t. a parent set of `records` = 2n records, by Lemma 3 (3)
// with δ = 0 (Lowy et al. 2024; the form used in the proof of Prop. 5/17;
// Lowy et al. 2024):
//
//	ε̃(X) = max_{x∈X} max_a |ln Σ_{D∈X_in(x)} P(a|D) − ln Σ_{D∈X_out(x)} P(a|D)|
//
// (the normalisers 1/N cancel since |X_in(x)| = |X_out(x)|; the absolute
// value is the two-sided Definition 2, Lowy et al. 2024 erratum 2). An output
// impossible on one side only gives +Inf; impossible on both is skipped.
// logProb is called once per n-subset D with its members (ascending record
// indices) and must fill logp[a] (len logp = outputs) with ln P(a|D) up to
// an additive constant (each vector is normalised here; −Inf marks an
// impossible output; a deterministic mechanism is one finite entry). It
// must not keep the slices. Assumptions: replace-one adjacency, uniform
// n-subset prior, distinct records (footnote 2; duplicates are treated by
// index).
//
// All C(2n, n) subsets are enumerated (Gosper's hack), accumulating in log
// space with compensated sums: cost C(2n, n)·(cost of logProb + 2n·outputs
// exponentials), memory O(n·outputs). Errors when records is odd or < 2,
// outputs < 1, C(2n, n) > MaxPMPSubsets, or logProb yields NaN, +Inf, or an
// all-impossible vector.
func PMPDiscrete(records, outputs int, logProb func(members []int, logp []float64)) (PMPExact, error) {
	res := PMPExact{Epsilon: math.NaN(), Record: -1, Output: -1}
	if logProb == nil {
		return res, errors.New("pmp: nil logProb")
	}
	if err := checkEnumeration(records, outputs); err != nil {
		return res, err
	}
	return enumeratePMP(records, outputs, func(members []int, logp []float64) error {
		logProb(members, logp)
		return nil
	})
}

// PMPExponential returns the exact PMP parameter ε̃(X) of the ε-DP
// exponential mechanism w.r.t. a parent set of 2n records, by Lowy et al.
// 2024, Proposition 9 (= Prop. 19) with the two-sided erratum (Lowy et al. 2024
// §1.10, §4.2, erratum 2):
//
//	ε̃(X) = max_{x∈X} max_{w∈W} |ln Σ_{D∈X_in(x)} P(w|D) − ln Σ_{D'∈X_out(x)} P(w|D')|,
//	P(w|D) = exp(−β·ℓ(w, D)) / Σ_{w'} exp(−β·ℓ(w', D)),   β = ε/(2Δ_ℓ)
//
// (Definition 7; the mechanism is ε-DP by Lemma 8 when Δ_ℓ is the loss
// sensitivity). The loss is decomposable: loss[w][i] is record i's
// contribution to the loss of candidate w, and ℓ(w, D) = Σ_{i∈D} loss[w][i];
// for the paper's geometric median loss[w][i] = ‖w − x_i‖₂/n. The table is
// candidates × records: len(loss) = m ≥ 1 candidates (duplicates allowed,
// counted as separate outputs), each of length 2n.
//
// The result is exact (no bound, no Monte Carlo) and depends on ε and Δ_ℓ
// only through β. Subtracting a per-record constant from loss[·][i] does not
// change P(w|D), so each record's column is shifted to minimum 0 before
// β is applied (better conditioned for large β). Cost as PMPDiscrete with
// an extra m·n per subset. Errors: a ragged or empty table, an odd number
// of records, non-finite losses, ε < 0 or non-finite, Δ_ℓ ≤ 0 or
// non-finite, β·ℓ overflowing, or C(2n, n) > MaxPMPSubsets.
func PMPExponential(loss [][]float64, eps, sensitivity float64) (PMPExact, error) {
	res := PMPExact{Epsilon: math.NaN(), Record: -1, Output: -1}
	e, err := newExpMech(loss, eps, sensitivity)
	if err != nil {
		return res, err
	}
	return enumeratePMP(e.records, len(loss), func(members []int, logp []float64) error {
		e.logProb(members, logp)
		return nil
	})
}

// PMPExponentialSubpopulationEpsilon returns the subpopulation DP parameter
// ε(X) of the same exponential mechanism (Lowy et al. 2024 "Subpopulation
// DP parameter" [DERIVED from the paper's definition of ε(X)], §4.3): the
// pure-DP parameter over adjacent n-subsets of X,
//
//	ε(X) = max_w max_{D, D' ⊂ X, |D∩D'| = n−1} |ln P(w|D) − ln P(w|D')|,
//
// rounded up; ε̃(X) ≤ ε(X) ≤ 2βΔ_ℓ (Lowy et al. 2024). Inputs, assumptions
// and errors as PMPExponential; cost C(2n, n)·n²·m exponentials.
func PMPExponentialSubpopulationEpsilon(loss [][]float64, eps, sensitivity float64) (float64, error) {
	e, err := newExpMech(loss, eps, sensitivity)
	if err != nil {
		return math.NaN(), err
	}
	m, nrec, half := len(loss), e.records, e.records/2
	members := make([]int, 0, half)
	outside := make([]int, 0, half)
	lp := make([]float64, m)
	s := make([]float64, m)
	sp := make([]float64, m)
	best := 0.0
	forEachSubset(nrec, half, func(mask uint64) {
		members, outside = splitMask(mask, nrec, members[:0], outside[:0])
		e.scores(members, s)
		lse := logSumExpSlice(s)
		for w := range s {
			lp[w] = s[w] - lse
		}
		for _, a := range members {
			for _, b := range outside {
				for w := range s {
					sp[w] = s[w] - e.beta*(e.loss[w][b]-e.loss[w][a])
				}
				l2 := logSumExpSlice(sp)
				for w := range s {
					best = math.Max(best, math.Abs(lp[w]-(sp[w]-l2)))
				}
			}
		}
	})
	return numeric.RoundUp(best, 0, math.Inf(1)), nil
}

// expMech is a validated exponential mechanism with shifted losses.
type expMech struct {
	loss    [][]float64 // loss[w][i] − min_w loss[w][i]
	beta    float64
	records int
}

func newExpMech(loss [][]float64, eps, sensitivity float64) (*expMech, error) {
	switch {
	case len(loss) == 0:
		return nil, errors.New("pmp: the loss table needs at least one candidate")
	case !(eps >= 0) || math.IsInf(eps, 1):
		return nil, fmt.Errorf("pmp: ε must be finite and ≥ 0, got %g", eps)
	case !(sensitivity > 0) || math.IsInf(sensitivity, 1):
		return nil, fmt.Errorf("pmp: loss sensitivity Δ_ℓ must be finite and > 0, got %g", sensitivity)
	}
	nrec := len(loss[0])
	if err := checkEnumeration(nrec, len(loss)); err != nil {
		return nil, err
	}
	beta := eps / (2 * sensitivity)
	if math.IsInf(beta, 1) {
		return nil, fmt.Errorf("pmp: β = ε/(2Δ_ℓ) overflows (ε = %g, Δ_ℓ = %g)", eps, sensitivity)
	}
	shifted := make([][]float64, len(loss))
	for w, row := range loss {
		if len(row) != nrec {
			return nil, fmt.Errorf("pmp: candidate %d has %d losses, candidate 0 has %d", w, len(row), nrec)
		}
		for i, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("pmp: loss[%d][%d] is not finite (%g)", w, i, v)
			}
		}
		shifted[w] = make([]float64, nrec)
	}
	maxShift := 0.0
	for i := range nrec {
		lo := math.Inf(1)
		for w := range loss {
			lo = math.Min(lo, loss[w][i])
		}
		for w := range loss {
			v := loss[w][i] - lo
			if math.IsInf(v, 1) {
				return nil, fmt.Errorf("pmp: losses of record %d span more than the float64 range", i)
			}
			shifted[w][i] = v
			maxShift = math.Max(maxShift, v)
		}
	}
	if math.IsInf(beta*maxShift*float64(nrec/2), 1) {
		return nil, fmt.Errorf("pmp: β·ℓ overflows (β = %g, largest per-record loss spread %g)", beta, maxShift)
	}
	return &expMech{loss: shifted, beta: beta, records: nrec}, nil
}

// scores sets s[w] = −β·ℓ(w, D) for D = members.
func (e *expMech) scores(members []int, s []float64) {
	for w, row := range e.loss {
		l := 0.0
		for _, i := range members {
			l += row[i]
		}
		s[w] = -e.beta * l
	}
}

// logProb sets logp[w] = −β·ℓ(w, D) (unnormalised).
func (e *expMech) logProb(members []int, logp []float64) { e.scores(members, logp) }

func checkEnumeration(records, outputs int) error {
	switch {
	case records < 2 || records%2 != 0:
		return fmt.Errorf("pmp: the parent set must have 2n ≥ 2 records, got %d", records)
	case outputs < 1:
		return fmt.Errorf("pmp: need at least one output, got %d", outputs)
	}
	if c := numeric.Binomial(records, records/2); c > MaxPMPSubsets {
		return fmt.Errorf("pmp: exact enumeration of C(%d, %d) = %.6g training sets exceeds the limit of %d (2n ≤ 22 records); use a smaller parent set",
			records, records/2, c, MaxPMPSubsets)
	}
	return nil
}

// enumeratePMP is the common core of PMPDiscrete and PMPExponential. The
// caller has validated records and outputs.
func enumeratePMP(records, outputs int, logProb func(members []int, logp []float64) error) (PMPExact, error) {
	res := PMPExact{Epsilon: math.NaN(), Record: -1, Output: -1}
	half := records / 2
	in := make([]numeric.LogSum, records*outputs)
	out := make([]numeric.LogSum, records*outputs)
	members := make([]int, 0, half)
	outside := make([]int, 0, half)
	logp := make([]float64, outputs)
	var fail error
	count := 0
	forEachSubset(records, half, func(mask uint64) {
		if fail != nil {
			return
		}
		count++
		members, outside = splitMask(mask, records, members[:0], outside[:0])
		for a := range logp {
			logp[a] = math.Inf(-1)
		}
		if err := logProb(members, logp); err != nil {
			fail = err
			return
		}
		for a, v := range logp {
			if math.IsNaN(v) || math.IsInf(v, 1) {
				fail = fmt.Errorf("pmp: log-probability of output %d for training set %v is %g", a, members, v)
				return
			}
		}
		lse := logSumExpSlice(logp)
		if math.IsInf(lse, -1) {
			fail = fmt.Errorf("pmp: every output is impossible for training set %v", members)
			return
		}
		for a := range logp {
			logp[a] -= lse
		}
		for _, x := range members {
			acc := in[x*outputs : (x+1)*outputs]
			for a, v := range logp {
				acc[a].Add(v)
			}
		}
		for _, x := range outside {
			acc := out[x*outputs : (x+1)*outputs]
			for a, v := range logp {
				acc[a].Add(v)
			}
		}
	})
	if fail != nil {
		return res, fail
	}
	best, bx, ba, dir := 0.0, -1, -1, false
	for x := range records {
		for a := range outputs {
			li, lo := in[x*outputs+a].Value(), out[x*outputs+a].Value()
			var d float64
			switch {
			case math.IsInf(li, -1) && math.IsInf(lo, -1):
				continue
			case math.IsInf(li, -1):
				d = math.Inf(-1)
			case math.IsInf(lo, -1):
				d = math.Inf(1)
			default:
				d = li - lo
			}
			if math.Abs(d) > best {
				best, bx, ba, dir = math.Abs(d), x, a, d > 0
			}
		}
	}
	res.Epsilon = numeric.RoundUp(best, 0, math.Inf(1))
	res.Record, res.Output, res.InOverOut, res.Subsets = bx, ba, dir, count
	return res, nil
}

// forEachSubset calls f with every k-subset of {0, …, n−1} as a bit mask,
// in increasing order (Gosper's hack); n ≤ 62.
func forEachSubset(n, k int, f func(mask uint64)) {
	if k < 1 || k > n || n > 62 {
		return
	}
	limit := uint64(1) << uint(n)
	for mask := uint64(1)<<uint(k) - 1; mask < limit; {
		f(mask)
		c := mask & -mask
		r := mask + c
		mask = (((r ^ mask) >> 2) / c) | r
	}
}

// splitMask appends the set and unset bit indices of mask below n.
func splitMask(mask uint64, n int, in, out []int) ([]int, []int) {
	for i := range n {
		if mask>>uint(i)&1 == 1 {
			in = append(in, i)
		} else {
			out = append(out, i)
		}
	}
	return in, out
}

// logSumExpSlice returns ln Σ e^{xᵢ} (−Inf for an empty or all −Inf slice).
func logSumExpSlice(xs []float64) float64 {
	top := math.Inf(-1)
	for _, v := range xs {
		top = math.Max(top, v)
	}
	if math.IsInf(top, -1) {
		return top
	}
	s := 0.0
	for _, v := range xs {
		s += math.Exp(v - top)
	}
	return top + math.Log(s)
}
