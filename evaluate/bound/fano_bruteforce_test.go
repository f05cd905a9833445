package bound

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// Independent re-derivation: eqs. 6 and 17 evaluated naïvely, as printed in
// the paper, on a grid of 10⁵ error probabilities t ∈ [0, 1 − 1/M] (2·10⁴
// without RISKBATCH_LONG_TESTS=1); the first grid point with f_μ(t) ≤ 0
// brackets t* to one grid step.
func TestFanoBruteForceGrid(t *testing.T) {
	naiveH := func(p []float64, alpha float64) float64 {
		var s float64
		for _, x := range p {
			if alpha == 1 {
				if x > 0 {
					s -= x * math.Log(x)
				}
			} else {
				s += math.Pow(x, alpha)
			}
		}
		if alpha == 1 {
			return s
		}
		return math.Log(s) / (1 - alpha)
	}
	naiveD := func(alpha, a, b float64) float64 { // D_α(Ber(a) ‖ Ber(b))
		if alpha == 1 {
			v := (1 - a) * math.Log((1-a)/(1-b))
			if a > 0 {
				v += a * math.Log(a/b)
			}
			return v
		}
		return math.Log(math.Pow(a, alpha)*math.Pow(b, 1-alpha)+math.Pow(1-a, alpha)*math.Pow(1-b, 1-alpha)) / (alpha - 1)
	}
	uniform := func(m int) []float64 {
		p := make([]float64, m)
		for i := range p {
			p[i] = 1 / float64(m)
		}
		return p
	}
	n := float64(testenv.Count(20000, 100000))
	priors := [][]float64{uniform(2), uniform(3), uniform(10), uniform(100), fanoIWPC, {0.5, 0.2, 0.1, 0.1, 0.05, 0.05}}
	for _, p := range priors {
		m := len(p)
		for _, alpha := range []float64{1, 1.5, 2, 4} {
			h := naiveH(p, alpha)
			for _, mi := range []float64{0.01, 0.05, 0.2, 0.5, 1, 2} {
				if mi >= h {
					continue
				}
				step := (1 - 1/float64(m)) / n
				tg := -1.0
				for i := 0; i <= int(n); i++ {
					tt := float64(i) * step
					// eq. 17 (eq. 6 at α = 1): H_α − μ − ln M + D_α(Ber(t)‖Ber(1−1/M))
					if h-mi-math.Log(float64(m))+naiveD(alpha, tt, 1-1/float64(m)) <= 0 {
						tg = tt
						break
					}
				}
				if tg < 0 {
					t.Fatalf("no root on the grid")
				}
				b := fanoB(t)(FanoAlgorithm2(alpha, mi, 0, p))
				got := 1 - b.Success
				if !(got >= tg-step-1e-9 && got <= tg+1e-9) {
					t.Errorf("M=%d α=%v μ=%v: t* = %.10g, grid bracket [%.10g, %.10g]", m, alpha, mi, got, tg-step, tg)
				}
			}
		}
	}
}

// Independent re-derivation of the exact MI of randomized response: the
// double sum of eq. 9 over k² cells, for random priors; and the uniform
// closed form log M − h(q − q/M) − (q − q/M) log(M − 1) (App. A.2:
// Fano holds with equality) for large M.
func TestFanoRandomizedResponseMIBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 200; trial++ {
		k := 2 + rng.Intn(12)
		p := approx.RandomPrior(rng, k, 5, rng.ExpFloat64)
		if p == nil {
			continue
		}
		eps := []float64{0.01, 0.3, 1, 3, 8}[trial%5]
		kf := float64(k)
		a := math.Exp(eps) / (math.Exp(eps) + kf - 1)
		b := 1 / (math.Exp(eps) + kf - 1)
		py := make([]float64, k)
		for y := range py {
			for x := range p {
				if x == y {
					py[y] += p[x] * a
				} else {
					py[y] += p[x] * b
				}
			}
		}
		// The direct sum's error: each ln(c/P_Y) is off by ≲ 2 ulps of 1
		// and Σ p_x c = 1, so ≲ 1e-15 in total.
		var want float64
		for x := range p {
			for y := range py {
				c := b
				if x == y {
					c = a
				}
				if p[x] > 0 {
					want += p[x] * c * math.Log(c/py[y])
				}
			}
		}
		got := fanoM(t)(FanoMIRandomizedResponse(curve.RandomizedResponse{Epsilon: eps, Categories: k}, p))
		if !(math.Abs(got-want) <= 1e-12*want+1e-15) {
			t.Errorf("k=%d ε=%v: I = %.15g, direct sum %.15g", k, eps, got, want)
		}
	}
	// Tiny ε (I far below the resolution of the direct sum), uniform prior:
	// I = (ψ₁(ka) + (k − 1)ψ₁(kb))/k = (k − 1)(a − b)²/2·(1 + O(k(a − b)))
	// from ψ₁(1 + x) = x²/2 + O(x³), with ka − 1 = (k − 1)(a − b) and
	// kb − 1 = −(a − b).
	for _, k := range []int{2, 10, 1000} {
		for _, eps := range []float64{1e-8, 1e-12, 1e-100} {
			kf := float64(k)
			d := math.Expm1(eps) / (math.Exp(eps) + kf - 1)
			want := (kf - 1) * d * d / 2
			got := fanoM(t)(FanoMIRandomizedResponse(curve.RandomizedResponse{Epsilon: eps, Categories: k}, nil))
			if !(math.Abs(got-want) <= 1e-6*want) {
				t.Errorf("k=%d ε=%g: I = %.15g, small-ε form %.15g", k, eps, got, want)
			}
		}
	}
	for _, m := range []int{10, 1000, 1000000, 1000000000} {
		for _, q := range []float64{0.05, 0.3, 0.7} {
			mf := float64(m)
			e := q - q/mf
			want := math.Log(mf) + e*math.Log(e) + (1-e)*math.Log1p(-e) - e*math.Log(mf-1)
			got := fanoM(t)(FanoMIRandomizedResponse(RandomizedResponseFromQ(q, m), nil))
			if !(math.Abs(got-want) <= 1e-9*want) {
				t.Errorf("M=%d q=%v: I = %.15g, App. A.2 closed form %.15g", m, q, got, want)
			}
			b := fanoB(t)(FanoAlgorithm1(got, m, nil))
			if !(math.Abs(b.Advantage-(1-q)) <= 1e-9) {
				t.Errorf("M=%d q=%v: Alg1(exact I) = %v, want 1 − q", m, q, b.Advantage)
			}
		}
	}
}
