package curve

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// rrOutputs returns the output distributions of k-ary randomized response
// on inputs 0 and 1, straight from the mechanism's definition: the true
// value with probability e^ε/(e^ε + k − 1), each other value with
// probability 1/(e^ε + k − 1).
func rrOutputs(eps float64, k int) (p, q []float64) {
	z := math.Exp(eps) + float64(k-1)
	p, q = make([]float64, k), make([]float64, k)
	for o := 0; o < k; o++ {
		p[o], q[o] = 1/z, 1/z
	}
	p[0], q[1] = math.Exp(eps)/z, math.Exp(eps)/z
	return p, q
}

// rrBruteForce returns the trade-off T(P, Q)(α) over every randomized test
// on a finite output space: each deterministic test is a rejection set S
// with errors (P(S), 1 − Q(S)); randomized tests are their convex
// combinations, and f(α) is the least type II error of a combination with
// type I error ≤ α. In the plane, that minimum is attained by one point or
// by a mix of two, so all pairs are searched.
func rrBruteForce(p, q []float64, alpha float64) float64 {
	k := len(p)
	var as, bs []float64
	for s := 0; s < 1<<k; s++ {
		var a, b float64
		for o := 0; o < k; o++ {
			if s&(1<<o) != 0 {
				a += p[o]
				b += q[o]
			}
		}
		as, bs = append(as, a), append(bs, 1-b)
	}
	best := 1.0
	for i := range as {
		if as[i] <= alpha+1e-15 {
			best = math.Min(best, bs[i])
		}
		for j := range as {
			if as[i] < alpha && alpha < as[j] {
				w := (alpha - as[i]) / (as[j] - as[i])
				best = math.Min(best, (1-w)*bs[i]+w*bs[j])
			}
		}
	}
	return best
}

// The closed form agrees with the brute-force Neyman–Pearson minimum over
// all randomized tests, for k = 2 … 6 and several ε.
func TestRandomizedResponseBruteForce(t *testing.T) {
	for _, k := range []int{2, 3, 4, 6} {
		for _, eps := range []float64{0.1, 1, 2.5} {
			p, q := rrOutputs(eps, k)
			c := RandomizedResponse{Epsilon: eps, Categories: k}
			for i := 0; i <= 200; i++ {
				a := float64(i) / 200
				if got, want := c.TradeOff(a), rrBruteForce(p, q, a); !approx.Near(got, want, 1e-13, 0) {
					t.Errorf("k=%d ε=%v α=%v: f = %.15g, brute force %.15g", k, eps, a, got, want)
				}
			}
		}
	}
}

// k = 2 is binary randomized response, whose curve is exactly the pure-DP
// curve f_{ε,0} (Kulynych et al. 2025, Eq. 2; Dong, Roth & Su 2022).
func TestRandomizedResponseBinaryIsPureDP(t *testing.T) {
	for _, eps := range []float64{1e-8, 0.3, 1, 4, 30} {
		c, pure := RandomizedResponse{Epsilon: eps, Categories: 2}, EpsDelta{Epsilon: eps}
		for i := 0; i <= 1000; i++ {
			a := float64(i) / 1000
			if !approx.Near(c.TradeOff(a), pure.TradeOff(a), 1e-15, 1e-14) || !approx.Near(c.Advantage(a), pure.Advantage(a), 1e-16, 1e-13) {
				t.Errorf("ε=%v α=%v: RR %.17g / %.17g, f_{ε,0} %.17g / %.17g", eps, a,
					c.TradeOff(a), c.Advantage(a), pure.TradeOff(a), pure.Advantage(a))
			}
		}
		if !approx.Near(c.WorstAdvantage(), pure.WorstAdvantage(), 0, 1e-14) {
			t.Errorf("ε=%v: η = %v, f_{ε,0} η = %v", eps, c.WorstAdvantage(), pure.WorstAdvantage())
		}
	}
}

