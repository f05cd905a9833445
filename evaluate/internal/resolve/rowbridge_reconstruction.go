package resolve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
)

// The row side of the reconstruction bounds (bound/reconstruction.go):
// the worst case over the distributions of a row's prior.

// GBWorstOverPrior returns the largest value of f over the distinct
// distributions of the row's prior (GBPriorStats of each, over the
// attribute's whole domain): the bound of the riskiest target.
func (r *Release) GBWorstOverPrior(f func(bound.GBPrior) float64) (float64, Skip) {
	d := r.PriorDistributions()
	worst := math.NaN()
	for _, dist := range d.Distinct {
		st, err := bound.GBPriorStats(paddedPrior(dist, d.Domain))
		if err != nil {
			return 0, Skip{Why: fmt.Sprintf("prior %q: %v", r.Prior.Key(), err)}
		}
		v := f(st)
		if math.IsNaN(v) {
			return 0, Skip{Why: fmt.Sprintf("prior %q: a distribution of its attribute is not a valid prior over %d values", r.Prior.Key(), d.Domain)}
		}
		if !(v <= worst) {
			worst = v
		}
	}
	return worst, Skip{}
}
