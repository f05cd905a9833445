package bound

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// rrRenyiPlain is D_α between k-ary randomized response's outputs on two
// inputs from the definition (Mironov 2017, Def. 3), summed in 300-bit
// arithmetic: (1/(α − 1))·ln(a·e^{(α−1)ε} + b·e^{−(α−1)ε} + (k − 2)·b),
// a = e^ε/(e^ε + k − 1), b = 1/(e^ε + k − 1); at α = 1, (a − b)·ε.
func rrRenyiPlain(alpha, eps float64, k int) float64 {
	if math.IsInf(alpha, 1) {
		return eps
	}
	B := approx.Big
	ee := approx.BigExp(B(eps))
	z := new(big.Float).Add(ee, B(float64(k-1)))
	a := new(big.Float).Quo(ee, z)
	b := new(big.Float).Quo(B(1), z)
	if alpha == 1 {
		v, _ := new(big.Float).Mul(new(big.Float).Sub(a, b), B(eps)).Float64()
		return v
	}
	am1 := new(big.Float).Sub(B(alpha), B(1))
	x := new(big.Float).Mul(am1, B(eps))
	s := new(big.Float).Mul(a, approx.BigExp(x))
	s.Add(s, new(big.Float).Mul(b, approx.BigExp(new(big.Float).Neg(x))))
	s.Add(s, new(big.Float).Mul(b, B(float64(k-2))))
	v, _ := new(big.Float).Quo(approx.BigLog(s), am1).Float64()
	return v
}

// laplaceRenyiBig is Mironov's closed form for the Laplace mechanism (2017,
// Prop. 6) in 300-bit arithmetic: ln((α·e^{(α−1)ε} + (α − 1)·e^{−αε})/(2α − 1))/(α − 1),
// and ε + e^{−ε} − 1 at α = 1.
func laplaceRenyiBig(alpha, eps float64) float64 {
	B := approx.Big
	if math.IsInf(alpha, 1) {
		return eps
	}
	if alpha == 1 {
		v, _ := new(big.Float).Add(new(big.Float).Sub(B(eps), B(1)), approx.BigExp(B(-eps))).Float64()
		return v
	}
	a, am1 := B(alpha), new(big.Float).Sub(B(alpha), B(1))
	s := new(big.Float).Mul(a, approx.BigExp(new(big.Float).Mul(am1, B(eps))))
	s.Add(s, new(big.Float).Mul(am1, approx.BigExp(new(big.Float).Neg(new(big.Float).Mul(a, B(eps))))))
	s.Quo(s, new(big.Float).Sub(new(big.Float).Mul(B(2), a), B(1)))
	v, _ := new(big.Float).Quo(approx.BigLog(s), am1).Float64()
	return v
}

// laplaceRenyiIntegral is D_α between Laplace(0, 1) and Laplace(ε, 1) by
// Simpson's rule on ∫ p^α q^{1−α} over [−60, ε + 60], split at 0 and ε where
// the integrand has kinks (a second algorithm beside Mironov's closed form).
func laplaceRenyiIntegral(alpha, eps float64) float64 {
	f := func(x float64) float64 {
		lp, lq := -math.Abs(x)-math.Ln2, -math.Abs(x-eps)-math.Ln2
		if alpha == 1 {
			return math.Exp(lp) * (lp - lq)
		}
		return math.Exp(alpha*lp + (1-alpha)*lq)
	}
	s := approx.Simpson(f, -60, 0, 4000) + approx.Simpson(f, 0, eps, 2000) + approx.Simpson(f, eps, eps+60, 4000)
	if alpha == 1 {
		return s
	}
	return math.Log(s) / (alpha - 1)
}

// The closed-form Rényi curves against independent computations: both
// against 300-bit evaluations of their definitions (never below them,
// within 1e-9 relative), and Mironov's Laplace formula against numerical
// integration of ∫ p^α q^{1−α} where the quadrature is accurate.
func TestFanoRenyiCurves(t *testing.T) {
	for _, alpha := range []float64{1, 1 + 1e-9, 1.001, 1.5, 2, 7, 40, 1e4, math.Inf(1)} {
		for _, eps := range []float64{1e-9, 1e-3, 0.1, 1, 3, 8, 700} {
			for _, k := range []int{2, 3, 50} {
				got, want := FanoRenyiRR(alpha, eps, k), rrRenyiPlain(alpha, eps, k)
				if got < want || !approx.Near(got, want, 0, 1e-9) {
					t.Errorf("FanoRenyiRR(α=%v, ε=%v, k=%d) = %.17g, 300-bit %.17g", alpha, eps, k, got, want)
				}
			}
			got, want := FanoRenyiLaplace(alpha, eps), laplaceRenyiBig(alpha, eps)
			if got < want || !approx.Near(got, want, 0, 1e-9) {
				t.Errorf("FanoRenyiLaplace(α=%v, ε=%v) = %.17g, 300-bit %.17g", alpha, eps, got, want)
			}
		}
	}
	for _, c := range []struct{ alpha, eps float64 }{{2, 1}, {1.5, 3}, {4, 0.5}, {1, 1}} {
		if got, want := FanoRenyiLaplace(c.alpha, c.eps), laplaceRenyiIntegral(c.alpha, c.eps); !approx.Near(got, want, 0, 1e-7) {
			t.Errorf("FanoRenyiLaplace(α=%v, ε=%v) = %.17g, integral %.17g", c.alpha, c.eps, got, want)
		}
	}
}

