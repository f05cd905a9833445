package curve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// BasicComposes reports whether k (ε, δ)-DP steps are certified
// (kε, δ_total)-DP by basic composition: whether δ_total ≥ 1 − (1 − δ)^k,
// the δ of the optimal composition theorem at kε (Kairouz, Oh & Viswanath
// 2015, Thm 3.3, i = 0), decided in exact arithmetic, never on a rounded
// product that could fall below it.
//
// A δ_total of at least kδ, exactly (an FMA residual: its sign is that of
// kδ − δ_total), always does, as 1 − (1 − δ)^k ≤ kδ. Below kδ the test
// allows the gap kδ − (1 − (1 − δ)^k), which is at least
// C(k,2)δ² − C(k,3)δ³ (Bonferroni's inequality P(∪Aᵢ) ≤ S₁ − S₂ + S₃ for
// the k independent events of probability δ) and so, where (k − 2)δ ≤ 1,
// at least k(k − 1)δ²/3; that value and the gap are each rounded away from
// the answer. It covers a caller's δ_total = k·δ rounded to nearest (half
// an ulp, ≤ 2⁻⁵³·kδ) wherever (k − 1)δ ≥ 3·2⁻⁵³; below that a caller
// rounds its product up (numeric.MulUp) to keep the basic guarantee.
func BasicComposes(k int, delta, deltaTotal float64) bool {
	kf := float64(k)
	gap := math.FMA(kf, delta, -deltaTotal) // kδ − δ_total, its sign exact
	if gap <= 0 {
		return true
	}
	if k < 2 || (kf-2)*delta > 1 {
		return false
	}
	slack := numeric.RoundDown(kf*(kf-1)*delta*delta/3, 0, math.Inf(1))
	if slack < 0x1p-1000 { // underflowing: no relative error bound
		return false
	}
	return numeric.RoundUp(gap, 0, math.Inf(1)) <= slack
}
