package pld

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// TestFastLengthFactorable checks that every transform length the
// convolver picks can be planned by gonum's FFTPACK port, which panics on
// lengths with more than 13 factors (2·3^13 = 3,188,646 did, from a
// composition of DP-SGD at σ = 0.6, q = 0.01, 1000 steps), and random
// lengths: 3, or 40 with RISKBATCH_LONG_TESTS=1.
func TestFastLengthFactorable(t *testing.T) {
	t.Parallel()
	ns := []int{2, 3, 5, 7, 1594323, 3188646, 1 << 22, 1<<23 + 1}
	rng := rand.New(rand.NewPCG(1, 2))
	for range testenv.Count(3, 40) {
		ns = append(ns, 2+rng.IntN(1<<21))
	}
	for _, n := range ns {
		m := fastLength(n)
		if m < n || m > n+n/4+8 {
			t.Fatalf("fastLength(%d) = %d: not in [n, 1.25n]", n, m)
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("fastLength(%d) = %d: gonum cannot plan it: %v", n, m, p)
				}
			}()
			fourier.NewFFT(m)
		}()
	}
}
