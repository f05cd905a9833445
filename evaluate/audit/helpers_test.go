package audit

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
)

// checkConservative asserts the conservative side of a search: the claim
// at lb.Value is refuted, the claims at lb.Upper and at lb.Value + 1e-6
// are not, and Upper − Value ≤ 1e-9. refuted is the method's own test.
func checkConservative(t *testing.T, name string, lb LowerBound, refuted func(float64) bool) {
	t.Helper()
	if lb.Value <= 0 {
		t.Fatalf("%s: no bound above 0 (%+v)", name, lb)
	}
	if !refuted(lb.Value) {
		t.Errorf("%s: the returned %v is not refuted", name, lb.Value)
	}
	for _, x := range []float64{lb.Upper, lb.Value + 1e-6} {
		if refuted(x) {
			t.Errorf("%s: %v above the returned %v is refuted as well", name, x, lb.Value)
		}
	}
	if w := lb.Upper - lb.Value; !(w > 0 && w <= searchTol) {
		t.Errorf("%s: bracket width %v, want (0, 1e-9]", name, w)
	}
}

// near asserts |got − want| ≤ tol.
func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.17g, want %.17g ± %g", name, got, want, tol)
	}
}

// hasWarning reports whether ws holds a warning of kind k.
func hasWarning(ws []Warning, k WarningKind) bool {
	for _, w := range ws {
		if w.Kind == k {
			return true
		}
	}
	return false
}

// strictlyIncreasing asserts xs[i] < xs[i+1].
func strictlyIncreasing(t *testing.T, name string, xs []float64) {
	t.Helper()
	for i := 1; i < len(xs); i++ {
		if !(xs[i-1] < xs[i]) {
			t.Errorf("%s not increasing at %d: %v", name, i, xs)
		}
	}
}

// membershipRefuted returns the membership test at (c, δ, β) as a
// predicate of ε.
func membershipRefuted(t *testing.T, c Counts, delta, beta float64) func(float64) bool {
	return func(eps float64) bool {
		p, err := MembershipPValue(c, eps, delta)
		if err != nil {
			t.Fatal(err)
		}
		return p < beta
	}
}

// The tests write the formulas they check in the notation of the papers;
// these are package numeric's functions under those names.
func logit(p float64) float64        { return numeric.Logit(p) }
func logistic(z float64) float64     { return numeric.Logistic(z) }
func normCDF(x float64) float64      { return numeric.NormCDF(x) }
func normQuantile(x float64) float64 { return numeric.NormQuantile(x) }