// η is the total variation distance ½Σ|P − Q|, and the largest advantage;
// δ(ε') is the hockey-stick divergence Σ max(0, P − e^{ε'}Q) computed from
// the output distributions; EpsilonAt inverts it; Advantage is 1 − f − b.
func TestRandomizedResponseProfile(t *testing.T) {
	for _, k := range []int{2, 3, 10, 1000} {
		for _, eps := range []float64{0.05, 1, 3} {
			p, q := rrOutputs(eps, k)
			c := RandomizedResponse{Epsilon: eps, Categories: k}
			tv := 0.0
			for o := range p {
				tv += math.Abs(p[o]-q[o]) / 2
			}
			if !approx.Near(c.WorstAdvantage(), tv, 1e-16, 1e-13) {
				t.Errorf("k=%d ε=%v: η = %.15g, TV = %.15g", k, eps, c.WorstAdvantage(), tv)
			}
			maxAdv := 0.0
			for i := 0; i <= 2000; i++ {
				b := float64(i) / 2000
				adv := c.Advantage(b)
				if !approx.Near(adv, 1-c.TradeOff(b)-b, 1e-15, 0) {
					t.Errorf("k=%d ε=%v b=%v: advantage %v, 1 − f − b = %v", k, eps, b, adv, 1-c.TradeOff(b)-b)
				}
				maxAdv = math.Max(maxAdv, adv)
			}
			if maxAdv > tv+1e-15 || tv-maxAdv > 1e-3*tv {
				t.Errorf("k=%d ε=%v: largest advantage %v, η %v", k, eps, maxAdv, tv)
			}
			for _, e := range []float64{0, eps / 4, eps / 2, 0.99 * eps, eps, 2 * eps} {
				hs := 0.0
				for o := range p {
					hs += math.Max(0, p[o]-math.Exp(e)*q[o])
				}
				if got := c.DeltaAt(e); !approx.Near(got, hs, 1e-15, 1e-12) {
					t.Errorf("k=%d ε=%v: δ(%v) = %.15g, hockey stick %.15g", k, eps, e, got, hs)
				}
			}
			for _, delta := range []float64{1e-9, 1e-3, 0.5 * tv, tv} {
				e := c.EpsilonAt(delta)
				if c.DeltaAt(e) > delta || (e > 1e-9 && c.DeltaAt(e*(1-1e-12)) <= delta) {
					t.Errorf("k=%d ε=%v δ=%v: ε(δ) = %v with δ(ε(δ)) = %v", k, eps, delta, e, c.DeltaAt(e))
				}
			}
		}
	}
}

// Advantage and η keep their relative precision at tiny baselines and
// tiny ε, and do not overflow for ε beyond 709.
func TestRandomizedResponsePrecision(t *testing.T) {
	for _, c := range []struct {
		eps     float64
		k       int
		b, want float64
	}{
		{1, 5, 1e-300, 1e-300 * math.Expm1(1)},
		{1, 5, 3e-320, 3e-320 * math.Expm1(1)},
		{1e-10, 3, 0.4, 1e-10 / 3}, // η = (e^ε − 1)/(e^ε + 2) ≈ ε/3
		{800, 4, 0.2, 0.8},         // reveals the value: 1 − b
	} {
		got := RandomizedResponse{Epsilon: c.eps, Categories: c.k}.Advantage(c.b)
		if !approx.Near(got, c.want, 0, 1e-9) {
			t.Errorf("ε=%v k=%d b=%v: advantage %.17g, want %.17g", c.eps, c.k, c.b, got, c.want)
		}
	}
	if eta := (RandomizedResponse{Epsilon: 1e-12, Categories: 7}).WorstAdvantage(); !approx.Near(eta, 1e-12/7, 0, 1e-10) {
		t.Errorf("η(ε = 1e-12, k = 7) = %v, want ε/k", eta)
	}
}

// Edges: one category (nothing to hide), ε = 0, and invalid ε.
func TestRandomizedResponseEdges(t *testing.T) {
	for _, c := range []RandomizedResponse{{Epsilon: 3, Categories: 1}, {Epsilon: 3, Categories: 0}, {Epsilon: 0, Categories: 5}} {
		if c.TradeOff(0.3) != 0.7 || c.Advantage(0.3) != 0 || c.WorstAdvantage() != 0 || c.EpsilonAt(1e-5) != 0 || c.DeltaAt(0) != 0 {
			t.Errorf("%+v is not perfectly private", c)
		}
	}
	for _, eps := range []float64{math.NaN(), -1, math.Inf(1)} {
		c := RandomizedResponse{Epsilon: eps, Categories: 4}
		if c.TradeOff(0.3) != 0 || c.Advantage(0.3) != 0.7 || c.WorstAdvantage() != 1 {
			t.Errorf("ε = %v is not vacuous", eps)
		}
	}
}

func BenchmarkRandomizedResponseAdvantage(b *testing.B) {
	c := RandomizedResponse{Epsilon: 2, Categories: 10}
	for i := 0; i < b.N; i++ {
		c.Advantage(0.1)
	}
}
