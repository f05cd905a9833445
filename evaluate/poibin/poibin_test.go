package poibin

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// Independent references used below. None of them shares code with the
// package: a brute-force enumeration of all 2^n outcomes, the plain O(n²)
// convex-combination DP of Swanberg et al. 2025 (in float64 and in log
// space), and exact big.Float binomial sums (binomial_test.go).

// sigmoidPair returns β = σ(z) and 1 − β = σ(−z), the way callers build
// their inputs (Swanberg et al. 2025).
func sigmoidPair(z float64) (float64, float64) {
	e := math.Exp(-math.Abs(z))
	small, large := e/(1+e), 1/(1+e)
	if z >= 0 {
		return large, small
	}
	return small, large
}

// randomBetas draws n success probabilities with logits from N(shift, scale²).
func randomBetas(rng *rand.Rand, n int, shift, scale float64) (b, q []float64) {
	b = make([]float64, n)
	q = make([]float64, n)
	for i := range b {
		b[i], q[i] = sigmoidPair(shift + scale*rng.NormFloat64())
	}
	return b, q
}

// refDP is the plain sequential DP new[k] = q·old[k] + β·old[k−1],
// normalised by its total mass Π(β_i + q_i) (New reads its input the same
// way, as β_i/(β_i + q_i)).
func refDP(b, q []float64) []float64 {
	p := make([]float64, len(b)+1)
	p[0] = 1
	for i := range b {
		for k := i + 1; k >= 1; k-- {
			p[k] = p[k]*q[i] + p[k-1]*b[i]
		}
		p[0] *= q[i]
	}
	return approx.Normalise(p)
}

// refTails returns T[v] = Σ_{k≥v} p[k] for v = 0..len(p), summed from the top.
func refTails(p []float64) []float64 {
	t := make([]float64, len(p)+1)
	for k := len(p) - 1; k >= 0; k-- {
		t[k] = t[k+1] + p[k]
	}
	return t
}

// refLogDP is the same DP in log space: lp[k] = ln Pr[S = k], exact far
// below the float64 range.
func refLogDP(b, q []float64) []float64 {
	lp := make([]float64, len(b)+1)
	for k := range lp {
		lp[k] = math.Inf(-1)
	}
	lp[0] = 0
	for i := range b {
		lb, lq := math.Log(b[i]), math.Log(q[i])
		for k := i + 1; k >= 1; k-- {
			lp[k] = numeric.LogSumExp(lp[k]+lq, lp[k-1]+lb)
		}
		lp[0] += lq
	}
	lz := math.Inf(-1)
	for _, v := range lp {
		lz = numeric.LogSumExp(lz, v)
	}
	for k := range lp {
		lp[k] -= lz
	}
	return lp
}

// refLogTails returns ln Pr[S ≥ v] and ln Pr[S ≤ v] from refLogDP.
func refLogTails(lp []float64) (up, down []float64) {
	n := len(lp)
	up = make([]float64, n+1)
	up[n] = math.Inf(-1)
	for k := n - 1; k >= 0; k-- {
		up[k] = numeric.LogSumExp(up[k+1], lp[k])
	}
	down = make([]float64, n)
	acc := math.Inf(-1)
	for k := 0; k < n; k++ {
		acc = numeric.LogSumExp(acc, lp[k])
		down[k] = acc
	}
	return up, down
}

// refQuantile is the v_UB convention of Swanberg et al. 2025 §3.2 on a reference tail array:
// the smallest u with T[u+1] ≤ 1 − c.
func refQuantile(t []float64, c float64) int {
	for u := 0; u+1 < len(t); u++ {
		if t[u+1] <= 1-c {
			return u
		}
	}
	return len(t) - 2
}

func mustNew(t *testing.T, b, q []float64, o options) *Dist {
	t.Helper()
	d, err := newDist(b, q, o)
	if err != nil {
		t.Fatalf("newDist: %v", err)
	}
	return d
}

