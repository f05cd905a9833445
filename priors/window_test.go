package priors_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
)

// The reference vector for Swanberg et al. 2025 over codes 0..9:
// E = 0, 1, 2, 9 → z* = 3, 3, 3, — and p* = 0.20, 0.50, 0.70, 1.
func TestBestWindowCatalog(t *testing.T) {
	d := []float64{.05, .10, .15, .20, .15, .10, .10, .07, .05, .03}
	xs := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		e, z, p float64
	}{{0, 3, 0.20}, {1, 3, 0.50}, {2, 3, 0.70}, {9, math.NaN(), 1}} {
		w, err := priors.BestWindow(xs, d, tc.e)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(w.P-tc.p) > 1e-12 || (!math.IsNaN(tc.z) && w.Z != tc.z) {
			t.Errorf("E = %v: z* = %v p* = %v, want %v %v", tc.e, w.Z, w.P, tc.z, tc.p)
		}
		if math.Abs(w.Z-w.Lo) > tc.e || math.Abs(w.Hi-w.Z) > tc.e {
			t.Errorf("E = %v: window [%v, %v] not within E of z = %v", tc.e, w.Lo, w.Hi, w.Z)
		}
	}
}

func TestBestWindowBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		n := 1 + rng.IntN(30)
		xs, ws := make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i] = math.Round(rng.NormFloat64()*20) / 4 // repeats and negatives
			ws[i] = float64(rng.IntN(10))
		}
		ws[0]++ // a positive weight
		e := float64(rng.IntN(12)) / 4
		w, err := priors.BestWindow(xs, ws, e)
		if err != nil {
			t.Fatal(err)
		}
		if want := priorstest.BruteWindow(xs, ws, e); math.Abs(w.P-want) > 1e-12 {
			t.Fatalf("trial %d: p* = %v, brute force %v (E = %v, xs %v, ws %v)", trial, w.P, want, e, xs, ws)
		}
	}
}

func TestBestWindowErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		xs, ws []float64
		e      float64
	}{
		"lengths":    {[]float64{1, 2}, []float64{1}, 0},
		"no weight":  {[]float64{1, 2}, []float64{0, 0}, 0},
		"empty":      {nil, nil, 1},
		"negative E": {[]float64{1}, []float64{1}, -1},
		"NaN E":      {[]float64{1}, []float64{1}, math.NaN()},
		"infinite E": {[]float64{1}, []float64{1}, math.Inf(1)},
		"NaN value":  {[]float64{math.NaN()}, []float64{1}, 0},
		"inf value":  {[]float64{math.Inf(1)}, []float64{1}, 0},
		"negative w": {[]float64{1, 2}, []float64{1, -1}, 0},
		"NaN weight": {[]float64{1}, []float64{math.NaN()}, 0},
		"inf weight": {[]float64{1}, []float64{math.Inf(1)}, 0},
	} {
		if _, err := priors.BestWindow(tc.xs, tc.ws, tc.e); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
