package resolve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/celldata"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The row side of the PMP bounds (bound/pmp.go): the row's ε̃ from its
// pmp_data table, through the run's cache.

// PMPFromData returns the row's PMP parameter ε̃ with respect to its
// pmp_data parent set and the δ it holds at, or why there is none.
func (r *Release) PMPFromData() (eps, delta float64, why string) {
	if r.pmpDone {
		return r.pmpEps, r.pmpDelta, r.pmpWhy
	}
	r.pmpDone = true
	r.pmpEps, r.pmpDelta, r.pmpWhy = r.computePMPFromData()
	return r.pmpEps, r.pmpDelta, r.pmpWhy
}

func (r *Release) computePMPFromData() (eps, delta float64, why string) {
	if r.Compositions > 1 {
		return 0, 0, "pmp_data: the PMP bounds are for one release of the mechanism; compositions must be 1"
	}
	var key celldata.Key
	switch r.Mechanism {
	case release.MechanismGaussian:
		if r.Sigma == 0 {
			return 0, 0, "pmp_data: a gaussian row needs sigma, the noise standard deviation in the units of the query vectors"
		}
		if !(r.Delta > 0) {
			return 0, 0, "pmp_data: a gaussian row needs delta > 0: Prop. 12 gives ε̃ of (ε̃, δ)-PMP at the row's δ"
		}
		key = celldata.Key{Table: celldata.Ref{File: r.pmpFrom.File, Ref: r.PMPPath}, Mechanism: r.Mechanism, A: r.Sigma, B: r.Delta}
		delta = r.Delta
	case release.MechanismExponential:
		key = celldata.Key{Table: celldata.Ref{File: r.pmpFrom.File, Ref: r.PMPPath}, Mechanism: r.Mechanism, A: r.PureEps, B: r.Sensitivity}
	default:
		return 0, 0, "pmp_data: used by gaussian rows (Prop. 12) and exponential rows (Prop. 9); this row is " + string(r.Mechanism)
	}
	res := r.pmp.Result(key, func() celldata.Result {
		t, err := r.pmp.Table(key.Table, r.pmpFrom)
		if err != nil {
			return celldata.Result{Why: err.Error()}
		}
		switch key.Mechanism {
		case release.MechanismGaussian:
			b, err := bound.PMPGaussian(t.Records, key.A, key.B)
			if err != nil {
				return celldata.Result{Why: fmt.Sprintf("pmp_data %s: %v", key.Table.Ref, err)}
			}
			return celldata.Result{Eps: b.Epsilon, MaxDistance: b.MaxDistance}
		default:
			loss := make([][]float64, len(t.Columns))
			for w := range loss {
				loss[w] = make([]float64, len(t.Records))
				for i, rec := range t.Records {
					loss[w][i] = rec[w]
				}
			}
			x, err := bound.PMPExponential(loss, key.A, key.B)
			if err != nil {
				return celldata.Result{Why: fmt.Sprintf("pmp_data %s: %v", key.Table.Ref, err)}
			}
			return celldata.Result{Eps: x.Epsilon, MaxDistance: math.NaN()}
		}
	})
	if res.Why == "" && r.Mechanism == release.MechanismGaussian && res.MaxDistance > r.Sensitivity {
		r.PMPNote = fmt.Sprintf("pmp_data: two records are %s apart, more than sensitivity = %s: the row's DP guarantee does not hold for these records (ε̃ still bounds the risk to them)", FormatNumber(res.MaxDistance), FormatNumber(r.Sensitivity))
	}
	return res.Eps, delta, res.Why
}