// A vector checkable by hand: β = [0.1, 0.5, 0.9] has PMF
// [0.045, 0.455, 0.455, 0.045] and T(0..4) = [1, 0.955, 0.5, 0.045, 0].
func TestCatalogSmallVector(t *testing.T) {
	b := []float64{0.1, 0.5, 0.9}
	q := []float64{0.9, 0.5, 0.1}
	for _, o := range []options{{}, {noFFT: true}} {
		d := mustNew(t, b, q, o)
		for k, want := range []float64{0.045, 0.455, 0.455, 0.045} {
			if got := d.Prob(k); math.Abs(got-want) > 1e-15 {
				t.Errorf("Prob(%d) = %.17g, catalog %v", k, got, want)
			}
		}
		for v, want := range []float64{1, 0.955, 0.5, 0.045, 0} {
			got := d.Survival(v)
			if math.Abs(got-want) > 1e-14 || got < want-1e-16 {
				t.Errorf("Survival(%d) = %.17g, catalog %v", v, got, want)
			}
			if lg := d.LogSurvival(v); math.Abs(lg-math.Log(want)) > 1e-13 && !(want == 0 && math.IsInf(lg, -1)) {
				t.Errorf("LogSurvival(%d) = %v, want ln %v", v, lg, want)
			}
		}
		if d.Mean() != 1.5 || d.Len() != 3 {
			t.Errorf("Mean, Len = %v, %v; want Σβ = 1.5, 3", d.Mean(), d.Len())
		}
		// Variance Σβ(1 − β) = 0.09 + 0.25 + 0.09.
		if math.Abs(d.Variance()-0.43) > 1e-15 {
			t.Errorf("Variance = %v, want 0.43", d.Variance())
		}
	}
}

// Attribute inference as in Swanberg et al. 2025 §3.3 and §6 (vector
// computed independently): counts a: [30,10,10], b: [5,25,20] give p = 0.6
// (a) and 0.5 (b); records (a,a,a,b,b) at ε = 1 have β = σ(logit p + 1) and
// PMF [0.000552568, 0.009763224, 0.068389463, 0.237232939, 0.407283781,
// 0.276778025] (9 decimals), and v_UB(5%, 50%, 95%) = 2, 4, 5.
func TestCatalogAttributeVector(t *testing.T) {
	var b, q []float64
	for _, p := range []float64{0.6, 0.6, 0.6, 0.5, 0.5} {
		bi, qi := sigmoidPair(math.Log(p/(1-p)) + 1)
		b, q = append(b, bi), append(q, qi)
	}
	d := mustNew(t, b, q, options{})
	for k, want := range []float64{0.000552568, 0.009763224, 0.068389463, 0.237232939, 0.407283781, 0.276778025} {
		if got := d.Prob(k); math.Abs(got-want) > 5.1e-10 {
			t.Errorf("Prob(%d) = %.10f, catalog %.9f", k, got, want)
		}
	}
	for i, c := range []float64{0.05, 0.5, 0.95} {
		if got, want := d.Quantile(c), []int{2, 4, 5}[i]; got != want {
			t.Errorf("Quantile(%v) = %d, catalog v_UB %d", c, got, want)
		}
	}
}

// Brute force over all 2^n outcomes for n ≤ 12, including β = 0 and β = 1
// terms (which become an exclusion and a shift).
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.Intn(12)
		b, q := randomBetas(rng, n, 0, 2.5)
		for i := range b {
			switch rng.Intn(8) {
			case 0:
				b[i], q[i] = 0, 1
			case 1:
				b[i], q[i] = 1, 0
			}
		}
		pmf := make([]float64, n+1)
		for mask := 0; mask < 1<<n; mask++ {
			pr, k := 1.0, 0
			for i := 0; i < n; i++ {
				if mask>>i&1 == 1 {
					pr *= b[i]
					k++
				} else {
					pr *= q[i]
				}
			}
			pmf[k] += pr
		}
		tail := refTails(pmf)
		for _, o := range []options{{}, {noFFT: true}, {noBinomial: true}} {
			d := mustNew(t, b, q, o)
			for k := -1; k <= n+1; k++ {
				want := 0.0
				if k >= 0 && k <= n {
					want = pmf[k]
				}
				if got := d.Prob(k); math.Abs(got-want) > 1e-15 {
					t.Fatalf("trial %d: Prob(%d) = %v, enumeration %v", trial, k, got, want)
				}
			}
			for v := -1; v <= n+2; v++ {
				want := 1.0
				if v > 0 {
					want = 0
					if v <= n {
						want = tail[v]
					}
				}
				got := d.Survival(v)
				if math.Abs(got-want) > 1e-12 || got < want-1e-15 {
					t.Fatalf("trial %d: Survival(%d) = %v, enumeration %v", trial, v, got, want)
				}
				if cdf := d.CDF(v - 1); math.Abs(cdf-(1-want)) > 1e-14 {
					t.Fatalf("trial %d: CDF(%d) = %v, enumeration %v", trial, v-1, cdf, 1-want)
				}
				lg := d.LogSurvival(v)
				switch {
				case want == 0:
					if !math.IsInf(lg, -1) {
						t.Fatalf("trial %d: LogSurvival(%d) = %v for an impossible event", trial, v, lg)
					}
				case math.Abs(lg-math.Log(want)) > 1e-12*math.Max(1, math.Abs(math.Log(want))):
					t.Fatalf("trial %d: LogSurvival(%d) = %v, ln(enumeration) = %v", trial, v, lg, math.Log(want))
				}
			}
			for _, c := range []float64{0.01, 0.05, 0.5, 0.9, 0.95, 0.99, 1} {
				if got, want := d.Quantile(c), refQuantile(tail, c); got != want && math.Abs(tail[want+1]-(1-c)) > 1e-13 {
					t.Fatalf("trial %d: Quantile(%v) = %d, enumeration %d", trial, c, got, want)
				}
			}
		}
	}
}

