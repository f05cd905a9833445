package audit

import (
	"errors"
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/internal/enum"
)

// Method names an audit method, in the vocabulary of the `audit` column.
type Method int

const (
	// Membership is Steinke, Nasr & Jagielski 2023 (inclusion probability
	// ½): MembershipPValue and MembershipEpsilon.
	Membership Method = iota + 1
	// MembershipFDP is Mahloujifar, Melis & Chaudhuri 2025 with k = 2
	// options: FDPMu and FDPEpsilon.
	MembershipFDP
	// Reconstruction is Mahloujifar et al. 2025 with k = Options options
	// per canary.
	Reconstruction
	// Prior is Swanberg et al. 2025 inverted: TailBound and PriorEpsilon
	// over per-target priors.
	Prior
)

// ParseMethod reads the `audit` vocabulary: membership, membership_fdp,
// reconstruction, prior.
func ParseMethod(s string) (Method, error) {
	for m := Membership; m <= Prior; m++ {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("audit %q: want membership, membership_fdp, reconstruction or prior", s)
}

// String returns the method's name in the `audit` column.
func (m Method) String() string {
	return enum.Name("Method", int(m), int(Membership),
		"membership", "membership_fdp", "reconstruction", "prior")
}

// Citation returns the paper and result a method computes.
func (m Method) Citation() string {
	switch m {
	case Membership:
		return "Steinke, Nasr & Jagielski 2023, Privacy Auditing with One (1) Training Run, Thm 3"
	case MembershipFDP, Reconstruction:
		return "Mahloujifar, Melis & Chaudhuri 2025, Auditing f-Differential Privacy in One Run"
	case Prior:
		return "Swanberg et al. 2025, Beyond the Worst Case, Thm 3.2 / Cor 3.4 / Thm 3.5"
	}
	return m.String()
}

// ErrUndefined reports an output a method does not define: a μ bound for
// the (ε, δ) methods, a p-value for the f-DP methods.
var ErrUndefined = errors.New("not defined for this audit method")

// Audit is one audit row: a method and the inputs it reads. Each output
// column is one method of Audit, so a column registry needs one entry per
// output: EpsilonLowerBound (audit_eps_lb), MuLowerBound (audit_mu_lb),
// PValue (audit_p_value), Refutes (audit_claim_refuted), DeltaTerm (the δ
// term used).
type Audit struct {
	Method Method
	// Counts are read by Membership, MembershipFDP and Reconstruction.
	Counts Counts
	// Options is k for Reconstruction (MembershipFDP uses 2).
	Options int
	// Delta is the δ of the (ε, δ) claims (0: pure ε-DP).
	Delta float64
	// Significance is the per-test significance β (see Significance).
	Significance float64
	// Priors, Successes and Bound are read by Prior: the targets' prior
	// success probabilities (MembershipPriors for inclusion π ≠ ½), the
	// observed successes and the tail bound.
	Priors    []float64
	Successes int
	Bound     Bound
}

// options returns k for the f-DP methods.
func (a Audit) options() int {
	if a.Method == MembershipFDP {
		return 2
	}
	return a.Options
}

// EpsilonLowerBound returns the certified lower bound on ε at δ: Steinke
// et al.'s for Membership, the (ε, δ) trade-off's for MembershipFDP and
// Reconstruction, the inverted tail bound's for Prior.
func (a Audit) EpsilonLowerBound() (LowerBound, error) {
	switch a.Method {
	case Membership:
		return MembershipEpsilon(a.Counts, a.Delta, a.Significance)
	case MembershipFDP, Reconstruction:
		return FDPEpsilon(a.Counts, a.options(), a.Delta, a.Significance)
	case Prior:
		return PriorEpsilon(a.Priors, a.Successes, a.Delta, a.Bound, a.Significance)
	}
	return LowerBound{}, fmt.Errorf("unknown audit method %v", a.Method)
}

// MuLowerBound returns the certified lower bound on μ (μ-GDP) for
// MembershipFDP and Reconstruction; ErrUndefined otherwise.
func (a Audit) MuLowerBound() (LowerBound, error) {
	switch a.Method {
	case MembershipFDP, Reconstruction:
		return FDPMu(a.Counts, a.options(), a.Significance)
	}
	return LowerBound{}, fmt.Errorf("μ lower bound for %v: %w", a.Method, ErrUndefined)
}

// PValue returns the p-value of the claim "(ε, δ)-DP" for Membership and
// Prior; ErrUndefined for the f-DP methods, whose test is a decision
// (see Refutes).
func (a Audit) PValue(eps float64) (float64, error) {
	switch a.Method {
	case Membership:
		return MembershipPValue(a.Counts, eps, a.Delta)
	case Prior:
		return TailBound(a.Priors, eps, a.Delta, a.Successes, a.Bound)
	case MembershipFDP, Reconstruction:
		return 0, fmt.Errorf("p-value for %v: %w", a.Method, ErrUndefined)
	}
	return 0, fmt.Errorf("unknown audit method %v", a.Method)
}

// Refutes reports whether the audit refutes the claim "(ε, δ)-DP" at its
// significance: p-value < significance, or the f-DP recursion's decision
// under the (ε, δ) trade-off.
func (a Audit) Refutes(eps float64) (bool, error) {
	switch a.Method {
	case MembershipFDP, Reconstruction:
		if err := checkEpsilon(eps); err != nil {
			return false, err
		}
		if err := checkDelta(a.Delta); err != nil {
			return false, err
		}
		return FDPRejects(a.Counts, a.options(), EpsDeltaTradeOff{eps, a.Delta}, a.Significance)
	}
	if err := checkSignificance(a.Significance); err != nil {
		return false, err
	}
	p, err := a.PValue(eps)
	return p < a.Significance, err
}

// DeltaTerm describes how δ enters the method's test, with its value.
func (a Audit) DeltaTerm() string {
	switch a.Method {
	case Membership:
		return fmt.Sprintf("2·m·δ·α = %.6g·α (Steinke et al. 2023, Thm 3)", 2*float64(a.Counts.Canaries)*a.Delta)
	case MembershipFDP, Reconstruction:
		return fmt.Sprintf("inside the (ε, δ) trade-off, δ = %.6g (Mahloujifar et al. 2025)", a.Delta)
	case Prior:
		nd := float64(len(a.Priors)) * a.Delta
		switch a.Bound {
		case Thm32:
			return "none: pure ε-DP (Swanberg et al. 2025, Thm 3.2)"
		case Cor34:
			return fmt.Sprintf("n·δ = %.6g (Swanberg et al. 2025, Cor 3.4)", nd)
		case Thm35:
			return fmt.Sprintf("α·n·δ = %.6g·α (Swanberg et al. 2025, Thm 3.5)", nd)
		}
	}
	return ""
}
