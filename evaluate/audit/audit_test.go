package audit

import (
	"errors"
	"testing"
)

// TestAuditDispatch checks that each output of an Audit is the method's
// function, and the undefined outputs are ErrUndefined.
func TestAuditDispatch(t *testing.T) {
	c := Counts{1000, 500, 400}
	mem := Audit{Method: Membership, Counts: c, Delta: 1e-5, Significance: 0.05}
	lb, err := mem.EpsilonLowerBound()
	want, _ := MembershipEpsilon(c, 1e-5, 0.05)
	if err != nil || lb.Value != want.Value {
		t.Errorf("membership ε_lb %v %v, want %v", lb.Value, err, want.Value)
	}
	if _, err := mem.MuLowerBound(); !errors.Is(err, ErrUndefined) {
		t.Errorf("membership μ_lb: %v, want ErrUndefined", err)
	}
	for _, eps := range []float64{lb.Value, lb.Upper} {
		refuted, err := mem.Refutes(eps)
		if err != nil || refuted != (eps == lb.Value) {
			t.Errorf("membership refutes ε = %v: %v %v", eps, refuted, err)
		}
	}
	fdp := Audit{Method: MembershipFDP, Counts: c, Delta: 1e-5, Significance: 0.05}
	if _, err := fdp.PValue(1); !errors.Is(err, ErrUndefined) {
		t.Errorf("f-DP p-value: %v, want ErrUndefined", err)
	}
	mu, err := fdp.MuLowerBound()
	wantMu, _ := FDPMu(c, 2, 0.05)
	if err != nil || mu.Value != wantMu.Value {
		t.Errorf("membership_fdp μ_lb %v %v, want %v", mu.Value, err, wantMu.Value)
	}
	rec := Audit{Method: Reconstruction, Counts: Counts{1000, 200, 120}, Options: 10, Delta: 1e-5, Significance: 0.05}
	e, err := rec.EpsilonLowerBound()
	wantE, _ := FDPEpsilon(rec.Counts, 10, 1e-5, 0.05)
	if err != nil || e.Value != wantE.Value {
		t.Errorf("reconstruction ε_lb %v %v, want %v", e.Value, err, wantE.Value)
	}
	if r, err := rec.Refutes(e.Value); err != nil || !r {
		t.Errorf("reconstruction does not refute its own bound: %v", err)
	}
	pr := Audit{Method: Prior, Priors: halves(500), Successes: 400, Delta: 4e-5, Bound: Thm35, Significance: 0.05}
	p, err := pr.PValue(1)
	wantP, _ := TailBound(halves(500), 1, 4e-5, 400, Thm35)
	if err != nil || p != wantP {
		t.Errorf("prior p-value %v %v, want %v", p, err, wantP)
	}
	if got := pr.DeltaTerm(); got != "α·n·δ = 0.02·α (Swanberg et al. 2025, Thm 3.5)" {
		t.Errorf("DeltaTerm = %q", got)
	}
	for _, s := range []string{"membership", "membership_fdp", "reconstruction", "prior"} {
		if m, err := ParseMethod(s); err != nil || m.String() != s {
			t.Errorf("ParseMethod(%q) = %v %v", s, m, err)
		}
	}
	if _, err := ParseMethod("steinke"); err == nil {
		t.Error("unknown method accepted")
	}
}
