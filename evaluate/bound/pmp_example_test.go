package bound_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/bound"
)

// Lowy et al. 2024, §3.1: the deterministic mechanism A(D) = sum(D) mod 2n
// on the parent set X = {0, …, 2n − 1} is not DP for any ε, yet for n = 3
// it is ε̃-PMP with ε̃ = ln 2.
func ExamplePMPDiscrete() {
	const n = 3
	res, err := bound.PMPDiscrete(2*n, 2*n, func(members []int, logp []float64) {
		s := 0
		for _, x := range members {
			s += x
		}
		logp[s%(2*n)] = 0 // probability 1; the others stay −Inf
	})
	fmt.Printf("ε̃ = %.6f over %d subsets (%v)\n", res.Epsilon, res.Subsets, err)
	// Output: ε̃ = 0.693147 over 20 subsets (<nil>)
}