// The O(n²) DP reference for n ∈ {1, 10, 1000} (and 2000 with
// RISKBATCH_LONG_TESTS=1) and several shapes
// (logits centred and spread, skewed towards 0, towards 1): tails to 1e-12
// absolute and never below the reference by more than its own round-off,
// quantiles equal, log tails to 1e-10 relative of the tail at every
// twentieth value (every seventh with RISKBATCH_LONG_TESTS=1; against the
// log-space DP, which is exact far below 1e-300).
func TestAgainstDP(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(8))
	shapes := []struct{ shift, scale float64 }{{0, 2}, {-4, 3}, {3, 1}, {0, 0.3}}
	ns := []int{1, 10, 1000}
	if testenv.Long() {
		ns = append(ns, 2000)
	}
	for _, n := range ns {
		for _, sh := range shapes {
			b, q := randomBetas(rng, n, sh.shift, sh.scale)
			pmf := refDP(b, q)
			tail := refTails(pmf)
			lp := refLogDP(b, q)
			up, down := refLogTails(lp)
			d := mustNew(t, b, q, options{})
			for v := 0; v <= n+1; v++ {
				got, want := d.Survival(v), tail[min(v, n+1)]
				if math.Abs(got-want) > 1e-12 || got < want-1e-15 {
					t.Fatalf("n=%d %+v: Survival(%d) = %.17g, DP %.17g", n, sh, v, got, want)
				}
			}
			for _, c := range []float64{0.05, 0.5, 0.95, 0.999} {
				if got, want := d.Quantile(c), refQuantile(tail, c); got != want {
					t.Fatalf("n=%d %+v: Quantile(%v) = %d, DP %d", n, sh, c, got, want)
				}
			}
			// Log tails: every v, including the deep tails only the
			// tilted evaluation reaches.
			step := max(1, n/testenv.Count(50, 150))
			for v := 1; v <= n; v += step {
				got, want := d.LogSurvival(v), up[v]
				if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Fatalf("n=%d %+v: LogSurvival(%d) = %.15g, log DP %.15g", n, sh, v, got, want)
				}
				gotC, wantC := d.LogCDF(v-1), down[v-1]
				if math.Abs(gotC-wantC) > 1e-10*math.Max(1, math.Abs(wantC)) {
					t.Fatalf("n=%d %+v: LogCDF(%d) = %.15g, log DP %.15g", n, sh, v-1, gotC, wantC)
				}
			}
		}
	}
}