// FanoOrders finds the best order: on random non-uniform priors and the
// Rényi curves of pure ε-DP (binary randomized response), Laplace, k-ary
// randomized response and one RDP guarantee, its bound is within 1e-6 of
// the smallest Algorithm 2 bound over a brute-force grid of 2,200 orders
// (α − 1 = 10^t, t = −6 … 5 in steps of 0.005, and α = +Inf), and never above
// the order-∞ (pure) or single-order (RDP) bound riskbatch reported before.
// Two cases by default, 40 with the long tests.
func TestFanoOrdersBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i, n := 0, testenv.Count(2, 40); i < n; i++ {
		m := 2 + rng.Intn(30)
		prior := make([]float64, m)
		for j := range prior {
			prior[j] = math.Pow(rng.Float64(), 3) + 1e-3
		}
		prior = approx.Normalise(prior)
		eps := math.Pow(10, -1+2*rng.Float64())
		k := 2 + rng.Intn(5)
		rdpOrder, rdpEps := 1+math.Pow(10, -1+3*rng.Float64()), eps
		kinds := []struct {
			name   string
			curve  func(float64) float64 // the Rényi curve (checked against 300-bit references above)
			extra  []float64
			before float64 // the order riskbatch used before
		}{
			{"pure", func(a float64) float64 { return FanoRenyiRR(a, eps, 2) }, []float64{math.Inf(1)}, math.Inf(1)},
			{"laplace", func(a float64) float64 { return FanoRenyiLaplace(a, eps) }, []float64{math.Inf(1)}, math.Inf(1)},
			{"rr", func(a float64) float64 { return FanoRenyiRR(a, eps, k) }, []float64{math.Inf(1)}, math.Inf(1)},
			{"rdp", func(a float64) float64 {
				if a <= rdpOrder {
					return rdpEps
				}
				return math.Inf(1)
			}, []float64{rdpOrder}, rdpOrder},
		}
		for _, kd := range kinds {
			_, best := unwrap2(t)(FanoOrders(kd.curve, kd.extra, 0, prior))
			brute := math.Inf(1)
			try := func(a float64) {
				mu := kd.curve(a)
				if math.IsInf(mu, 1) || math.IsNaN(mu) {
					return
				}
				if b := unwrap[FanoBound](t)(FanoAlgorithm2(a, mu, 0, prior)); b.Advantage < brute {
					brute = b.Advantage
				}
			}
			try(1)
			try(math.Inf(1))
			try(rdpOrder)
			for t := -6.0; t <= 5; t += 0.005 {
				try(1 + math.Pow(10, t))
			}
			if best.Advantage > brute+1e-6 {
				t.Errorf("%s, ε=%v, k=%d, M=%d: fano_adv_opt %.9g, brute-force grid %.9g (gap %.3g)", kd.name, eps, k, m, best.Advantage, brute, best.Advantage-brute)
			}
			if best.Advantage < brute-1e-4 {
				t.Errorf("%s, ε=%v, M=%d: %.9g is far below the grid's %.9g", kd.name, eps, m, best.Advantage, brute)
			}
			old := unwrap[FanoBound](t)(FanoAlgorithm2(kd.before, kd.curve(kd.before), 0, prior))
			t.Logf("%s ε=%.3g M=%d: order-optimised %.6f, before %.6f", kd.name, eps, m, best.Advantage, old.Advantage)
			if best.Advantage > old.Advantage {
				t.Errorf("%s: %.9g is above the single-order bound %.9g", kd.name, best.Advantage, old.Advantage)
			}
		}
	}
}

// unwrap2 is unwrap for a function returning two values and an error.
func unwrap2(t *testing.T) func(a, b FanoBound, err error) (FanoBound, FanoBound) {
	return func(a, b FanoBound, err error) (FanoBound, FanoBound) {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return a, b
	}
}
