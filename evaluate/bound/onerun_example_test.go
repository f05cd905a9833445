package bound_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/bound"
)

// Swanberg et al. 2025, §5.3: to keep the advantage of guessing a uniform
// 9-digit canary (baseline p = 10⁻⁹) at or below 0.05, ε can be as large
// as about 17.8.
func ExampleOneRunEpsilonProtect() {
	eps, ok := bound.OneRunEpsilonProtect(0.05, 0, 1e-9)
	fmt.Printf("ε_protect = %.1f (%v)\n", eps, ok)
	// Output: ε_protect = 17.8 (true)
}
