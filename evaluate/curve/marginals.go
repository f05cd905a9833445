package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// MarginalQueries returns K = C(d, k) − C(d − d′, k), the number of noisy
// k-way marginals over d attributes that involve at least one of the d′
// attributes the attacker does not know (Swanberg et al. 2025, App. A and
// §6.1): only those are charged to the attack on the unknown attributes.
// Each full marginal vector has L2 sensitivity √2 under replace-one
// neighbours (one cell loses a record, one gains it), so with Gaussian
// noise of standard deviation σ per cell the release is μ-GDP with
// μ = √K·√2/σ (Dong, Roth & Su 2022, composition of Gaussian mechanisms).
// The binomials are computed in log space and rounded up, so K is never
// understated.
func MarginalQueries(d, k, unknown int) float64 {
	if k < 1 || d < k || unknown < 1 {
		return 0
	}
	all := numeric.Binomial(d, k)
	known := numeric.Binomial(d-unknown, k)
	return math.Ceil(all - known)
}