// The tilted evaluation and the stored window are two independent routes
// to the same tail; where the window is relatively exact (no FFT, and the
// tail at least 1e12 times the truncation bound, i.e. above ~1e-8) they
// must agree to 1e-12 relative. n = 20000, so the tilted products
// themselves go through several levels of merges. Every 13th point of the
// window by default (about 25 points), every 7th with
// RISKBATCH_LONG_TESTS=1 (about 45).
func TestTiltedMatchesWindow(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(9))
	b, q := randomBetas(rng, 20000, -1, 1.5)
	d := mustNew(t, b, q, options{noFFT: true})
	checked := 0
	stride := testenv.Count(13, 7)
	for v := d.lo; v < d.lo+len(d.pmf); v += stride {
		w := d.windowSurvival(v)
		if w > 1e-2 || !d.reliable(w) {
			continue
		}
		k := v - d.shift
		got := d.logTilted(k, true)
		if math.Abs(got-math.Log(w)) > 1e-12 {
			t.Errorf("v=%d: tilted ln T = %.15g, window ln T = %.15g", v, got, math.Log(w))
		}
		checked++
	}
	for u := d.lo; u < d.lo+len(d.pmf); u += stride {
		w := d.windowCDF(u)
		if w > 1e-2 || !d.reliable(w) {
			continue
		}
		got := d.logTilted(u-d.shift, false)
		if math.Abs(got-math.Log(w)) > 1e-12 {
			t.Errorf("u=%d: tilted ln F = %.15g, window ln F = %.15g", u, got, math.Log(w))
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d points compared", checked)
	}
}

// n = 10^5: the FFT path against the direct divide-and-conquer path (no
// FFT), which the double-double comparison in dc.go's notes shows exact to
// ~1e-16. Survival must agree to 1e-12 and stay above the direct value
// minus its relative round-off. One shape of logits and two far-tail
// points by default, three and four with RISKBATCH_LONG_TESTS=1.
func TestFFTMatchesDirect(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(10))
	shapes := []struct{ shift, scale float64 }{{0, 2}, {-3, 2}, {0, 0.3}}
	if !testenv.Long() {
		shapes = shapes[:1]
	}
	for _, sh := range shapes {
		b, q := randomBetas(rng, 100000, sh.shift, sh.scale)
		f := mustNew(t, b, q, options{})
		g := mustNew(t, b, q, options{noFFT: true})
		if f.fftSlack == 0 {
			t.Fatalf("%+v: the FFT path was not exercised", sh)
		}
		var worst float64
		for v := g.lo - 2; v <= g.lo+len(g.pmf)+2; v++ {
			fv, gv := f.Survival(v), g.windowSurvival(v)
			if v <= 0 {
				gv = 1
			}
			worst = math.Max(worst, math.Abs(f.windowSurvival(v)-g.windowSurvival(v)))
			if math.Abs(fv-gv) > 1e-12 || fv < gv*(1-1e-15)-1e-16 {
				t.Fatalf("%+v: Survival(%d): FFT %.17g, direct %.17g", sh, v, fv, gv)
			}
		}
		for _, c := range []float64{0.05, 0.5, 0.95} {
			if fq, gq := f.Quantile(c), g.Quantile(c); fq != gq {
				t.Errorf("%+v: Quantile(%v): FFT %d, direct %d", sh, c, fq, gq)
			}
		}
		t.Logf("%+v: max |FFT − direct| before allowances = %.3g; FFT allowance %.3g", sh, worst, f.ErrorBound())
		// Far tails: both go through a tilted product (with and without
		// FFT merges); ln T from 1e-8 down to ~1e-10000: the two ends by
		// default, two points between them too in the long run (each
		// point is four tilted products of 10^5 factors).
		sd := math.Sqrt(f.Variance())
		zs := []float64{6, 150}
		if testenv.Long() {
			zs = []float64{6, 12, 40, 150}
		}
		for _, z := range zs {
			v := int(f.Mean() + z*sd)
			u := int(f.Mean() - z*sd)
			if v < f.Len() {
				fv, gv := f.LogSurvival(v), g.LogSurvival(v)
				if math.Abs(fv-gv) > 1e-12*math.Max(1, math.Abs(gv)) {
					t.Errorf("%+v: LogSurvival(%d): FFT %.15g, direct %.15g", sh, v, fv, gv)
				}
			}
			if u > 0 {
				fu, gu := f.LogCDF(u), g.LogCDF(u)
				if math.Abs(fu-gu) > 1e-12*math.Max(1, math.Abs(gu)) {
					t.Errorf("%+v: LogCDF(%d): FFT %.15g, direct %.15g", sh, u, fu, gu)
				}
			}
		}
	}
}

