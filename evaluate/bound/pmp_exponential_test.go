package bound

import (
	"math"
	"math/rand"
	"strings"
	"testing"
)

// bruteExpPMP is a direct linear-space evaluation of Prop. 9 with the
// absolute value (Lowy et al. 2024) and of ε(X) (the
// subpopulation DP parameter), by recursive enumeration of subsets and
// of all ordered pairs of adjacent subsets. For moderate β only.
func bruteExpPMP(loss [][]float64, beta float64) (pmp, epsX float64) {
	m, n2 := len(loss), len(loss[0])
	n := n2 / 2
	subsets := halfSubsets(n2)
	prob := make([][]float64, len(subsets))
	for s, D := range subsets {
		p := make([]float64, m)
		z := 0.0
		for w := range p {
			l := 0.0
			for _, i := range D {
				l += loss[w][i]
			}
			p[w] = math.Exp(-beta * l)
			z += p[w]
		}
		for w := range p {
			p[w] /= z
		}
		prob[s] = p
	}
	member := func(D []int, x int) bool {
		for _, y := range D {
			if y == x {
				return true
			}
		}
		return false
	}
	for x := range n2 {
		for w := range m {
			in, out := 0.0, 0.0
			for s, D := range subsets {
				if member(D, x) {
					in += prob[s][w]
				} else {
					out += prob[s][w]
				}
			}
			pmp = math.Max(pmp, math.Abs(math.Log(in/out)))
		}
	}
	for s, D := range subsets {
		for s2, D2 := range subsets {
			common := 0
			for _, y := range D {
				if member(D2, y) {
					common++
				}
			}
			if common != n-1 {
				continue
			}
			for w := range m {
				epsX = math.Max(epsX, math.Abs(math.Log(prob[s][w]/prob[s2][w])))
			}
		}
	}
	return pmp, epsX
}

// lowyToyLoss is the toy of Lowy et al. 2024: X = {0,1,2,3}, W = {0,1,2,3},
// ℓ(w, D) = ½ Σ_{x∈D} |w − x|, so loss[w][i] = |w − x_i|/2.
func lowyToyLoss() [][]float64 {
	return grid(4, 4, func(w, i int) float64 { return math.Abs(float64(w-i)) / 2 })
}

// Exact Prop. 9 of Lowy et al. 2024 (with the absolute value) on a toy
// exponential mechanism, values computed independently in mpmath: β = 1 and β = 4, with the in/out sums; n = 1 case.
func TestPMPExponentialCatalog(t *testing.T) {
	loss := lowyToyLoss()
	rows := []struct{ beta, pmp, epsX, sumIn, sumOut float64 }{
		{1, 1.15636331727, 1.70329249523, 0.946409047126, 0.297767075447},
		{4, 4.25854779430, 7.59773057650, 1.07669091731, 0.0152274520804},
	}
	for _, r := range rows {
		// β = ε/(2Δ_ℓ): with Δ_ℓ = 3/2 (data domain [0, 3]) the
		// nominal ε is 3β.
		eps, sens := 3*r.beta, 1.5
		res, err := PMPExponential(loss, eps, sens)
		if err != nil {
			t.Fatal(err)
		}
		if !lowyClose(res.Epsilon, r.pmp, 1e-10) {
			t.Errorf("β = %g: ε̃ = %.15g, want %.15g", r.beta, res.Epsilon, r.pmp)
		}
		// Attained at x = 0, w = 0 (or its mirror x = 3, w = 3), in > out.
		if !((res.Record == 0 && res.Output == 0) || (res.Record == 3 && res.Output == 3)) || !res.InOverOut || res.Subsets != 6 {
			t.Errorf("β = %g: argmax %+v", r.beta, res)
		}
		epsX, err := PMPExponentialSubpopulationEpsilon(loss, eps, sens)
		if err != nil || !lowyClose(epsX, r.epsX, 1e-10) {
			t.Errorf("β = %g: ε(X) = %.15g, want %.15g (%v)", r.beta, epsX, r.epsX, err)
		}
		// Ordering ε̃ ≤ ε(X) ≤ nominal ε = 3β (proof of Prop. 5/17 uses only pairs inside X).
		if !(res.Epsilon <= epsX && epsX <= eps) {
			t.Errorf("β = %g: ordering %g ≤ %g ≤ %g fails", r.beta, res.Epsilon, epsX, eps)
		}
		// The brute-force helper reproduces the reference values, including the sums.
		bp, be := bruteExpPMP(loss, r.beta)
		if !lowyClose(bp, r.pmp, 1e-10) || !lowyClose(be, r.epsX, 1e-10) {
			t.Errorf("β = %g: brute force %.15g, %.15g", r.beta, bp, be)
		}
		if got := math.Log(r.sumIn / r.sumOut); !lowyClose(got, r.pmp, 1e-10) {
			t.Errorf("β = %g: catalog sums give %.15g", r.beta, got)
		}
	}
	// n = 1 (Corollary 4): X = {0, 1}, W = {0, 1}, ℓ = |w − x|,
	// β = 1: ε̃ = ε(X) = 1 exactly.
	l1 := [][]float64{{0, 1}, {1, 0}}
	res, err := PMPExponential(l1, 2, 1)
	epsX, err2 := PMPExponentialSubpopulationEpsilon(l1, 2, 1)
	if err != nil || err2 != nil || !lowyClose(res.Epsilon, 1, 1e-14) || !lowyClose(epsX, 1, 1e-14) {
		t.Errorf("n = 1: ε̃ = %.17g, ε(X) = %.17g (%v, %v)", res.Epsilon, epsX, err, err2)
	}
	// Trivial cases: ε = 0 (β = 0) gives 0; so do identical records.
	if res, err := PMPExponential(loss, 0, 1); err != nil || res.Epsilon != 0 || res.Record != -1 {
		t.Errorf("ε = 0: %+v, %v", res, err)
	}
	same := [][]float64{{1, 1, 1, 1}, {2, 2, 2, 2}, {0, 0, 0, 0}}
	if res, err := PMPExponential(same, 5, 1); err != nil || res.Epsilon != 0 {
		t.Errorf("identical records: %+v, %v", res, err)
	}
}

