package bound

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// References used below and independent of onerun.go and poibin:
// the naive β = e^ε/(e^ε − 1 + 1/p) (fine for ε ≤ 30), brute-force
// enumeration of all 2^n outcomes, the plain O(n²) Poisson-binomial DP of
// Swanberg et al. 2025, and a brute-force LP over the law of F.

// naiveBeta is Thm 3.2's formula as printed (Swanberg et al. 2025, §3.2).
func naiveBeta(eps, p float64) float64 {
	return math.Exp(eps) / (math.Exp(eps) - 1 + 1/p)
}

// enumTails returns T[v] = Pr[Σ Bernoulli(b_i) ≥ v], v = 0..n+1, by
// enumerating all 2^n outcomes (n ≤ 16).
func enumTails(b []float64) []float64 {
	n := len(b)
	pmf := make([]float64, n+1)
	for mask := 0; mask < 1<<n; mask++ {
		pr, k := 1.0, 0
		for i, bi := range b {
			if mask>>i&1 == 1 {
				pr *= bi
				k++
			} else {
				pr *= 1 - bi
			}
		}
		pmf[k] += pr
	}
	t := make([]float64, n+2)
	for k := n; k >= 0; k-- {
		t[k] = t[k+1] + pmf[k]
	}
	return t
}

// dpTails is the O(n²) convex-combination DP, tails summed from the top.
func dpTails(b []float64) []float64 {
	n := len(b)
	p := make([]float64, n+1)
	p[0] = 1
	for i, bi := range b {
		for k := i + 1; k >= 1; k-- {
			p[k] = p[k]*(1-bi) + p[k-1]*bi
		}
		p[0] *= 1 - bi
	}
	t := make([]float64, n+2)
	for k := n; k >= 0; k-- {
		t[k] = t[k+1] + p[k]
	}
	return t
}

// tailAt reads T(v) with T = 1 for v ≤ 0 and 0 for v > n.
func tailAt(t []float64, v int) float64 {
	if v <= 0 {
		return 1
	}
	if v >= len(t) {
		return 0
	}
	return t[v]
}

// lpValue is the primal of the Thm 3.5 LP (its proof in App. B):
// max Σ_j π_j·T(v − j) over laws π of F on {0..n} with E[F] ≤ nδ. The
// objective is linear, so an optimum mixes at most two points; this
// enumerates every single point j ≤ nδ and every pair j1 ≤ nδ < j2 with
// mean exactly nδ.
func lpValue(t []float64, n, v int, nd float64) float64 {
	best := 0.0
	for j := 0; j <= n; j++ {
		if float64(j) <= nd {
			best = max(best, tailAt(t, v-j))
		}
	}
	for j1 := 0; j1 <= n; j1++ {
		for j2 := j1 + 1; j2 <= n; j2++ {
			a, b := float64(j1), float64(j2)
			if a > nd || b <= nd {
				continue
			}
			w2 := (nd - a) / (b - a)
			best = max(best, (1-w2)*tailAt(t, v-j1)+w2*tailAt(t, v-j2))
		}
	}
	return best
}

func mustTail(t *testing.T, eps, delta float64, p []float64) *OneRunTail {
	t.Helper()
	r, err := NewOneRunTail(eps, delta, p)
	if err != nil {
		t.Fatalf("NewOneRunTail(%v, %v): %v", eps, delta, err)
	}
	return r
}

func mustBounds(t *testing.T, r *OneRunTail, b OneRunBound, confs []float64) []int {
	t.Helper()
	u, err := r.SuccessUpperBounds(b, confs)
	if err != nil {
		t.Fatalf("SuccessUpperBounds(%v): %v", b, err)
	}
	return u
}

