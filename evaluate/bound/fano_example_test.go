package bound_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/bound"
	"github.com/riskbatch/riskbatch/evaluate/curve"
)

// Guo, Sablayrolles & Sanjabi 2022, §6.3: reconstructing a canary among
// the M = 50,256 tokens of GPT-2's vocabulary from a model trained with
// Gaussian RDP ε(α) = α·ε₁ (ρ-zCDP with ρ = ε₁): at ε₁ = 6 the
// α-optimised Fano bound on the advantage is "close to 0.5" (0.4817).
func ExampleFanoZCDP() {
	_, best, err := bound.FanoZCDP(curve.ZCDP{Rho: 6}, 50256, nil)
	fmt.Printf("advantage ≤ %.4f (%v)\n", best.Advantage, err)
	// Output: advantage ≤ 0.4817 (<nil>)
}
