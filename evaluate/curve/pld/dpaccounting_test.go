package pld

import (
	"math"
	"testing"
)

// TestAgainstDPAccounting compares the accountant with dp_accounting's
// (Google's PLD accountant, connect-the-dots, pessimistic, add/remove) on
// a grid of 10⁻⁵, recorded with its configuration and date in
// testdata/dp_accounting_1e-5.csv (20 random configurations: σ 0.8–3,
// q 0.001–0.02, 10–2,000 steps). dp_accounting's values are upper bounds
// on the exact δ(ε), on a grid finer than ours: ours must never be below
// them by more than our stated error, and not above them by more than it
// either (both are above the exact value, ours by at most the stated
// error; dp_accounting drops tails of about 10⁻¹⁵, the slack allowed).
// Its ε(10⁻⁵) likewise: ours within EpsilonError(10⁻⁵) of it either way.
func TestAgainstDPAccounting(t *testing.T) {
	t.Parallel()
	eps := []float64{0, 0.5, 1, 2}
	rows := 0
	var above, below float64 // the largest (ours − theirs)/stated, and (theirs − ours)/stated
	var epsAbove, epsBelow float64
	for _, v := range referenceRows(t, "testdata/dp_accounting_1e-5.csv", 8) {
		rows++
		st := sg(v[0], v[1], int(v[2]))
		p := mustDPSGD(t, st)
		stated := mustErrors(t, p).Delta()
		for i, e := range eps {
			got, ref := p.Delta(e), v[3+i]
			if got < ref-stated || got > ref+stated+1e-14 {
				t.Errorf("%s: δ(%g) = %.12g, dp_accounting %.12g, stated error %.3g", fmtStage(rows, st), e, got, ref, stated)
			}
			above, below = math.Max(above, (got-ref)/stated), math.Max(below, (ref-got)/stated)
		}
		// ε(10⁻⁵), column 8, within the stated ε error (EpsilonError: the
		// change of ε when the grid step doubles) either way.
		const delta = 1e-5
		epsStated, err := p.EpsilonError(delta)
		if err != nil {
			t.Fatal(err)
		}
		if got, ref := p.Epsilon(delta), v[7]; math.Abs(got-ref) > epsStated {
			t.Errorf("%s: ε(%g) = %.12g, dp_accounting %.12g, stated error %.3g", fmtStage(rows, st), delta, got, ref, epsStated)
		} else if epsStated > 0 {
			epsAbove, epsBelow = math.Max(epsAbove, (got-ref)/epsStated), math.Max(epsBelow, (ref-got)/epsStated)
		}
	}
	if rows != 20 {
		t.Errorf("%d reference configurations, want 20", rows)
	}
	t.Logf("δ above dp_accounting's by up to %.3g of the stated error, below by up to %.3g", above, below)
	t.Logf("ε(1e-5) above dp_accounting's by up to %.3g of the stated ε error, below by up to %.3g", epsAbove, epsBelow)
}