// β of Thm 3.2 at chosen (p, ε), computed independently in high precision
// (none is printed in the paper; p = 1e-9, ε = 17 is the §3.2 9-digit
// canary, 0.56 the §6.2 'SEX' prior), and 1 − β without
// cancellation: against (1 − p)/((1 − p) + p·e^ε), which has none either.
func TestOneRunFlipCatalog(t *testing.T) {
	for _, c := range betaCatalog {
		b, q := OneRunFlip(c.eps, c.p)
		if !approx.Near(b, c.beta, 1e-11, 0) || math.Abs(b+q-1) > 4e-16 {
			t.Errorf("OneRunFlip(ε=%v, p=%v) = %.12g, %.3g; catalog β %.12g", c.eps, c.p, b, q, c.beta)
		}
	}
	for _, c := range []struct{ p, eps float64 }{{0.999999, 30}, {0.5, 40}, {1e-300, 5}, {0.9, 1e-9}} {
		_, q := OneRunFlip(c.eps, c.p)
		want := (1 - c.p) / ((1 - c.p) + c.p*math.Exp(c.eps))
		if !approx.Near(q, want, 0, 1e-14) {
			t.Errorf("1 − β(ε=%v, p=%v) = %.17g, want %.17g", c.eps, c.p, q, want)
		}
	}
	// Special cases: p = 0 gives β = 0 even at ε = ∞, p = 1 gives 1.
	for _, c := range []struct{ eps, p, b, q float64 }{
		{math.Inf(1), 0, 0, 1}, {3, 0, 0, 1}, {3, 1, 1, 0}, {math.Inf(1), 1e-300, 1, 0},
	} {
		if b, q := OneRunFlip(c.eps, c.p); b != c.b || q != c.q {
			t.Errorf("OneRunFlip(%v, %v) = %v, %v; want %v, %v", c.eps, c.p, b, q, c.b, c.q)
		}
	}
}

