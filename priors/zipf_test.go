package priors_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
)

// directHarmonic sums r^−s for r = N down to 1 (smallest terms first) with
// Kahan compensation.
func directHarmonic(s float64, n int) float64 {
	var sum, comp float64
	for r := n; r >= 1; r-- {
		y := math.Pow(float64(r), -s) - comp
		t := sum + y
		comp = (t - sum) - y
		sum = t
	}
	return sum
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// The Swanberg et al. 2025 table: H_{N,s} and p_top = 1/H, and ζ(s) for N = ∞.
func TestHarmonicSeedTable(t *testing.T) {
	for _, tc := range []struct {
		s, n, h, ptop float64
		digits        float64 // the table's rounding: |got − want| ≤ this
	}{
		{1.1, 10, 2.680155, 0.37311, 5e-7},
		{1.1, 1000, 5.57283, 0.17944, 5e-6},
		{1.1, 1024, 5.58469, 0.17906, 5e-6},
		{1.1, 1e9, 9.325523, 0.10723, 5e-7},
		{1.2, 1e9, 5.512338, 0.18141, 5e-7},
		{1.1, math.Inf(1), 10.58445, 0.09448, 5e-6},
	} {
		h, err := priors.Harmonic(tc.s, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := priors.ZipfP(tc.s, tc.n, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(h-tc.h) > tc.digits || math.Abs(p-tc.ptop) > 5e-6 {
			t.Errorf("s=%v N=%v: H = %.9g p_top = %.7g, want %v %v", tc.s, tc.n, h, p, tc.h, tc.ptop)
		}
	}
	// ζ(1.1) = 10.5844484649508, ζ(1.2) = 5.5915824411778 (Swanberg et al. 2025).
	for s, want := range map[float64]float64{1.1: 10.5844484649508, 1.2: 5.5915824411778} {
		got, err := priors.Harmonic(s, math.Inf(1))
		if err != nil || relErr(got, want) > 1e-12 {
			t.Errorf("ζ(%v) = %.15g (%v), want %.15g", s, got, err, want)
		}
	}
	// The median rank ⌈N/2⌉ = 5 of Zipf(1.1, 10): p = 0.0635.
	if p, _ := priors.ZipfP(1.1, 10, 5); math.Abs(p-0.0635) > 5e-5 {
		t.Errorf("p_median(1.1, 10) = %v, want 0.0635", p)
	}
}

// Harmonic against a direct (Kahan) sum, against the Hurwitz zeta
// (H_{N,s} = ζ(s) − ζ(s, N+1), gonum's mathext.Zeta) for s > 1, and
// against the asymptotic series of the harmonic numbers for s = 1, to
// 1e-12 relative. The direct sum of a million terms per s runs with
// RISKBATCH_LONG_TESTS=1.
func TestHarmonicAccuracy(t *testing.T) {
	ns := []int{1, 2, 10, 64, 65, 100, 1000, 123457}
	if testenv.Long() {
		ns = append(ns, 1000000)
	}
	for _, s := range []float64{0, 0.3, 0.9, 1, 1.0001, 1.1, 1.5, 2, 3.7, 12} {
		for _, n := range ns {
			got, err := priors.Harmonic(s, float64(n))
			want := directHarmonic(s, n)
			if err != nil || relErr(got, want) > 1e-12 {
				t.Errorf("H(N=%d, s=%v) = %.16g, direct %.16g (rel %.2g)", n, s, got, want, relErr(got, want))
			}
		}
	}
	for _, s := range []float64{1.05, 1.1, 1.2, 1.5, 2, 4} {
		for _, n := range []float64{1e3, 1e6, 1e7, 1e9, 1e12, 1e15} {
			got, _ := priors.Harmonic(s, n)
			want := mathext.Zeta(s, 1) - mathext.Zeta(s, n+1)
			if relErr(got, want) > 1e-12 {
				t.Errorf("H(N=%g, s=%v) = %.16g, ζ(s) − ζ(s, N+1) = %.16g (rel %.2g)", n, s, got, want, relErr(got, want))
			}
		}
		got, _ := priors.Harmonic(s, math.Inf(1))
		if want := mathext.Zeta(s, 1); relErr(got, want) > 1e-12 {
			t.Errorf("ζ(%v) = %.16g, mathext %.16g", s, got, want)
		}
	}
	// H_N = ln N + γ + 1/(2N) − 1/(12N²) + 1/(120N⁴) − …
	const gamma = 0.57721566490153286061
	for _, n := range []float64{1e6, 1e9, 1e12, 1e18} {
		got, _ := priors.Harmonic(1, n)
		want := math.Log(n) + gamma + 1/(2*n) - 1/(12*n*n)
		if relErr(got, want) > 1e-12 {
			t.Errorf("H_N(N=%g) = %.16g, asymptotic %.16g", n, got, want)
		}
	}
}

func TestHarmonicErrors(t *testing.T) {
	for _, tc := range []struct{ s, n float64 }{
		{1, math.Inf(1)}, {0.5, math.Inf(1)}, {-1, 10}, {math.NaN(), 10}, {1.1, 0}, {1.1, 2.5}, {1.1, math.NaN()}, {math.Inf(1), 10},
	} {
		if _, err := priors.Harmonic(tc.s, tc.n); err == nil {
			t.Errorf("Harmonic(%v, %v): no error", tc.s, tc.n)
		}
	}
	for _, r := range []float64{0, 11, 2.5, math.NaN()} {
		if _, err := priors.ZipfP(1.1, 10, r); err == nil {
			t.Errorf("ZipfP rank %v: no error", r)
		}
	}
	// The probabilities of Zipf(1.1, 1000) add up to 1.
	sum := 0.0
	for r := 1; r <= 1000; r++ {
		p, _ := priors.ZipfP(1.1, 1000, float64(r))
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("Σ p(r) = %v", sum)
	}
}

// zipfSample draws n values from Zipf(s, N) by inverse-CDF sampling with a
// seeded generator and returns the counts by true rank.
func zipfSample(s float64, domain, n int, seed uint64) []float64 {
	cdf := make([]float64, domain)
	acc := 0.0
	for r := 1; r <= domain; r++ {
		acc += math.Pow(float64(r), -s)
		cdf[r-1] = acc
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	counts := make([]float64, domain)
	for range n {
		u := rng.Float64() * acc
		counts[sort.SearchFloat64s(cdf, u)]++
	}
	return counts
}

// The MLE recovers s within 0.01 from 10^6 draws over N = 10^4, with the
// true ranks and with ranks by observed frequency.
func TestFitZipfRecovers(t *testing.T) {
	for i, s := range []float64{0.7, 1.1, 1.5} {
		counts := zipfSample(s, 10000, 1_000_000, uint64(i+1))
		fit, err := priors.FitZipf(counts, 10000)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(fit.S-s) > 0.01 || fit.KS > 0.01 || fit.Observed {
			t.Errorf("s = %v: true ranks give ŝ = %v, KS %v", s, fit.S, fit.KS)
		}
		ranked := slices.Clone(counts)
		slices.SortFunc(ranked, func(a, b float64) int { return int(b - a) })
		fit2, err := priors.FitZipf(ranked, 0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(fit2.S-s) > 0.01 {
			t.Errorf("s = %v: frequency ranks give ŝ = %v (N = %v observed), KS %v", s, fit2.S, fit2.N, fit2.KS)
		}
		t.Logf("s = %v: ŝ = %.5f (true ranks, KS %.2g), %.5f (frequency ranks, N = %v, KS %.2g)", s, fit.S, fit.KS, fit2.S, fit2.N, fit2.KS)
	}
}

// A known frequency list: ŝ, the log-likelihood, p_top and the KS distance
// against a grid search of the likelihood written out here.
func TestFitZipfKnownList(t *testing.T) {
	counts := []float64{412, 203, 150, 99, 81, 62, 55, 40, 31, 30, 22, 20, 13, 9, 5, 2}
	for _, n := range []float64{0, 16, 50, math.Inf(1)} {
		domain := n
		if n == 0 {
			domain = float64(len(counts))
		}
		var total float64
		for _, c := range counts {
			total += c
		}
		h := func(s float64) float64 {
			if math.IsInf(domain, 1) {
				return mathext.Zeta(s, 1)
			}
			sum := 0.0
			for r := 1; r <= int(domain); r++ {
				sum += math.Pow(float64(r), -s)
			}
			return sum
		}
		ll := func(s float64) float64 {
			v := -total * math.Log(h(s))
			for i, c := range counts {
				v -= s * c * math.Log(float64(i+1))
			}
			return v
		}
		// Coarse grid, then finer grids around the best point.
		lo, hi, step := 0.0, 5.0, 0.01
		if math.IsInf(domain, 1) {
			lo = 1.001
		}
		best := lo
		for range 4 {
			bestLL := math.Inf(-1)
			for s := lo; s <= hi; s += step {
				if v := ll(s); v > bestLL {
					best, bestLL = s, v
				}
			}
			lo, hi, step = math.Max(lo, best-step), best+step, step/100
		}
		fit, err := priors.FitZipf(counts, n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(fit.S-best) > 1e-6 || !priorstest.Near(fit.LogLik, ll(best)) && math.Abs(fit.LogLik-ll(best)) > 1e-6 {
			t.Errorf("N=%v: ŝ = %.8f ℓ = %.10g, grid %.8f %.10g", n, fit.S, fit.LogLik, best, ll(best))
		}
		if math.Abs(fit.PTop-1/h(best)) > 1e-6 {
			t.Errorf("N=%v: p_top = %v, want %v", n, fit.PTop, 1/h(best))
		}
		ks, ce, cf := 0.0, 0.0, 0.0
		for i, c := range counts {
			ce += c / total
			cf += math.Pow(float64(i+1), -best) / h(best)
			ks = math.Max(ks, math.Abs(ce-cf))
		}
		if math.Abs(fit.KS-ks) > 1e-5 {
			t.Errorf("N=%v: KS = %v, want %v", n, fit.KS, ks)
		}
		t.Logf("N=%v: ŝ = %.6f, KS = %.4f", n, fit.S, fit.KS)
	}
}

func TestFitZipfErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		counts []float64
		n      float64
	}{
		"one rank":      {[]float64{10}, 0},
		"one positive":  {[]float64{10, 0, 0}, 0},
		"negative":      {[]float64{10, -1}, 0},
		"NaN":           {[]float64{10, math.NaN()}, 0},
		"N too small":   {[]float64{10, 5, 1}, 2},
		"N fractional":  {[]float64{10, 5, 1}, 3.5},
		"empty":         {nil, 0},
		"infinite":      {[]float64{math.Inf(1), 1}, 0},
		"negative N":    {[]float64{10, 5}, -3},
		"N = -Inf":      {[]float64{10, 5}, math.Inf(-1)},
		"N = NaN":       {[]float64{10, 5}, math.NaN()},
		"zero and more": {[]float64{0, 0}, 0},
	} {
		if _, err := priors.FitZipf(tc.counts, tc.n); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// Equal counts: the uniform distribution, ŝ = 0.
	fit, err := priors.FitZipf([]float64{5, 5, 5, 5}, 0)
	if err != nil || fit.S > 1e-6 || fit.KS > 1e-6 {
		t.Errorf("equal counts: ŝ = %v KS %v (%v)", fit.S, fit.KS, err)
	}
}
