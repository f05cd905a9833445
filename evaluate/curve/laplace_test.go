package curve

import (
	"fmt"
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// The Laplace curve (Dong, Roth & Su 2022; used by Kulynych et al. 2025),
// ε = Δ/b, values computed in mpmath to 10 significant digits: η = 1 − e^{−ε/2}, f at 0.01, 0.1, 0.3, 0.7, and
// R(0.5) = ½e^{−ε/2}, which for a symmetric curve is ½(1 − η) (Def. D.1 of
// Kulynych et al. 2025 at π = ½).
func TestLaplaceCatalogTable(t *testing.T) {
	rows := []struct{ eps, eta, f001, f01, f03, f07, r05 float64 }{
		{0.2, 0.09516258196, 0.9877859724, 0.8778597242, 0.6335791726, 0.2456192259, 0.452418709},
		{1, 0.3934693403, 0.9728171817, 0.7281718172, 0.306566201, 0.1103638324, 0.3032653299},
		{3, 0.7768698399, 0.7991446308, 0.1244676709, 0.04148922364, 0.01493612051, 0.1115650801},
	}
	for _, r := range rows {
		c := Laplace{Epsilon: r.eps}
		approx.CheckValues(t, fmt.Sprintf("ε=%v", r.eps), 1e-10, 5e-10,
			approx.Value{What: "η", Got: c.WorstAdvantage(), Want: r.eta},
			approx.Value{What: "f(0.01)", Got: c.TradeOff(0.01), Want: r.f001},
			approx.Value{What: "f(0.1)", Got: c.TradeOff(0.1), Want: r.f01},
			approx.Value{What: "f(0.3)", Got: c.TradeOff(0.3), Want: r.f03},
			approx.Value{What: "f(0.7)", Got: c.TradeOff(0.7), Want: r.f07},
			approx.Value{What: "1−f(0.3)−0.3", Got: c.Advantage(0.3), Want: 1 - r.f03 - 0.3},
			approx.Value{What: "½(1−η)", Got: (1 - c.WorstAdvantage()) / 2, Want: r.r05},
			approx.Value{What: "δ(0)", Got: c.DeltaAt(0), Want: r.eta})
	}
}

// laplaceMass integrates the density ½e^{−|x−m|} of Lap(m, 1) over [a, b]
// by Simpson's rule, split at the kink m.
func laplaceMass(m, a, b float64) float64 {
	pdf := func(x float64) float64 { return 0.5 * math.Exp(-math.Abs(x-m)) }
	if a < m && m < b {
		return approx.Simpson(pdf, a, m, 20000) + approx.Simpson(pdf, m, b, 20000)
	}
	return approx.Simpson(pdf, a, b, 20000)
}

// Neyman–Pearson check of the curve: the likelihood ratio of Lap(ε, 1) to
// Lap(0, 1) is non-decreasing in x, so the tests "reject when x > t" are
// most powerful. Their errors, α(t) = P_{Lap(0,1)}(X > t) and
// β(t) = P_{Lap(ε,1)}(X ≤ t), are integrated numerically here and must lie
// on the curve: f(α(t)) = β(t). Thresholds cover all three pieces.
func TestLaplaceNeymanPearson(t *testing.T) {
	for _, eps := range []float64{0.2, 1, 3} {
		for _, th := range []float64{-3, -1, -0.2, 0, 0.1, eps / 3, eps / 2, 0.9 * eps, eps, eps + 0.5, eps + 2} {
			alpha := laplaceMass(0, th, th+60)
			beta := laplaceMass(eps, eps-60, th)
			if got := (Laplace{Epsilon: eps}).TradeOff(alpha); !approx.Near(got, beta, 1e-12, 1e-9) {
				t.Errorf("ε=%v t=%v: f(α=%.12g) = %.12g, integrated β = %.12g", eps, th, alpha, got, beta)
			}
		}
	}
}

// The profile agrees with a numerical integral of its definition,
// δ(ε') = ∫ max(0, p(x) − e^{ε'}q(x)) dx with p, q the densities of
// Lap(0, 1) and Lap(ε, 1); the integrand is positive for x < (ε − ε')/2.
func TestLaplaceDeltaAgainstIntegration(t *testing.T) {
	for _, c := range []struct{ eps, e float64 }{{1, 0}, {1, 0.3}, {3, 1}, {3, 2.9}, {0.2, 0.05}} {
		hi := (c.eps - c.e) / 2
		integral := laplaceMass(0, -60, hi) - math.Exp(c.e)*laplaceMass(c.eps, -60, hi)
		if got := (Laplace{Epsilon: c.eps}).DeltaAt(c.e); !approx.Near(got, integral, 1e-12, 1e-9) {
			t.Errorf("ε=%v: δ(%v) = %.12g, integral %.12g", c.eps, c.e, got, integral)
		}
	}
}

// Properties of Kulynych et al. 2025: f ≥ f_{ε,0} everywhere, with equality for
// α ≤ e^{−ε}/2 and α ≥ 1/2 and strict inequality in between; f is a valid
// trade-off function (non-increasing, convex, ≤ 1 − α); Advantage is
// 1 − f − b; η is the largest advantage.
func TestLaplaceProperties(t *testing.T) {
	for _, eps := range []float64{1e-6, 0.05, 0.5, 1, 2, 5, 20} {
		c, pure := Laplace{Epsilon: eps}, EpsDelta{Epsilon: eps}
		kink := math.Exp(-eps) / 2
		var prev, maxAdv float64 = 1, 0
		const n = 4000
		for i := 0; i <= n; i++ {
			a := float64(i) / n
			f, fp := c.TradeOff(a), pure.TradeOff(a)
			if f < fp-1e-15 {
				t.Errorf("ε=%v α=%v: f = %v below f_{ε,0} = %v", eps, a, f, fp)
			}
			if (a <= kink || a >= 0.5) && !approx.Near(f, fp, 1e-15, 1e-13) {
				t.Errorf("ε=%v α=%v: f = %.17g, f_{ε,0} = %.17g, should be equal", eps, a, f, fp)
			}
			if a > kink*1.01 && a < 0.49 && eps > 0.05 && !(f > fp) {
				t.Errorf("ε=%v α=%v: f = %v not above f_{ε,0} = %v", eps, a, f, fp)
			}
			if f > prev+1e-15 || f > 1-a+1e-15 || f < 0 {
				t.Errorf("ε=%v α=%v: f = %v not a trade-off value (previous %v)", eps, a, f, prev)
			}
			if i > 0 && i < n {
				l, r := c.TradeOff(a-1.0/n), c.TradeOff(a+1.0/n)
				if 2*f > l+r+1e-14 {
					t.Errorf("ε=%v α=%v: not convex", eps, a)
				}
			}
			adv := c.Advantage(a)
			if !approx.Near(adv, 1-f-a, 1e-15, 0) {
				t.Errorf("ε=%v b=%v: advantage %.17g, 1 − f − b = %.17g", eps, a, adv, 1-f-a)
			}
			maxAdv = math.Max(maxAdv, adv)
			prev = f
		}
		// η bounds the grid and is attained at α = e^{−ε/2}/2 (Kulynych et al. 2025).
		eta := c.WorstAdvantage()
		if at := c.Advantage(math.Exp(-eps/2) / 2); maxAdv > eta+1e-15 || !approx.Near(at, eta, 1e-16, 1e-13) {
			t.Errorf("ε=%v: η = %v, advantage at e^{−ε/2}/2 = %v, largest on the grid %v", eps, eta, at, maxAdv)
		}
	}
}

// Advantage keeps its relative precision where 1 − f − b cancels: tiny
// baselines (b·(e^ε − 1)), tiny ε ((1 − b)(1 − e^{−ε}) and the middle
// piece), and ε = 700 and beyond.
func TestLaplaceAdvantagePrecision(t *testing.T) {
	e360 := math.Exp(360)
	for _, c := range []struct{ eps, b, want float64 }{
		{1, 1e-300, 1e-300 * math.Expm1(1)},       // first piece
		{1e-9, 0.7, 0.3 * -math.Expm1(-1e-9)},     // last piece
		{1e-9, 0.5, -math.Expm1(-1e-9) / 2},       // b = ½: (1 − e^{−ε})/2
		{720, 1e-315, 1e-315 * e360 * e360},       // first piece, e^ε overflows
		{800, 1e-200, 1 - 1e-200},                 // middle piece, e^{−ε}/(4b) < 1e-300
		{30, 1e-7, 1 - 1e-7 - math.Exp(-30)/4e-7}, // middle piece, ε > 1
	} {
		got := (Laplace{Epsilon: c.eps}).Advantage(c.b)
		if !approx.Near(got, c.want, 0, 1e-13) {
			t.Errorf("ε=%v b=%v: advantage %.17g, want %.17g", c.eps, c.b, got, c.want)
		}
	}
}

// EpsilonAt inverts DeltaAt: δ(ε(δ)) ≤ δ and δ a hair below ε(δ) is > δ;
// ε(δ) = 0 exactly when δ ≥ η; δ = 0 gives ε.
func TestLaplaceEpsilonAt(t *testing.T) {
	for _, eps := range []float64{0.2, 1, 3, 10} {
		c := Laplace{Epsilon: eps}
		for _, delta := range []float64{1e-12, 1e-5, 0.01, 0.05, 0.3} {
			e := c.EpsilonAt(delta)
			if delta >= c.WorstAdvantage() {
				if e != 0 {
					t.Errorf("ε=%v δ=%v ≥ η: ε(δ) = %v, want 0", eps, delta, e)
				}
				continue
			}
			if c.DeltaAt(e) > delta || c.DeltaAt(e*(1-1e-12)) <= delta || e > eps {
				t.Errorf("ε=%v δ=%v: ε(δ) = %v, δ(ε(δ)) = %v", eps, delta, e, c.DeltaAt(e))
			}
		}
		if c.EpsilonAt(0) != eps {
			t.Errorf("ε=%v: ε(0) = %v", eps, c.EpsilonAt(0))
		}
	}
}

// Edges: ε = 0 is perfect privacy; NaN, negative and +Inf ε are no
// guarantee; nothing panics or returns NaN for a valid baseline.
func TestLaplaceEdges(t *testing.T) {
	zero := Laplace{}
	if zero.TradeOff(0.3) != 0.7 || zero.Advantage(0.3) != 0 || zero.WorstAdvantage() != 0 || zero.EpsilonAt(1e-5) != 0 {
		t.Errorf("ε = 0 is not perfectly private")
	}
	for _, eps := range []float64{math.NaN(), -1, math.Inf(1)} {
		c := Laplace{Epsilon: eps}
		if c.TradeOff(0.3) != 0 || c.Advantage(0.3) != 0.7 || c.WorstAdvantage() != 1 || !math.IsInf(c.EpsilonAt(1e-5), 1) {
			t.Errorf("ε = %v: not vacuous: f(0.3) = %v, adv = %v", eps, c.TradeOff(0.3), c.Advantage(0.3))
		}
	}
	for _, eps := range []float64{0, 1e-300, 1, 700, 1e6} {
		c := Laplace{Epsilon: eps}
		for _, b := range []float64{0, 1e-320, 1e-300, 0.25, 0.5, 1 - 1e-16, 1} {
			f, adv := c.TradeOff(b), c.Advantage(b)
			if math.IsNaN(f) || math.IsNaN(adv) || f < 0 || f > 1 || adv < 0 || adv > 1-b+1e-300 {
				t.Errorf("ε=%v b=%v: f = %v, adv = %v", eps, b, f, adv)
			}
		}
	}
}

func BenchmarkLaplaceAdvantage(b *testing.B) {
	c := Laplace{Epsilon: 1.3}
	for i := 0; i < b.N; i++ {
		c.Advantage(0.1)
	}
}
