package bound

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// Tests for pmp.go and pmp_exact.go: Lowy et al. 2024 (AAAI). Every expected value names
// its source; the derived reference numbers were computed with mpmath at 40
// digits and are given to 12 significant digits, hence the 1e-10 relative
// tolerances.

func lowyClose(got, want, rel float64) bool {
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// Lemma 6 of Lowy et al. 2024, 1/(1 + e^{−ε}) = sigmoid(ε): reference values
// computed in 40-digit mpmath (the ε's are those the paper's text quotes).
func TestPMPSuccessCatalog(t *testing.T) {
	rows := []struct{ eps, want float64 }{
		{0.1, 0.524979187479},
		{0.123, 0.530711290500},
		{math.Ln2, 2.0 / 3},
		{math.Log(40.0 / 37), 40.0 / 77},
		{0.9, 0.710949502625},
		{1, 0.731058578630},
		{2.14, 0.894730610477},
		{5, 0.993307149076},
		{7, 0.999088948806},
		{7.5, 0.999447221363},
		{10, 0.999954602131},
		{28.5, 0.999999999999581},
	}
	for _, r := range rows {
		got := PMPSuccess(r.eps)
		if !lowyClose(got, r.want, 1e-11) {
			t.Errorf("PMPSuccess(%g) = %.15g, want %.15g", r.eps, got, r.want)
		}
		// Upper bound on risk: never below the exact value.
		if got < numeric.Logistic(r.eps) {
			t.Errorf("PMPSuccess(%g) = %.17g below sigmoid %.17g", r.eps, got, numeric.Logistic(r.eps))
		}
	}
	// ε = 0: random guessing, exactly 1/2 (Lemma 6). ε = +Inf: 1.
	if got := PMPSuccess(0); got != 0.5 {
		t.Errorf("PMPSuccess(0) = %g", got)
	}
	if got := PMPSuccess(math.Inf(1)); got != 1 {
		t.Errorf("PMPSuccess(Inf) = %g", got)
	}
	// For ε = 28.5 (the paper's Fig. 1 text) the gap from 1 is 4.2e-13 (must not be lost), and
	// ε = 700 must not overflow.
	if gap := 1 - PMPSuccess(28.5); !(gap > 4.0e-13 && gap < 4.3e-13) {
		t.Errorf("1 − PMPSuccess(28.5) = %g, want ≈ 4.2e-13", gap)
	}
	if got := PMPSuccess(700); got != 1 {
		t.Errorf("PMPSuccess(700) = %g", got)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(-1)} {
		if got := PMPSuccess(bad); !math.IsNaN(got) {
			t.Errorf("PMPSuccess(%g) = %g, want NaN", bad, got)
		}
	}
}

// Lowy et al. 2024, the inverse: p = 0.525 gives ε ≤ 0.100083458557; the
// exact rationals: ε = ln(a/b) gives success a/(a + b).
func TestPMPEpsilonForSuccess(t *testing.T) {
	rows := []struct{ p, want float64 }{
		{0.525, 0.100083458557},
		{2.0 / 3, math.Ln2},
		{40.0 / 77, math.Log(40.0 / 37)},
		{0.731058578630, 1},
	}
	for _, r := range rows {
		got, ok := PMPEpsilonForSuccess(r.p)
		if !ok || !lowyClose(got, r.want, 1e-10) {
			t.Errorf("PMPEpsilonForSuccess(%g) = %.15g, %v; want %.15g", r.p, got, ok, r.want)
		}
		// Safe side: the rounded-up forward bound meets the target.
		if PMPSuccess(got) > r.p {
			t.Errorf("PMPSuccess(PMPEpsilonForSuccess(%g)) = %.17g exceeds the target", r.p, PMPSuccess(got))
		}
		if next := math.Nextafter(got, math.Inf(1)); PMPSuccess(next) <= r.p {
			t.Errorf("PMPEpsilonForSuccess(%g) = %.17g is not the largest", r.p, got)
		}
	}
	if got, ok := PMPEpsilonForSuccess(0.5); !ok || got != 0 {
		t.Errorf("p = 1/2: %g, %v", got, ok)
	}
	if got, ok := PMPEpsilonForSuccess(1); !ok || !math.IsInf(got, 1) {
		t.Errorf("p = 1: %g, %v", got, ok)
	}
	if got, ok := PMPEpsilonForSuccess(1 - 1e-15); !ok || !(got > 30 && got < 40) {
		t.Errorf("p = 1 − 1e-15: %g, %v", got, ok)
	}
	for _, bad := range []float64{0.49, math.NaN(), -1} {
		if got, ok := PMPEpsilonForSuccess(bad); ok || !math.IsNaN(got) {
			t.Errorf("PMPEpsilonForSuccess(%g) = %g, %v", bad, got, ok)
		}
	}
}

// Lowy et al. 2024 (Lemma 13): η = (1 − e^{−ε})/2; and the derived
// (ε, δ) success bound (e^ε + δ)/(1 + e^ε) (derived here from Lemma 11's
// hockey-stick bounds with prior 1/2; not in the paper), which reduces to Lemma 6 at δ = 0.
func TestPMPMIPEtaAndDelta(t *testing.T) {
	for _, r := range []struct{ eps, want float64 }{
		{0.1, 0.0475812909820}, {math.Ln2, 0.25}, {1, 0.316060279414},
	} {
		if got := PMPMIPEta(r.eps); !lowyClose(got, r.want, 1e-10) {
			t.Errorf("PMPMIPEta(%g) = %.15g, want %.15g", r.eps, got, r.want)
		}
	}
	if PMPMIPEta(0) != 0 || PMPMIPEta(math.Inf(1)) != 0.5 || !math.IsNaN(PMPMIPEta(-1)) {
		t.Error("PMPMIPEta edge cases")
	}
	for _, eps := range []float64{0, 0.1, 1, 7, 700} {
		if PMPSuccessDelta(eps, 0) != PMPSuccess(eps) {
			t.Errorf("PMPSuccessDelta(%g, 0) differs from PMPSuccess", eps)
		}
		// (e^ε + δ)/(1 + e^ε) (derived, see above), evaluated directly for small ε.
		if eps < 10 {
			want := (math.Exp(eps) + 0.01) / (1 + math.Exp(eps))
			if got := PMPSuccessDelta(eps, 0.01); !lowyClose(got, want, 1e-13) || got < want {
				t.Errorf("PMPSuccessDelta(%g, 0.01) = %.17g, want %.17g", eps, got, want)
			}
		}
	}
	if PMPSuccessDelta(0, 1) != 1 || !math.IsNaN(PMPSuccessDelta(1, 1.5)) {
		t.Error("PMPSuccessDelta edge cases")
	}
}

// σ calibration, step 1 of PMPGaussianFromDP (Lemma 10 of Lowy et al.
// 2024, the analytic Gaussian mechanism): against the 25-digit references
// of evaluate/curve/testdata/gaussian_calibrate_ref.csv (Δ = 1; mpmath, its
// generator beside it), σ scaling linearly in Δ. The σ is never above the
// exact one (less noise, more risk: the safe side for a bound; the larger
// end of a bisection, which step 1 took before, is above it) and within a
// relative 1e-11 of it.
func TestPMPGaussianFromDPSigma(t *testing.T) {
	rows := []struct {
		eps, delta float64
		want       string // σ for Δ = 1
	}{
		{0, 0.01, "39.8931835816165191405423"},
		{0.5, 1e-5, "7.031826675582491442714627"},
		{1, 0.01, "1.877875560907386025452326"},
		{1, 1e-5, "3.730631634815941832249823"},
		{2, 1e-6, "2.230476271186417301060763"},
		{5, 0.01, "0.5693793788250033083705589"},
		{10, 0.01, "0.3500966862482320901886281"},
		{10, 1e-6, "0.5410868318183659814283394"},
	}
	f := lowyVectors(0, 1, 2, 3)
	for _, r := range rows {
		for _, sens := range []float64{1, 3} {
			want, _, err := big.ParseFloat(r.want, 10, 200, big.ToNearestEven)
			if err != nil {
				t.Fatal(err)
			}
			want.Mul(want, big.NewFloat(sens))
			got, b, err := PMPGaussianFromDP(f, r.eps, r.delta, sens)
			if err != nil || math.IsNaN(b.Epsilon) {
				t.Errorf("PMPGaussianFromDP(ε = %g, δ = %g, Δ = %g): %+v, %v", r.eps, r.delta, sens, b, err)
				continue
			}
			w, _ := want.Float64()
			if big.NewFloat(got).Cmp(want) > 0 || !lowyClose(got, w, 1e-11) {
				t.Errorf("ε = %g, δ = %g, Δ = %g: σ = %.17g; want at most %s·%g, within 1e-11", r.eps, r.delta, sens, got, r.want, sens)
			}
		}
	}
	for _, bad := range [][3]float64{{-1, 1e-5, 1}, {1, 0, 1}, {1, 1, 1}, {1, 1e-5, 0}, {math.NaN(), 1e-5, 1}, {1, 1e-5, math.Inf(1)}} {
		if got, b, err := PMPGaussianFromDP(f, bad[0], bad[1], bad[2]); err == nil || !math.IsNaN(got) || !math.IsNaN(b.Epsilon) {
			t.Errorf("PMPGaussianFromDP(ε, δ, Δ = %v) = %g, %+v, %v; want an error", bad, got, b, err)
		}
	}
}

// Points on the line as one-dimensional f vectors.
func lowyVectors(xs ...float64) [][]float64 {
	f := make([][]float64, len(xs))
	for i, x := range xs {
		f[i] = []float64{x}
	}
	return f
}

// Prop. 12 of Lowy et al. 2024 in the sum form of "Our Approach", mean query,
// on a toy parent set (values computed independently in mpmath):
// X = {0,1,2,3}, n = 2, f(x) = x/2, δ = 0.01.
func TestPMPGaussianCatalog(t *testing.T) {
	rows := []struct {
		f               [][]float64
		sigma, pmp, epX float64
		worst           []int
	}{
		{lowyVectors(0, 0.5, 1, 1.5), 1, 3.32352856397, 4.01960436072, []int{0, 3}},
		{lowyVectors(0, 0.5, 1, 1.5), 2, 1.22855690991, 1.57756508191, []int{0, 3}},
		// n = 1: X = {0, 1}, f(x) = x, σ = 0.5: ε̃ = ε(X) (Corollary 4).
		{lowyVectors(0, 1), 0.5, 5.99789252982, 5.99789252982, []int{0, 1}},
	}
	for _, r := range rows {
		b, err := PMPGaussian(r.f, r.sigma, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		if !lowyClose(b.Epsilon, r.pmp, 1e-10) || !lowyClose(b.EpsilonX, r.epX, 1e-10) {
			t.Errorf("σ = %g: ε̃ = %.15g (want %.15g), ε(X) = %.15g (want %.15g)", r.sigma, b.Epsilon, r.pmp, b.EpsilonX, r.epX)
		}
		if b.Worst != r.worst[0] && b.Worst != r.worst[1] {
			t.Errorf("σ = %g: worst record %d, want one of %v", r.sigma, b.Worst, r.worst)
		}
		if b.MaxDistance != r.f[len(r.f)-1][0] {
			t.Errorf("Δ_X = %g", b.MaxDistance)
		}
		// Per-record values: their max is ε̃; the reference computation gives x ∈ {1, 2}
		// per-x bounds ≈ 1.83e-4 at ε̃ (σ = 1), i.e. ε̃(x) < ε̃ there.
		per, err := PMPGaussianPerRecord(r.f, r.sigma, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		top := 0.0
		for _, e := range per {
			top = math.Max(top, e)
		}
		if top != b.Epsilon {
			t.Errorf("σ = %g: max per-record %.17g ≠ %.17g", r.sigma, top, b.Epsilon)
		}
	}
	// Reference: per-x bound ≈ 1.83e-4 for x ∈ {1, 2} at ε = 3.32352856397, σ = 1
	// (3 significant digits).
	g := newPMPGauss(lowyVectors(0, 0.5, 1, 1.5), 1, 0.01)
	g.fill(1)
	if v := math.Exp(g.logB(1, 3.32352856397)); math.Abs(v-1.83e-4) > 0.005e-4 {
		t.Errorf("B(x = 1) = %g, want ≈ 1.83e-4", v)
	}
	// Trivial case: all f(x) equal gives ε̃ = 0.
	b, err := PMPGaussian(lowyVectors(2, 2, 2, 2), 1, 0.01)
	if err != nil || b.Epsilon != 0 || b.EpsilonX != 0 || b.Worst != -1 {
		t.Errorf("identical records: %+v, %v", b, err)
	}
}

// bruteGaussianPMP evaluates Prop. 12 literally (Eq. 5 of Lowy et al. 2024):
// for each x, (1/(n|X_in(x)|)) Σ_{D∋x} Σ_{D'∌x, D'∼D} δ_G(ε; ‖q(D) − q(D')‖/σ),
// with q(D) = Σ_{y∈D} f(y) recomputed per subset and δ_G in linear space,
// then bisects on ε with 200 midpoint steps. Independent of the sum-form
// simplification and of the log-space code.
func bruteGaussianPMP(f [][]float64, sigma, delta float64) float64 {
	n2 := len(f)
	n := n2 / 2
	d := len(f[0])
	deltaG := func(eps, mu float64) float64 {
		if mu == 0 {
			return 0
		}
		return numeric.NormCDF(mu/2-eps/mu) - math.Exp(eps)*numeric.NormCDF(-mu/2-eps/mu)
	}
	q := func(set []int) []float64 {
		s := make([]float64, d)
		for _, i := range set {
			for k := range s {
				s[k] += f[i][k]
			}
		}
		return s
	}
	subsets := halfSubsets(n2)
	maxB := func(eps float64) float64 {
		worst := 0.0
		for x := range n2 {
			sum, cnt := 0.0, 0
			for _, D := range subsets {
				in := false
				for _, y := range D {
					in = in || y == x
				}
				if !in {
					continue
				}
				cnt++
				qD := q(D)
				for z := range n2 {
					isMember := false
					for _, y := range D {
						isMember = isMember || y == z
					}
					if isMember {
						continue
					}
					var D2 []int
					for _, y := range D {
						if y != x {
							D2 = append(D2, y)
						}
					}
					qD2 := q(append(D2, z))
					s := 0.0
					for k := range qD {
						s += (qD[k] - qD2[k]) * (qD[k] - qD2[k])
					}
					sum += deltaG(eps, math.Sqrt(s)/sigma)
				}
			}
			worst = math.Max(worst, sum/float64(n*cnt))
		}
		return worst
	}
	if maxB(0) <= delta {
		return 0
	}
	lo, hi := 0.0, 1.0
	for maxB(hi) > delta {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if maxB(mid) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// Independent re-derivation: the sum form ("Our Approach" step 3, with the
// counting of the pairs checked here) against the literal double sum of Eq. 5,
// for random parent sets of 2, 4 and 6 records in 1–3 dimensions.
func TestPMPGaussianBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := range 12 {
		n2 := 2 * (1 + trial%3)
		d := 1 + trial%3
		f := grid(n2, d, func(int, int) float64 { return rng.NormFloat64() })
		sigma := 0.3 + rng.Float64()
		delta := []float64{1e-2, 1e-4, 0.2}[trial%3]
		b, err := PMPGaussian(f, sigma, delta)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteGaussianPMP(f, sigma, delta)
		if !lowyClose(b.Epsilon, want, 1e-9) {
			t.Errorf("trial %d (2n = %d, d = %d): ε̃ = %.15g, brute force %.15g", trial, n2, d, b.Epsilon, want)
		}
		// ε̃_Prop12 ≤ ε(X) (every term of Eq. 5 is at most δ_G at Δ_X); n = 1 (Corollary 4): equality.
		if b.Epsilon > b.EpsilonX*(1+1e-12) {
			t.Errorf("trial %d: ε̃ = %g > ε(X) = %g", trial, b.Epsilon, b.EpsilonX)
		}
		if n2 == 2 && !lowyClose(b.Epsilon, b.EpsilonX, 1e-12) {
			t.Errorf("trial %d: n = 1 but ε̃ = %.17g ≠ ε(X) = %.17g", trial, b.Epsilon, b.EpsilonX)
		}
	}
}

// Properties (derived from Lemma 10 and Prop. 12): monotone in σ (and in the DP ε through the
// calibrated σ), in δ; ε̃ ≤ ε(X) ≤ ε when Δ_X ≤ Δ; invariance under
// permutation, translation and rotation; dependence on d/σ only.
func TestPMPGaussianProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const n2, d = 60, 3
	f := grid(n2, d, func(int, int) float64 { return rng.NormFloat64() / (n2 / 2) })
	f[5][0] += 0.5 // an outlier
	base, err := PMPGaussian(f, 0.05, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if base.Worst != 5 {
		t.Errorf("worst record %d, want the outlier 5", base.Worst)
	}
	prev := math.Inf(1)
	for _, sigma := range []float64{0.01, 0.02, 0.05, 0.1, 0.3, 1, 3} {
		b, err := PMPGaussian(f, sigma, 1e-3)
		if err != nil || b.Epsilon > prev || b.Epsilon < 0 || b.Epsilon > b.EpsilonX {
			t.Errorf("σ = %g: %+v after %g (%v)", sigma, b, prev, err)
		}
		prev = b.Epsilon
	}
	prev = math.Inf(1)
	for _, delta := range []float64{1e-300, 1e-12, 1e-6, 1e-3, 0.1, 0.5} {
		b, err := PMPGaussian(f, 0.05, delta)
		if err != nil || b.Epsilon > prev {
			t.Errorf("δ = %g: %g after %g (%v)", delta, b.Epsilon, prev, err)
		}
		prev = b.Epsilon
	}
	// Permutation, translation, rotation (swap coordinates and flip sign),
	// and scaling f and σ together.
	perm := rng.Perm(n2)
	g := make([][]float64, n2)
	h := make([][]float64, n2)
	for i, p := range perm {
		g[i] = []float64{f[p][1] + 3, -f[p][0] - 1, f[p][2] + 0.5}
		h[i] = []float64{4 * f[p][0], 4 * f[p][1], 4 * f[p][2]}
	}
	bg, _ := PMPGaussian(g, 0.05, 1e-3)
	bh, _ := PMPGaussian(h, 0.2, 1e-3)
	for _, b := range []PMPGaussianBound{bg, bh} {
		if !lowyClose(b.Epsilon, base.Epsilon, 1e-12) || perm[b.Worst] != 5 {
			t.Errorf("invariance: %+v vs %+v", b, base)
		}
	}
	// Non-decreasing in the DP ε through σ(ε), and ε̃ ≤ ε(X) ≤ ε
	// when Δ ≥ Δ_X.
	sens := base.MaxDistance * 1.01
	prev = 0
	for _, eps := range []float64{0.1, 0.5, 1, 2, 5, 10, 50, 700} {
		sigma, b, err := PMPGaussianFromDP(f, eps, 1e-5, sens)
		if err != nil || b.Epsilon < prev || b.Epsilon > b.EpsilonX || b.EpsilonX > eps*(1+1e-12) {
			t.Errorf("DP ε = %g: σ = %g, %+v, prev %g (%v)", eps, sigma, b, prev, err)
		}
		if math.IsNaN(b.Epsilon) || math.IsInf(b.Epsilon, 0) {
			t.Errorf("DP ε = %g: ε̃ = %g", eps, b.Epsilon)
		}
		prev = b.Epsilon
	}
	// Subnormal δ (logPos) and extreme magnitudes stay finite.
	if b, err := PMPGaussian(f, 0.05, 5e-324); err != nil || math.IsNaN(b.Epsilon) || math.IsInf(b.Epsilon, 0) {
		t.Errorf("δ = 5e-324: %+v, %v", b, err)
	}
	huge := lowyVectors(-1e308, 1e308, 0, 1)
	// Records 0 and 1 are 2e308 apart (μ = +Inf, δ_G ≡ 1 in Lemma 10), so
	// B(x₀; ε) ≥ 1/3 > δ for every ε: ε̃ = +Inf.
	if b, err := PMPGaussian(huge, 1, 1e-2); err != nil || !math.IsInf(b.Epsilon, 1) {
		t.Errorf("huge distances: %+v, %v", b, err)
	}
	tiny := lowyVectors(0, 1e-200, 2e-200, 3e-200)
	b1, _ := PMPGaussian(tiny, 1e-200, 1e-2)
	b2, _ := PMPGaussian(lowyVectors(0, 1, 2, 3), 1, 1e-2)
	if !lowyClose(b1.Epsilon, b2.Epsilon, 1e-12) {
		t.Errorf("tiny scale: %g vs %g", b1.Epsilon, b2.Epsilon)
	}
}

func TestPMPGaussianErrors(t *testing.T) {
	good := lowyVectors(0, 1, 2, 3)
	cases := []struct {
		f            [][]float64
		sigma, delta float64
	}{
		{lowyVectors(0, 1, 2), 1, 0.01},
		{nil, 1, 0.01},
		{[][]float64{{0}, {1, 2}}, 1, 0.01},
		{[][]float64{{}, {}}, 1, 0.01},
		{lowyVectors(0, math.NaN()), 1, 0.01},
		{lowyVectors(0, math.Inf(1)), 1, 0.01},
		{good, 0, 0.01},
		{good, -1, 0.01},
		{good, math.Inf(1), 0.01},
		{good, 1, 0},
		{good, 1, 1},
		{good, 1, math.NaN()},
	}
	for i, c := range cases {
		if b, err := PMPGaussian(c.f, c.sigma, c.delta); err == nil || !math.IsNaN(b.Epsilon) {
			t.Errorf("case %d: %+v, %v; want error", i, b, err)
		}
		if _, err := PMPGaussianPerRecord(c.f, c.sigma, c.delta); err == nil {
			t.Errorf("case %d: per-record: no error", i)
		}
	}
	if _, b, err := PMPGaussianFromDP(good, -1, 0.01, 1); err == nil || !math.IsNaN(b.Epsilon) {
		t.Error("FromDP with ε < 0: no error")
	}
}

// Lowy et al. 2024: the deterministic A(D) = sum(D) mod 2n on X = (0, …, 2n−1)
// (the construction of Prop. 5/17): n = 2 → +Inf, n = 3 → ln 2 (the paper's
// value, proof of Prop. 17), n = 4 → ln(5/4), n = 5 → ln(7/6), n = 6 → ln(38/37)
// (counted by enumeration).
func TestPMPDiscreteSumMod(t *testing.T) {
	rows := []struct {
		n    int
		want float64
	}{
		{2, math.Inf(1)},
		{3, math.Ln2},
		{4, math.Log(5.0 / 4)},
		{5, math.Log(7.0 / 6)},
		{6, math.Log(38.0 / 37)},
	}
	for _, r := range rows {
		mod := 2 * r.n
		res, err := PMPDiscrete(mod, mod, func(members []int, logp []float64) {
			s := 0
			for _, x := range members {
				s += x
			}
			logp[s%mod] = 0 // the others stay −Inf
		})
		if err != nil || !lowyClose(res.Epsilon, r.want, 1e-12) {
			t.Errorf("n = %d: ε̃ = %.15g, want %.15g (%v)", r.n, res.Epsilon, r.want, err)
		}
		if want := int(numeric.Binomial(mod, r.n)); res.Subsets != want {
			t.Errorf("n = %d: %d subsets, want %d (§3.1 P8/P14)", r.n, res.Subsets, want)
		}
	}
	// n = 6 exact value is below the paper's "ε ≤ ln(40/37)" after Prop. 5, a
	// coarse max-in/min-out bound.
	if math.Log(38.0/37) >= math.Log(40.0/37) {
		t.Error("ordering of the n = 6 values")
	}
	// Errors: NaN or +Inf log-probabilities, all impossible, nil, bad sizes.
	bad := []func([]int, []float64){
		func(_ []int, lp []float64) { lp[0] = math.NaN() },
		func(_ []int, lp []float64) { lp[0] = math.Inf(1) },
		func(_ []int, _ []float64) {},
		nil,
	}
	for i, f := range bad {
		if res, err := PMPDiscrete(4, 2, f); err == nil || !math.IsNaN(res.Epsilon) {
			t.Errorf("bad logProb %d: %+v, %v", i, res, err)
		}
	}
	ok := func(_ []int, lp []float64) { lp[0] = 0 }
	for _, sz := range [][2]int{{3, 2}, {0, 2}, {4, 0}, {24, 2}} {
		if _, err := PMPDiscrete(sz[0], sz[1], ok); err == nil {
			t.Errorf("sizes %v: no error", sz)
		}
	}
}

// Two-sided erratum (Lowy et al. 2024): a mechanism whose reverse direction
// binds. Records {0, 1} (n = 1); P(·|{0}) = (0.5, 0.5), P(·|{1}) = (0.9, 0.1).
// For x = 0: in/out ratios are 0.5/0.9 and 0.5/0.1 = 5, so ln 5 binds in the
// printed direction; for x = 1 the reverse. Swap the roles so that only the
// absolute value finds ln 5 via ln(out/in): P(·|{0}) = (0.9, 0.1), then for
// x = 0 ln(in/out) ≤ ln 1.8 but ln(out/in) = ln 5.
func TestPMPDiscreteTwoSided(t *testing.T) {
	res, err := PMPDiscrete(2, 2, func(members []int, lp []float64) {
		if members[0] == 0 {
			lp[0], lp[1] = math.Log(0.9), math.Log(0.1)
		} else {
			lp[0], lp[1] = math.Log(0.5), math.Log(0.5)
		}
	})
	if err != nil || !lowyClose(res.Epsilon, math.Log(5), 1e-14) {
		t.Fatalf("%+v, %v", res, err)
	}
	// With x = 0 the binding direction is out/in (w = 1); the first record
	// in index order is reported.
	if res.Record != 0 || res.Output != 1 || res.InOverOut {
		t.Errorf("argmax %+v, want record 0, output 1, out/in", res)
	}
}

// The round-based search of PMPGaussian against the maximum of the
// per-record roots (one independent root per record), on parent sets with
// outliers and clusters where the ordering by B(x; 0) differs from the
// ordering of the roots.
func TestPMPGaussianMatchesPerRecord(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := range testenv.Count(3, 6) {
		n2 := 40 + 20*trial
		f := make([][]float64, n2)
		for i := range f {
			f[i] = []float64{rng.NormFloat64(), rng.NormFloat64() * float64(1+trial%3)}
			if i%7 == 0 {
				f[i][0] += 4 * rng.Float64()
			}
		}
		sigma := 0.5 + rng.Float64()
		delta := []float64{1e-5, 1e-2, 0.3}[trial%3]
		b := unwrap[PMPGaussianBound](t)(PMPGaussian(f, sigma, delta))
		per := unwrap[[]float64](t)(PMPGaussianPerRecord(f, sigma, delta))
		top := 0.0
		for _, e := range per {
			top = math.Max(top, e)
		}
		if b.Epsilon != top || (top > 0 && per[b.Worst] != top) {
			t.Errorf("trial %d: ε̃ = %.17g (worst %d), per-record max %.17g", trial, b.Epsilon, b.Worst, top)
		}
	}
}

func BenchmarkPMPGaussian2000(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	f := grid(2000, 10, func(int, int) float64 { return rng.NormFloat64() / 1000 })
	for b.Loop() {
		if _, err := PMPGaussian(f, 0.005, 1e-5); err != nil {
			b.Fatal(err)
		}
	}
}

// halfSubsets returns every subset of {0, …, n2 − 1} of size n2/2 as a
// sorted index list, in lexicographic order: the datasets of the brute-force
// checks, which draw half of the n2 candidate records.
func halfSubsets(n2 int) [][]int {
	n := n2 / 2
	var subsets [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == n {
			subsets = append(subsets, append([]int(nil), cur...))
			return
		}
		for i := start; i < n2; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return subsets
}

// PMPEpsilonForAdvantageDelta on random targets and δ down to 1e-300: the ε
// meets (1 + A)/2 under PMPSuccessDelta and ε + 1e-9·(1 + ε) does not; a
// target below δ is out of reach.
func TestPMPEpsilonForAdvantageDelta(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		adv := math.Pow(10, -8*rng.Float64())
		delta := math.Pow(10, -300*rng.Float64()*rng.Float64())
		eps, ok := PMPEpsilonForAdvantageDelta(adv, delta)
		if adv < delta {
			if ok {
				t.Errorf("A=%g < δ=%g: got %g, want none", adv, delta, eps)
			}
			continue
		}
		p := (1 + adv) / 2
		if !ok || PMPSuccessDelta(eps, delta) > p {
			t.Errorf("A=%g δ=%g: ε=%.17g (%v) misses the target", adv, delta, eps, ok)
		}
		if adv < 1 && PMPSuccessDelta(eps+1e-9*(1+eps), delta) <= p {
			t.Errorf("A=%g δ=%g: ε=%.17g is not the largest", adv, delta, eps)
		}
	}
}