// A far tail of a heterogeneous n = 10^4 distribution: ln Pr[S ≥ n − 1]
// and ln Pr[S ≥ 0.9n] are thousands of nats below the float64 range.
// Pr[S ≥ n − 1] has the closed form Π β_i·(1 + Σ_i q_i/β_i), summed here in
// log space; the 0.9n tail is checked against the log-space DP on a subset
// large enough to be far below 1e-300 yet small enough for O(n²).
func TestDeepLogTails(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	n := 10000
	b, q := randomBetas(rng, n, 0, 1)
	d := mustNew(t, b, q, options{})
	var lprod, odds float64
	for i := range b {
		lprod += math.Log(b[i])
		odds += q[i] / b[i]
	}
	want := lprod + math.Log1p(odds)
	if got := d.LogSurvival(n - 1); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogSurvival(n−1) = %.15g, closed form %.15g", got, want)
	}
	if got := d.LogSurvival(n); math.Abs(got-lprod) > 1e-13*math.Abs(lprod) {
		t.Errorf("LogSurvival(n) = %.15g, Σ ln β = %.15g", got, lprod)
	}
	if want < -2000 {
		t.Logf("ln Pr[S ≥ n−1] = %.6g (≈ 10^%.0f)", want, want/math.Ln10)
	}

	m := 1500
	sub, subq := b[:m], q[:m]
	ds := mustNew(t, sub, subq, options{})
	up, down := refLogTails(refLogDP(sub, subq))
	for _, v := range []int{m * 9 / 10, m * 19 / 20, m - 3} {
		if got := ds.LogSurvival(v); math.Abs(got-up[v]) > 1e-11*math.Abs(up[v]) {
			t.Errorf("m=%d LogSurvival(%d) = %.15g, log DP %.15g", m, v, got, up[v])
		}
	}
	for _, u := range []int{m / 20, 3} {
		if got := ds.LogCDF(u); math.Abs(got-down[u]) > 1e-11*math.Abs(down[u]) {
			t.Errorf("m=%d LogCDF(%d) = %.15g, log DP %.15g", m, u, got, down[u])
		}
	}
}

func TestQuantileConventions(t *testing.T) {
	// Two certain successes, one impossible target and two coins: S ∈ [2, 4].
	b := []float64{1, 1, 0, 0.5, 0.5}
	q := []float64{0, 0, 1, 0.5, 0.5}
	d := mustNew(t, b, q, options{})
	for _, c := range []struct {
		c    float64
		want int
	}{
		{0, 0},    // smallest u with Pr[S ≤ u] ≥ 0 (c = 0 → 0)
		{-1, 0},   // any c ≤ 0
		{0.24, 2}, // Pr[S ≤ 2] = 1/4
		{0.26, 3}, // Pr[S ≤ 3] = 3/4
		{0.74, 3}, //
		{0.76, 4}, //
		{1, 4},    // c = 1 (pure) → #{β_i > 0}
		{1.5, -1}, // no such u
		{math.NaN(), -1},
	} {
		if got := d.Quantile(c.c); got != c.want {
			t.Errorf("Quantile(%v) = %d, want %d", c.c, got, c.want)
		}
	}
	if d.Survival(2) != 1 || d.Survival(5) != 0 || d.CDF(1) != 0 || d.CDF(4) != 1 {
		t.Errorf("shift/exclusion not honoured: %v %v %v %v", d.Survival(2), d.Survival(5), d.CDF(1), d.CDF(4))
	}
	if math.Abs(d.Prob(2)-0.25) > 1e-15 || math.Abs(d.Prob(3)-0.5) > 1e-15 || d.Prob(1) != 0 {
		t.Errorf("Prob = %v %v %v, want 1/4, 1/2, 0", d.Prob(2), d.Prob(3), d.Prob(1))
	}
}

func TestValidation(t *testing.T) {
	for name, c := range map[string]struct{ b, q []float64 }{
		"length":       {[]float64{0.5}, []float64{0.5, 0.5}},
		"NaN":          {[]float64{math.NaN()}, []float64{0.5}},
		"negative":     {[]float64{-0.1}, []float64{1.1}},
		"above one":    {[]float64{1.5}, []float64{-0.5}},
		"infinite":     {[]float64{math.Inf(1)}, []float64{0}},
		"complement":   {[]float64{0.3}, []float64{0.3}},
		"NaN q":        {[]float64{0.3}, []float64{math.NaN()}},
		"inconsistent": {[]float64{0.3}, []float64{0.7 + 1e-9}},
	} {
		if d, err := New(c.b, c.q); err == nil || d != nil {
			t.Errorf("%s: New accepted %v, %v", name, c.b, c.q)
		}
	}
	d, err := New(nil, nil)
	if err != nil {
		t.Fatalf("empty: %v", err)
	}
	if d.Survival(0) != 1 || d.Survival(1) != 0 || d.Quantile(0.5) != 0 || d.Len() != 0 || d.Mean() != 0 {
		t.Errorf("empty distribution is not the point mass at 0")
	}
	if !math.IsInf(d.LogSurvival(1), -1) || d.LogSurvival(0) != 0 || d.LogCDF(0) != 0 || !math.IsInf(d.LogCDF(-1), -1) {
		t.Errorf("empty distribution log tails wrong")
	}
}