// A small vector checkable by hand (Thm 3.5 and Cor 3.4 of Swanberg et al.
// 2025 evaluated on it): β = [0.1, 0.5, 0.9] (ε = 0, so
// β = p), δ = 0.01, n = 3: α_LP(1, 2, 3) = 0.045, 0.455, 0.455; B35 =
// 0.95635, 0.51365, 0.05865; Bcor34 = 0.985, 0.53, 0.075; and its v_UB
// table for pure, Thm 3.5 and Cor 3.4.
func TestOneRunTailSmallVector(t *testing.T) {
	p := []float64{0.1, 0.5, 0.9}
	r := mustTail(t, 0, 0.01, p)
	for i, v := range []int{1, 2, 3} {
		if got, want := r.AlphaLP(v), []float64{0.045, 0.455, 0.455}[i]; !approx.Near(got, want, 1e-13, 0) {
			t.Errorf("α_LP(%d) = %.15g, catalog %v", v, got, want)
		}
		if got, want := r.Thm35(v), []float64{0.95635, 0.51365, 0.05865}[i]; !approx.Near(got, want, 1e-13, 0) || got < want-1e-16 {
			t.Errorf("B35(%d) = %.15g, catalog %v", v, got, want)
		}
		if got, want := r.Cor34(v), []float64{0.985, 0.53, 0.075}[i]; !approx.Near(got, want, 1e-13, 0) || got < want-1e-16 {
			t.Errorf("Bcor34(%d) = %.15g, catalog %v", v, got, want)
		}
	}
	// v ≤ 0 → 1, v > n → 0 with no spurious α term (L ≤ n).
	if r.Thm35(0) != 1 || r.Thm35(4) != 0 || r.Cor34(4) != 0 || r.AlphaLP(4) != 0 || r.Tail(-3) != 1 {
		t.Errorf("edge values: %v %v %v %v %v", r.Thm35(0), r.Thm35(4), r.Cor34(4), r.AlphaLP(4), r.Tail(-3))
	}
	confs := []float64{0.05, 0.5, 0.9, 0.95, 0.99}
	// The v_UB table, computed by hand. Its pure column at c = 0.5 reads 1 because
	// T(2) = 0.5 = 1 − c exactly; Tail carries an upward allowance of a few
	// ulps for round-off, so this exact tie resolves to the conservative 2
	// (any v_UB at or above the exact one is a valid bound).
	wantPure := []int{1, 2, 2, 2, 3}
	want35 := []int{1, 2, 2, 3, 3}
	want34 := []int{1, 2, 2, 3, 3}
	r0 := mustTail(t, 0, 0, p)
	if got := mustBounds(t, r0, OneRunPure, confs); !equalInts(got, wantPure) {
		t.Errorf("pure v_UB = %v, catalog %v (tie at c = 0.5 resolved upwards)", got, wantPure)
	}
	if got := mustBounds(t, r, OneRunThm35, confs); !equalInts(got, want35) {
		t.Errorf("Thm 3.5 v_UB = %v, catalog %v", got, want35)
	}
	if got := mustBounds(t, r, OneRunCor34, confs); !equalInts(got, want34) {
		t.Errorf("Cor 3.4 v_UB = %v, catalog %v", got, want34)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Thm 3.5 of Swanberg et al. 2025: p_i = linspace(0.3, 0.9, 100), ε = 1, δ = 1e-5 →
// v_UB(5%, 50%, 95%) = 72 / 79 / 85 (computed independently with an exact
// Poisson-binomial DP; not a paper value).
func TestOneRunTailHeterogeneousExample(t *testing.T) {
	p := make([]float64, 100)
	var want float64
	for i := range p {
		p[i] = 0.3 + 0.6*float64(i)/99
		want += naiveBeta(1, p[i])
	}
	r := mustTail(t, 1, 1e-5, p)
	confs := []float64{0.05, 0.5, 0.95}
	if got := mustBounds(t, r, OneRunThm35, confs); !equalInts(got, []int{72, 79, 85}) {
		t.Errorf("Thm 3.5 v_UB = %v, catalog 72/79/85", got)
	}
	if got := mustBounds(t, r, OneRunCor34, confs); !equalInts(got, []int{72, 79, 85}) {
		t.Errorf("Cor 3.4 v_UB = %v, catalog (Thm 3.5 values; nδ = 1e-3 moves no threshold) 72/79/85", got)
	}
	if got := r.ExpectedSuccesses(); !approx.Near(got, want, 1e-12, 0) {
		t.Errorf("Σβ = %.15g, naive sum %.15g", got, want)
	}
	if got, err := OneRunExpectedSuccesses(1, p); err != nil || !approx.Near(got, want, 1e-12, 0) {
		t.Errorf("OneRunExpectedSuccesses = %.15g, %v; naive sum %.15g", got, err, want)
	}
}

// Swanberg et al. 2025, §6.2 ('SEX': prior 56%, 95% bound 84), with the
// unknown per-record priors replaced by a homogeneous p = 0.56, n = 100,
// ε = 1, δ = 1e-5: v_UB(5/50/95%) = 71/78/84 for pure DP, Cor 3.4 and Thm
// 3.5; at v = 84, T = 0.07392, α_LP = 0.07782, B35 = 0.074001,
// Bcor34 = 0.074923; at v = 85, T = 0.04389 (5 significant digits;
// computed independently, the paper prints only the 84).
func TestOneRunTailHomogeneousSEX(t *testing.T) {
	p := make([]float64, 100)
	for i := range p {
		p[i] = 0.56
	}
	r := mustTail(t, 1, 1e-5, p)
	r0 := mustTail(t, 1, 0, p)
	confs := []float64{0.05, 0.5, 0.95}
	want := []int{71, 78, 84}
	for _, c := range []struct {
		r *OneRunTail
		b OneRunBound
	}{{r0, OneRunPure}, {r, OneRunCor34}, {r, OneRunThm35}} {
		if got := mustBounds(t, c.r, c.b, confs); !equalInts(got, want) {
			t.Errorf("%v v_UB = %v, catalog %v", c.b, got, want)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"T(84)", r.Tail(84), 0.07392, 5e-6},
		{"α_LP(84)", r.AlphaLP(84), 0.07782, 5e-6},
		{"B35(84)", r.Thm35(84), 0.074001, 5e-7},
		{"Bcor34(84)", r.Cor34(84), 0.074923, 5e-7},
		{"T(85)", r.Tail(85), 0.04389, 5e-6},
	} {
		if !approx.Near(c.got, c.want, c.tol, 0) {
			t.Errorf("%s = %.8g, catalog %v", c.name, c.got, c.want)
		}
	}
}

// Thm 3.5 of Swanberg et al. 2025 with nδ = 1: n = 100, δ = 0.01, p = 0.1, ε = 1 → v_UB(50%)
// = 24 against 23 for pure DP; Cor 3.4 is vacuous there (nδ = 1 → n).
// (computed independently). With n = 1, v = 1, Thm 3.5 = β + (1 − β)δ = 0.231976997 for
// p = 0.1, ε = 1, δ = 1e-5.
func TestOneRunTailLargeDelta(t *testing.T) {
	p := make([]float64, 100)
	for i := range p {
		p[i] = 0.1
	}
	r := mustTail(t, 1, 0.01, p)
	r0 := mustTail(t, 1, 0, p)
	if got := mustBounds(t, r, OneRunThm35, []float64{0.5}); got[0] != 24 {
		t.Errorf("Thm 3.5 v_UB(50%%) = %d, catalog 24", got[0])
	}
	if got := mustBounds(t, r0, OneRunPure, []float64{0.5}); got[0] != 23 {
		t.Errorf("pure v_UB(50%%) = %d, catalog 23", got[0])
	}
	if got := mustBounds(t, r, OneRunCor34, []float64{0.5, 0.05}); !equalInts(got, []int{100, 100}) {
		t.Errorf("Cor 3.4 v_UB = %v, vacuous bound should give n = 100", got)
	}
	one := mustTail(t, 1, 1e-5, []float64{0.1})
	if got := one.Thm35(1); !approx.Near(got, 0.231976997, 5e-10, 0) {
		t.Errorf("n = 1 Thm 3.5 = %.10g, catalog 0.231976997", got)
	}
}

// α_LP against brute force over j, and Thm 3.5 against the brute-force LP
// over the law of F (proof of Thm 3.5, App. B): weak duality B35 ≥ LP always, and
// equality when nδ ≤ 1 (the two-point law F ∈ {0, j*} attains the dual).
// The tails come from enumeration, not from poibin.
func TestOneRunTailLP(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.Intn(8)
		p := make([]float64, n)
		for i := range p {
			p[i] = rng.Float64()
		}
		eps := 3 * rng.Float64()
		delta := math.Pow(10, -3*rng.Float64()) / float64(n) // nδ ∈ (1e-3, 1]
		if trial%4 == 0 {
			delta = min(1, 3*rng.Float64()/float64(n)) // nδ up to 3
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = naiveBeta(eps, p[i])
		}
		tl := enumTails(b)
		r := mustTail(t, eps, delta, p)
		nd := float64(n) * delta
		for v := 1; v <= n; v++ {
			alpha := 0.0
			for j := 1; j <= n; j++ {
				alpha = max(alpha, (tailAt(tl, v-j)-tl[v])/float64(j))
			}
			if got := r.AlphaLP(v); !approx.Near(got, alpha, 1e-12, 0) {
				t.Fatalf("trial %d: α_LP(%d) = %.15g, brute force %.15g", trial, v, got, alpha)
			}
			lp := min(1, lpValue(tl, n, v, nd))
			got := r.Thm35(v)
			if got < lp-1e-13 {
				t.Fatalf("trial %d: B35(%d) = %.15g below the LP optimum %.15g (nδ = %v)", trial, v, got, lp, nd)
			}
			if nd <= 1 && got > lp+1e-12 {
				t.Fatalf("trial %d: B35(%d) = %.15g, LP optimum %.15g (nδ = %v ≤ 1)", trial, v, got, lp, nd)
			}
		}
	}
}

// The hull scan behind SuccessUpperBounds(OneRunThm35) against the
// definition: B35(v) from AlphaLP's direct O(v) loop, its running minimum,
// and the first v where it drops to 1 − c. Includes nδ > 1, where B35 is
// not monotone and the envelope matters.
func TestOneRunTailScanMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	confs := []float64{0, 0.01, 0.05, 0.3, 0.5, 0.8, 0.95, 0.99, 0.999, 1}
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.Intn(300)
		p := make([]float64, n)
		for i := range p {
			p[i] = rng.Float64() * rng.Float64()
		}
		delta := math.Pow(10, -4*rng.Float64()) * 3 / float64(n)
		r := mustTail(t, 2*rng.Float64(), delta, p)
		got := mustBounds(t, r, OneRunThm35, confs)
		for i, c := range confs {
			want, env := n, 1.0
			for v := 1; v <= n; v++ {
				env = min(env, r.Thm35(v))
				if env <= 1-c {
					want = v - 1
					break
				}
			}
			if got[i] != want {
				t.Fatalf("trial %d (n=%d, nδ=%.3g): v_UB(%v) = %d, definition %d", trial, n, float64(n)*delta, c, got[i], want)
			}
		}
	}
}

