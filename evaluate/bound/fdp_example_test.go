package bound_test

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
)

// Kulynych et al. 2025, the 2020 US Census state level (ρ = 1.0001): the
// f-DP worst-case advantage of the Gaussian curve μ = √(2ρ) is 0.5205
// ("Census per level" table, State row), where Balle et al.'s zCDP
// reconstruction bound (Cor. B.1) maximised over baselines gives 73
// percentage points (the paper's "73pp").
func ExampleMaxAdvantageOverBaseline() {
	const rho = 1.0001
	eta := curve.Gaussian{Mu: math.Sqrt(2 * rho)}.WorstAdvantage()
	zcdp, _ := bound.MaxAdvantageOverBaseline(func(b float64) float64 { return bound.ReRoZCDP(rho, b) })
	fmt.Printf("f-DP η = %.4f, zCDP bound = %.2f\n", eta, zcdp)
	// Output: f-DP η = 0.5205, zCDP bound = 0.73
}