// Independent re-derivation for random tables (2n = 2, 4, 6, 8 records),
// the ordering ε̃ ≤ ε(X) ≤ 2βΔ_ℓ with Δ_ℓ the within-X loss sensitivity
// (proof of Prop. 5/17), permutation invariance and the β-only dependence (Definition 7).
func TestPMPExponentialBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := range 16 {
		n2 := 2 * (1 + trial%4)
		m := 1 + trial%5
		loss := grid(m, n2, func(int, int) float64 { return rng.Float64() * 2 })
		spread := 0.0
		for w := range loss {
			for i := range loss[w] {
				for j := range loss[w] {
					spread = math.Max(spread, math.Abs(loss[w][i]-loss[w][j]))
				}
			}
		}
		beta := 0.2 + 3*rng.Float64()
		sens := math.Max(spread, 1e-3)
		eps := 2 * beta * sens
		res := unwrap[PMPExact](t)(PMPExponential(loss, eps, sens))
		epsX := unwrap[float64](t)(PMPExponentialSubpopulationEpsilon(loss, eps, sens))
		bp, be := bruteExpPMP(loss, beta)
		if !lowyClose(res.Epsilon, bp, 1e-11) || !lowyClose(epsX, be, 1e-11) {
			t.Errorf("trial %d: ε̃ = %.15g (brute %.15g), ε(X) = %.15g (brute %.15g)", trial, res.Epsilon, bp, epsX, be)
		}
		if !(res.Epsilon <= epsX*(1+1e-12) && epsX <= eps*(1+1e-12)) {
			t.Errorf("trial %d: ordering %g ≤ %g ≤ %g fails", trial, res.Epsilon, epsX, eps)
		}
		if n2 == 2 && !lowyClose(res.Epsilon, epsX, 1e-12) {
			t.Errorf("trial %d: n = 1 but ε̃ = %g ≠ ε(X) = %g", trial, res.Epsilon, epsX)
		}
		// Same β from a different (ε, Δ_ℓ) pair.
		if r2, _ := PMPExponential(loss, 2*eps, 2*sens); r2.Epsilon != res.Epsilon {
			t.Errorf("trial %d: β-only dependence: %g vs %g", trial, r2.Epsilon, res.Epsilon)
		}
		// Permute records.
		perm := rng.Perm(n2)
		pl := grid(m, n2, func(w, i int) float64 { return loss[w][perm[i]] })
		if r3, _ := PMPExponential(pl, eps, sens); !lowyClose(r3.Epsilon, res.Epsilon, 1e-12) {
			t.Errorf("trial %d: permutation: %g vs %g", trial, r3.Epsilon, res.Epsilon)
		}
	}
}

// Large ε (β up to 700/(2·0.01)): log space keeps the result finite and
// close to the exact limit. In the toy, as β → ∞ ln(in/out) for x = 0,
// w = 0 grows like β·(gap) (Lowy et al. 2024 pitfalls); the result must be
// finite, non-decreasing here and below ε(X).
func TestPMPExponentialLargeEpsilon(t *testing.T) {
	loss := lowyToyLoss()
	prev := 0.0
	for _, eps := range []float64{1, 10, 100, 700} {
		res, err := PMPExponential(loss, eps, 0.01)
		if err != nil || math.IsNaN(res.Epsilon) || math.IsInf(res.Epsilon, 0) || res.Epsilon < prev {
			t.Errorf("ε = %g: %+v, %v", eps, res, err)
		}
		epsX, _ := PMPExponentialSubpopulationEpsilon(loss, eps, 0.01)
		if res.Epsilon > epsX {
			t.Errorf("ε = %g: ε̃ = %g > ε(X) = %g", eps, res.Epsilon, epsX)
		}
		prev = res.Epsilon
	}
}

func TestPMPExponentialErrors(t *testing.T) {
	loss := lowyToyLoss()
	big := make([][]float64, 2)
	for w := range big {
		big[w] = make([]float64, 24)
	}
	cases := []struct {
		loss      [][]float64
		eps, sens float64
		msg       string
	}{
		{nil, 1, 1, "candidate"},
		{[][]float64{{0, 1, 2}}, 1, 1, "2n"},
		{[][]float64{{0, 1}, {0}}, 1, 1, "candidate 1"},
		{[][]float64{{0, math.NaN()}}, 1, 1, "not finite"},
		{loss, -1, 1, "ε"},
		{loss, math.Inf(1), 1, "ε"},
		{loss, 1, 0, "sensitivity"},
		{loss, 1, 1e-320, "overflows"},
		{[][]float64{{-1e308, 0}, {1e308, 0}}, 1, 1, "float64 range"},
		{big, 1, 1, "exceeds the limit"},
	}
	for i, c := range cases {
		res, err := PMPExponential(c.loss, c.eps, c.sens)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !math.IsNaN(res.Epsilon) {
			t.Errorf("case %d: %+v, %v; want error containing %q", i, res, err, c.msg)
		}
		if _, err := PMPExponentialSubpopulationEpsilon(c.loss, c.eps, c.sens); err == nil {
			t.Errorf("case %d: ε(X): no error", i)
		}
	}
	// 22 records (C(22, 11) = 705,432) is within the limit (not run here).
	if err := checkEnumeration(22, 1); err != nil {
		t.Error(err)
	}
}