// Properties (Thm 3.2 and Thm 3.5 of Swanberg et al. 2025): with nδ ≤ 1, B35 is
// non-increasing in v, ≤ Cor 3.4, and non-decreasing in ε and in each p_i
// (it is the LP optimum, increasing in every tail, and tails increase in
// every β); v_UB is non-decreasing in the confidence; ε = 0 gives the
// prior-only Poisson-binomial (checked against the DP on p itself); huge or
// infinite ε gives v_UB = n.
func TestOneRunTailProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	confs := []float64{0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99}
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.Intn(40)
		p := make([]float64, n)
		for i := range p {
			p[i] = 0.01 + 0.98*rng.Float64()
		}
		eps := 4 * rng.Float64()
		delta := rng.Float64() / float64(n)
		r := mustTail(t, eps, delta, p)
		more := mustTail(t, eps+0.1, delta, p)
		i := rng.Intn(n)
		pp := append([]float64(nil), p...)
		pp[i] = min(1, pp[i]+0.05)
		moreP := mustTail(t, eps, delta, pp)
		prev := 1.0
		for v := 0; v <= n+1; v++ {
			b := r.Thm35(v)
			if b > prev+1e-15 {
				t.Fatalf("trial %d: B35 increases from v=%d to %d: %v → %v", trial, v-1, v, prev, b)
			}
			prev = b
			if c := r.Cor34(v); b > c+1e-15 {
				t.Fatalf("trial %d: B35(%d) = %v above Cor 3.4 %v", trial, v, b, c)
			}
			if m := more.Thm35(v); m < b-1e-13 {
				t.Fatalf("trial %d: B35(%d) decreases in ε: %v → %v", trial, v, b, m)
			}
			if m := moreP.Thm35(v); m < b-1e-13 {
				t.Fatalf("trial %d: B35(%d) decreases in p_%d: %v → %v", trial, v, i, b, m)
			}
		}
		for _, kind := range []OneRunBound{OneRunCor34, OneRunThm35} {
			u := mustBounds(t, r, kind, confs)
			for k := 1; k < len(u); k++ {
				if u[k] < u[k-1] {
					t.Fatalf("trial %d: %v v_UB decreases in confidence: %v", trial, kind, u)
				}
			}
		}
		// ε = 0: the prior-only Poisson-binomial.
		r0 := mustTail(t, 0, 0, p)
		ref := dpTails(p)
		for v := 0; v <= n+1; v++ {
			if got := r0.Tail(v); !approx.Near(got, tailAt(ref, v), 1e-13, 0) {
				t.Fatalf("trial %d: ε = 0 tail(%d) = %v, prior-only DP %v", trial, v, got, tailAt(ref, v))
			}
		}
		// Huge and infinite ε: β = 1 for every p > 0 (§6.2, Fig. 5: at ε = ∞
		// the bound reconstructs all n records).
		for _, e := range []float64{1e6, math.Inf(1)} {
			for _, kind := range []OneRunBound{OneRunCor34, OneRunThm35} {
				for k, u := range mustBounds(t, mustTail(t, e, delta, p), kind, confs) {
					if u != n {
						t.Fatalf("trial %d: ε = %v, %v v_UB(%v) = %d, want n = %d", trial, e, kind, confs[k], u, n)
					}
				}
			}
			if u := mustBounds(t, mustTail(t, e, 0, p), OneRunPure, confs); u[0] != n {
				t.Fatalf("trial %d: ε = %v pure v_UB = %v, want n", trial, e, u)
			}
		}
	}
}