// The inputs are read as β_i/(β_i + q_i): a pair that is off by an ulp
// gives the same distribution as the exact complement, and New copies its
// inputs.
func TestInputsCopied(t *testing.T) {
	b := []float64{0.25, 0.75}
	q := []float64{0.75, 0.25}
	d := mustNew(t, b, q, options{})
	b[0], q[0] = 1, 0
	if got := d.Survival(2); math.Abs(got-0.1875) > 1e-15 {
		t.Errorf("Survival(2) = %v after mutating the inputs, want 0.25·0.75 = 0.1875", got)
	}
}

// Double-double arithmetic (Dekker/Knuth two-sum and FMA two-product) for
// a reference ~2^-100 accurate.
type ddNum struct{ hi, lo float64 }

func ddAdd(x, y ddNum) ddNum {
	s := x.hi + y.hi
	bb := s - x.hi
	e := (x.hi - (s - bb)) + (y.hi - bb) + x.lo + y.lo
	h := s + e
	return ddNum{h, e - (h - s)}
}

func ddMul(x ddNum, f float64) ddNum {
	p := x.hi * f
	e := math.FMA(x.hi, f, -p) + x.lo*f
	h := p + e
	return ddNum{h, e - (h - p)}
}

// The whole product against a banded sequential DP in double-double
// (entries below 1e-60 dropped; tails normalised by the DP's own total so
// that both read the inputs as β/(β + q)): the direct path within 1e-15,
// the FFT path within its stated allowance, and Survival never below.
func TestAgainstDoubleDouble(t *testing.T) {
	n := 20000
	if !testenv.Long() {
		n = 4000
	}
	rng := rand.New(rand.NewSource(13))
	b, q := randomBetas(rng, n, 0, 0.3)
	p := []ddNum{{1, 0}}
	lo := 0
	for i := range b {
		np := make([]ddNum, len(p)+1)
		for k := range p {
			np[k] = ddAdd(np[k], ddMul(p[k], q[i]))
			np[k+1] = ddAdd(np[k+1], ddMul(p[k], b[i]))
		}
		s, e := 0, len(np)
		for s < e && np[s].hi < 1e-60 {
			s++
		}
		for e > s && np[e-1].hi < 1e-60 {
			e--
		}
		lo += s
		p = np[s:e]
	}
	tail := make([]ddNum, len(p)+1)
	for j := len(p) - 1; j >= 0; j-- {
		tail[j] = ddAdd(tail[j+1], p[j])
	}
	total := tail[0].hi + tail[0].lo
	ref := func(v int) float64 {
		switch j := v - lo; {
		case j <= 0:
			return 1
		case j >= len(p):
			return 0
		default:
			return (tail[j].hi + tail[j].lo) / total
		}
	}
	for _, o := range []options{{}, {noFFT: true}} {
		d := mustNew(t, b, q, o)
		tol := 1e-15
		if !o.noFFT {
			tol = max(tol, d.ErrorBound())
			if n >= 20000 && d.fftSlack == 0 {
				t.Fatalf("FFT path not exercised")
			}
		}
		var worst float64
		for v := d.lo - 1; v <= d.lo+len(d.pmf)+1; v++ {
			r := ref(v)
			worst = max(worst, math.Abs(d.windowSurvival(v)-r))
			if math.Abs(d.windowSurvival(v)-r) > tol+1e-16 {
				t.Fatalf("noFFT=%v: window tail(%d) = %.17g, double-double %.17g", o.noFFT, v, d.windowSurvival(v), r)
			}
			if s := d.Survival(v); s < r || s > r+1e-12 {
				t.Fatalf("noFFT=%v: Survival(%d) = %.17g, double-double %.17g", o.noFFT, v, s, r)
			}
		}
		t.Logf("n=%d noFFT=%v: max |window tail − double-double| = %.3g (allowance %.3g)", n, o.noFFT, worst, d.ErrorBound())
	}
}
