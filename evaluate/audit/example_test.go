package audit_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/audit"
)

// An audit with 1000 canaries, each included with probability ½: the
// attacker guessed 500 memberships and got 400 right. At 95% confidence
// the run certifies ε ≥ 1.198 for any (ε, 1e-5)-DP claim (Steinke et al.),
// ε ≥ 1.190 through the (ε, δ) trade-off and μ ≥ 0.519 for a Gaussian
// mechanism (Mahloujifar et al.); a claimed ε = 0.5 is refuted, its
// p-value almost all δ term (2·m·δ·α).
func Example() {
	c := audit.Counts{Canaries: 1000, Guesses: 500, Correct: 400}
	beta, _ := audit.Significance(audit.DefaultConfidence, 1)

	steinke, _ := audit.MembershipEpsilon(c, 1e-5, beta)
	fdpEps, _ := audit.FDPEpsilon(c, 2, 1e-5, beta)
	fdpMu, _ := audit.FDPMu(c, 2, beta)
	p, _ := audit.MembershipPValue(c, 0.5, 1e-5)

	fmt.Printf("membership:     ε ≥ %.3f\n", steinke.Value)
	fmt.Printf("membership_fdp: ε ≥ %.3f, μ ≥ %.3f\n", fdpEps.Value, fdpMu.Value)
	fmt.Printf("claim ε = 0.5:  p = %.2g, refuted: %v\n", p, p < beta)
	// Output:
	// membership:     ε ≥ 1.198
	// membership_fdp: ε ≥ 1.190, μ ≥ 0.519
	// claim ε = 0.5:  p = 0.00018, refuted: true
}