// Edge conventions for the confidence (ours; the paper uses 5%, 50%, 95%).
func TestOneRunTailConfidenceEdges(t *testing.T) {
	p := []float64{0.3, 0, 0.6, 0.9}
	r0 := mustTail(t, 1, 0, p)
	r := mustTail(t, 1, 1e-6, p)
	if got := mustBounds(t, r0, OneRunPure, []float64{0, 1}); !equalInts(got, []int{0, 3}) {
		t.Errorf("pure v_UB(0, 1) = %v, want 0 and #{p_i > 0} = 3", got)
	}
	for _, kind := range []OneRunBound{OneRunCor34, OneRunThm35} {
		if got := mustBounds(t, r, kind, []float64{0, 1}); !equalInts(got, []int{0, 4}) {
			t.Errorf("%v v_UB(0, 1) = %v, want 0 and n = 4", kind, got)
		}
	}
	empty := mustTail(t, 1, 0.1, nil)
	if got := mustBounds(t, empty, OneRunThm35, []float64{0.5}); got[0] != 0 || empty.Thm35(1) != 0 || empty.Len() != 0 {
		t.Errorf("no targets: v_UB = %v, B35(1) = %v", got, empty.Thm35(1))
	}
}

func TestOneRunTailValidation(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		p          []float64
	}{
		{-1, 0, []float64{0.5}},
		{math.NaN(), 0, []float64{0.5}},
		{1, -0.1, []float64{0.5}},
		{1, 1.5, []float64{0.5}},
		{1, math.NaN(), []float64{0.5}},
		{1, 0, []float64{0.5, math.NaN()}},
		{1, 0, []float64{1.2}},
		{1, 0, []float64{-0.2}},
	} {
		if r, err := NewOneRunTail(c.eps, c.delta, c.p); err == nil || r != nil {
			t.Errorf("NewOneRunTail(%v, %v, %v) accepted", c.eps, c.delta, c.p)
		}
		if _, err := OneRunExpectedSuccesses(c.eps, c.p); err == nil && c.delta >= 0 && c.delta <= 1 {
			t.Errorf("OneRunExpectedSuccesses(%v, %v) accepted", c.eps, c.p)
		}
	}
	r := mustTail(t, 1, 1e-5, []float64{0.5, 0.2})
	for _, confs := range [][]float64{{math.NaN()}, {1.5}, {-0.1}} {
		if _, err := r.SuccessUpperBounds(OneRunThm35, confs); err == nil {
			t.Errorf("confidence %v accepted", confs)
		}
	}
	if _, err := r.SuccessUpperBounds(OneRunPure, []float64{0.5}); err == nil {
		t.Errorf("Thm 3.2 with δ > 0 accepted")
	}
	if _, err := r.SuccessUpperBounds(OneRunBound(7), []float64{0.5}); err == nil {
		t.Errorf("unknown bound accepted")
	}
	if _, err := OneRunBitLeakage(1, 0); err == nil {
		t.Errorf("α = 0 accepted")
	}
	if _, err := OneRunBitLeakage(-1, 0.5); err == nil {
		t.Errorf("ε < 0 accepted")
	}
	if _, err := OneRunBitLeakage(1, 1.5); err == nil {
		t.Errorf("α > 1 accepted")
	}
	if _, err := OneRunNarcissus(1, 2, 0.5); err == nil {
		t.Errorf("δ = 2 accepted")
	}
	if _, err := OneRunReRo(1, []float64{math.NaN()}); err == nil {
		t.Errorf("NaN prior accepted")
	}
	if _, _, err := OneRunEpsilonProtectMax(math.NaN(), 0, []float64{0.5}); err == nil {
		t.Errorf("NaN target accepted")
	}
}

