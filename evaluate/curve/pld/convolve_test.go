package pld

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The FFT convolution's ℓ1 error bound (convolve) must hold, and is worth
// having only if it is not absurdly loose: measure the actual error against
// the direct O(n·m) sums, whose own error bound is far smaller, on inputs
// shaped like PLDs (a sharp head and long thin tails) and on flat ones.
// Lengths 300 and 4,000, and 30,000 with RISKBATCH_LONG_TESTS=1 (the direct
// sums take seconds).
func TestConvolveErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	cv := newConvolver()
	shapes := map[string]func(n int) []float64{
		"pld-like": func(n int) []float64 {
			x := make([]float64, n)
			c := float64(n) / 3
			for i := range x {
				d := (float64(i) - c) / (float64(n) / 40)
				x[i] = math.Exp(-d*d/2) + 1e-12*rng.Float64()
			}
			return approx.Normalise(x)
		},
		"flat": func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()
			}
			return approx.Normalise(x)
		},
		"spike": func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = 1e-9 * rng.Float64()
			}
			x[n/2] = 1
			return approx.Normalise(x)
		},
	}
	lengths := []int{300, 4000}
	if testenv.Long() {
		lengths = append(lengths, 30000)
	}
	for name, shape := range shapes {
		for _, n := range lengths {
			a, b := shape(n), shape(n/2+7)
			for _, same := range []bool{false, true} {
				if same {
					b = a
				}
				got, bound := cv.convolve(a, b)
				want, directBound := directConvolve(a, b)
				var l1 float64
				for i := range want {
					l1 += math.Abs(got[i] - want[i])
				}
				if l1 > bound+directBound {
					t.Errorf("%s, n = %d, same = %v: ℓ1 error %.3g above the bound %.3g", name, n, same, l1, bound+directBound)
				}
				t.Logf("%s, n = %d, same = %v: ℓ1 error %.3g, bound %.3g", name, n, same, l1, bound)
			}
		}
	}
}
