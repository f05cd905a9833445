package numeric

import (
	"math"
	"testing"
)

// Golden-section search on (x − 0.3)² over [0, 1]: the bracket shrinks by
// 1/φ per step and holds 0.3; every evaluation is returned by Step.
func TestGolden(t *testing.T) {
	calls := 0
	f := func(x float64) float64 { calls++; return (x - 0.3) * (x - 0.3) }
	g := Golden{A: 0, B: 1}
	g.C, g.D = GoldenPoints(0, 1)
	g.FC, g.FD = f(g.C), f(g.D)
	steps := 0
	for g.B-g.A > 1e-9 {
		width := g.B - g.A
		v := g.Step(f)
		if v != g.FC && v != g.FD {
			t.Fatalf("Step returned %v, not the new point's value", v)
		}
		if r := (g.B - g.A) / width; math.Abs(r-invPhi) > 1e-6 {
			t.Fatalf("bracket shrank by %v, want 1/φ", r)
		}
		steps++
	}
	if !(g.A <= 0.3 && 0.3 <= g.B) || !(g.A < g.C && g.C < g.D && g.D < g.B) {
		t.Errorf("final bracket %v", g)
	}
	// (1/φ)^n ≤ 1e-9 first at n = 44.
	if steps != 44 || calls != steps+2 {
		t.Errorf("%d steps, %d calls; want 44, 46", steps, calls)
	}
}

// A tie FC = FD keeps the left part [A, D], as both former copies did.
func TestGoldenTieGoesLeft(t *testing.T) {
	g := Golden{A: 0, B: 1, FC: 1, FD: 1}
	g.C, g.D = GoldenPoints(0, 1)
	d := g.D
	g.Step(func(float64) float64 { return 0 })
	if g.B != d || g.A != 0 {
		t.Errorf("after a tie the bracket is [%v, %v], want [0, %v]", g.A, g.B, d)
	}
}