// Far tails in log space: with all p_i = 0.3, ε = 1 (β = σ(logit 0.3 + 1))
// and n = 5000, ln Pr[S ≥ n] = n·ln β exactly, ≈ 10^-560.
func TestOneRunTailLogTail(t *testing.T) {
	n := 5000
	p := make([]float64, n)
	for i := range p {
		p[i] = 0.3
	}
	r := mustTail(t, 1, 0, p)
	want := float64(n) * math.Log(naiveBeta(1, 0.3))
	if got := r.LogTail(n); !approx.Near(got, want, 0, 1e-13) {
		t.Errorf("LogTail(n) = %.15g, n·ln β = %.15g", got, want)
	}
	if r.LogTail(0) != 0 || !math.IsInf(r.LogTail(n+1), -1) {
		t.Errorf("LogTail edges: %v %v", r.LogTail(0), r.LogTail(n+1))
	}
}

// Speed (not asserted): the dominating distribution of 10^6 heterogeneous
// targets and the Thm 3.5 success bounds at three confidences.
//
//	go test -run '^$' -bench OneRunTail -benchtime 3x -cpu 1 ./evaluate/
func BenchmarkOneRunTail1e6(b *testing.B) {
	rng := rand.New(rand.NewSource(25))
	p := make([]float64, 1000000)
	for i := range p {
		p[i] = rng.Float64()
	}
	confs := []float64{0.05, 0.5, 0.95}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := NewOneRunTail(1, 1e-9, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.SuccessUpperBounds(OneRunThm35, confs); err != nil {
			b.Fatal(err)
		}
	}
}
