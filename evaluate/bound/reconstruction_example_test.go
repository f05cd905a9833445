package bound_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/bound"
)

// Guerra-Balboa et al. 2024, §4.1: with a uniform prior over m = 2
// candidates (κ = 0.5) and ε = 1, Balle et al.'s bound κ·e^ε exceeds 1,
// while the exact ReRo bound of Prop. 5.1 stays below it: e/(1 + e).
func ExampleGBReRoExactUniform() {
	fmt.Printf("ReRo ≤ %.4f\n", bound.GBReRoExactUniform(1, 2))
	// Output: ReRo ≤ 0.7311
}
