package poibin

import (
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// bigBinomial returns the exact binomial point masses of Bin(n, β'),
// β' = b/(b + q) taken from the float64 inputs, in 256-bit big.Float:
// pmf_0 = q'^n, pmf_{k+1} = pmf_k·(n − k)/(k + 1)·b/q. big.Float's exponent
// range covers tails like 1e-50000 without underflow.
func bigBinomial(n int, b, q float64) []*big.Float {
	const prec = 256
	nb := new(big.Float).SetPrec(prec).SetFloat64(b)
	nq := new(big.Float).SetPrec(prec).SetFloat64(q)
	sum := new(big.Float).SetPrec(prec).Add(nb, nq)
	nq.Quo(nq, sum)
	ratio := new(big.Float).SetPrec(prec).SetFloat64(b)
	ratio.Quo(ratio, new(big.Float).SetPrec(prec).SetFloat64(q))
	p0 := new(big.Float).SetPrec(prec).SetInt64(1)
	base := new(big.Float).SetPrec(prec).Set(nq)
	for e := n; e > 0; e >>= 1 {
		if e&1 == 1 {
			p0.Mul(p0, base)
		}
		base.Mul(base, base)
	}
	pmf := make([]*big.Float, n+1)
	pmf[0] = p0
	for k := 0; k < n; k++ {
		x := new(big.Float).SetPrec(prec).Mul(pmf[k], ratio)
		x.Mul(x, new(big.Float).SetPrec(prec).SetInt64(int64(n-k)))
		x.Quo(x, new(big.Float).SetPrec(prec).SetInt64(int64(k+1)))
		pmf[k+1] = x
	}
	return pmf
}

// bigLog returns ln x for a positive big.Float of any magnitude.
func bigLog(x *big.Float) float64 {
	if x.Sign() <= 0 {
		return math.Inf(-1)
	}
	mant := new(big.Float)
	exp := x.MantExp(mant)
	f, _ := mant.Float64()
	return math.Log(f) + float64(exp)*math.Ln2
}

// addBig sets acc = acc + x, skipping the exact alignment when the two
// differ by more than 2^400 (then the 256-bit rounded sum is the larger
// one; big.Float would otherwise shift through the whole gap).
func addBig(acc, x *big.Float) {
	if acc.Sign() != 0 && x.Sign() != 0 {
		ea, ex := acc.MantExp(nil), x.MantExp(nil)
		if ea-ex > 400 {
			return
		}
		if ex-ea > 400 {
			acc.Set(x)
			return
		}
	}
	acc.Add(acc, x)
}

// bigTails returns ln Pr[S ≥ v] for v = 0..n+1 and ln Pr[S ≤ u] for
// u = 0..n, summed exactly.
func bigTails(pmf []*big.Float) (up, down []float64) {
	n := len(pmf) - 1
	up = make([]float64, n+2)
	up[n+1] = math.Inf(-1)
	acc := new(big.Float).SetPrec(256)
	for k := n; k >= 0; k-- {
		addBig(acc, pmf[k])
		up[k] = bigLog(acc)
	}
	down = make([]float64, n+1)
	acc = new(big.Float).SetPrec(256)
	for k := 0; k <= n; k++ {
		addBig(acc, pmf[k])
		down[k] = bigLog(acc)
	}
	return up, down
}

// The binomial path (all β equal) against exact big.Float sums: point
// masses to 4e-15·max(10, |ln Pr|) relative (Loader's saddle-point form),
// Survival to 1e-12
// absolute and never below, log tails to 1e-12 relative of the tail down
// to tails like 1e-30000.
func TestBinomialAgainstBigFloat(t *testing.T) {
	cases := []struct {
		n    int
		b, q float64
	}{
		{1, 0.25, 0.75},
		{17, 0.5, 0.5},
		{1000, 0.25, 0.75},
		{1000, 1e-3, 1 - 1e-3},
		{2000, 0.999, 1 - 0.999},
		{100000, 0.375, 0.625},
		{100000, 3e-6, 1 - 3e-6},
		{5000, 0.05, 1 - 0.05},
	}
	for _, c := range cases {
		if !testenv.Long() && c.n > 2000 {
			continue
		}
		bs := make([]float64, c.n)
		qs := make([]float64, c.n)
		for i := range bs {
			bs[i], qs[i] = c.b, c.q
		}
		d := mustNew(t, bs, qs, options{})
		if !d.homog {
			t.Fatalf("n=%d β=%v: binomial path not taken", c.n, c.b)
		}
		pmf := bigBinomial(c.n, c.b, c.q)
		up, down := bigTails(pmf)
		step := max(1, c.n/400)
		for k := 0; k <= c.n; k += step {
			want := bigLog(pmf[k])
			if want < -700 {
				continue
			}
			// Loader's log mass has an absolute error of a few ulps of
			// its largest term, ≈ |ln Pr|.
			got := d.Prob(k)
			if math.Abs(got-math.Exp(want)) > 4e-15*math.Max(10, -want)*math.Exp(want) {
				t.Fatalf("n=%d β=%v: Prob(%d) = %.17g, exact %.17g", c.n, c.b, k, got, math.Exp(want))
			}
		}
		for v := 0; v <= c.n+1; v += step {
			want := math.Exp(up[v])
			got := d.Survival(v)
			if math.Abs(got-want) > 1e-12 || got < want {
				t.Fatalf("n=%d β=%v: Survival(%d) = %.17g, exact %.17g", c.n, c.b, v, got, want)
			}
			lg := d.LogSurvival(v)
			if math.IsInf(up[v], -1) {
				if !math.IsInf(lg, -1) {
					t.Fatalf("n=%d: LogSurvival(%d) = %v, want −Inf", c.n, v, lg)
				}
				continue
			}
			if math.Abs(lg-up[v]) > 1e-12*math.Max(1, math.Abs(up[v])) {
				t.Fatalf("n=%d β=%v: LogSurvival(%d) = %.15g, exact %.15g", c.n, c.b, v, lg, up[v])
			}
			if v <= c.n {
				if lc := d.LogCDF(v); math.Abs(lc-down[v]) > 1e-12*math.Max(1, math.Abs(down[v])) {
					t.Fatalf("n=%d β=%v: LogCDF(%d) = %.15g, exact %.15g", c.n, c.b, v, lc, down[v])
				}
			}
		}
		if c.n >= 1000 {
			t.Logf("n=%d β=%v: ln Pr[S ≥ n] = %.6g (10^%.0f)", c.n, c.b, d.LogSurvival(c.n), d.LogSurvival(c.n)/math.Ln10)
		}
	}
}

// A second, independent route for the binomial tail: Pr[S ≥ v] =
// I_β(v, n − v + 1), gonum's regularized incomplete beta function. Its own
// absolute error reaches 3.1e-12 at n = 5000, β = 0.05 (measured against
// the big.Float sums above, where this package's error is 1.1e-13, nearly
// all of it the deliberate upward allowance), so the comparison is at 5e-12
// and this is why the binomial path does not use RegIncBeta.
func TestBinomialAgainstRegIncBeta(t *testing.T) {
	for _, c := range []struct {
		n int
		b float64
	}{{50, 0.3}, {1000, 0.5}, {5000, 0.05}} {
		bs := make([]float64, c.n)
		qs := make([]float64, c.n)
		for i := range bs {
			bs[i], qs[i] = c.b, 1-c.b
		}
		d := mustNew(t, bs, qs, options{})
		for v := 1; v <= c.n; v++ {
			want := mathext.RegIncBeta(float64(v), float64(c.n-v+1), c.b)
			if got := d.Survival(v); math.Abs(got-want) > 5e-12 {
				t.Fatalf("n=%d β=%v: Survival(%d) = %.17g, I_β = %.17g", c.n, c.b, v, got, want)
			}
		}
	}
}

// The binomial path against the general divide-and-conquer path on the
// same equal β (forced through the unexported option).
func TestBinomialMatchesProduct(t *testing.T) {
	n := 20000
	b, q := sigmoidPair(0.4)
	bs := make([]float64, n)
	qs := make([]float64, n)
	for i := range bs {
		bs[i], qs[i] = b, q
	}
	h := mustNew(t, bs, qs, options{})
	g := mustNew(t, bs, qs, options{noBinomial: true})
	if !h.homog || g.homog {
		t.Fatalf("paths not as requested")
	}
	for v := 0; v <= n; v++ {
		if hv, gv := h.Survival(v), g.Survival(v); math.Abs(hv-gv) > 1e-12 {
			t.Fatalf("Survival(%d): binomial %.17g, product %.17g", v, hv, gv)
		}
	}
	for _, v := range []int{n / 2, n * 3 / 4, n - 10, n} {
		if hv, gv := h.LogSurvival(v), g.LogSurvival(v); math.Abs(hv-gv) > 1e-10*math.Abs(gv) {
			t.Errorf("LogSurvival(%d): binomial %.15g, product (tilted) %.15g", v, hv, gv)
		}
	}
}

// stirlerr's table and series against two facts that follow from its
// definition stirlerr(k) = ln k! − (k + ½)ln k + k − ½ln(2π):
// stirlerr(1) = 1 − ½ln(2π), and the one-step difference
// stirlerr(k + 1) − stirlerr(k) = 1 − (k + ½)·log1p(1/k), which is
// evaluated with ~1e-16 absolute error. bd0(x, np) = x ln(x/np) + np − x
// against the same expression written with log1p.
func TestLoaderPieces(t *testing.T) {
	if got, want := stirlerr(1), 1-0.5*ln2Pi; math.Abs(got-want) > 1e-16 {
		t.Errorf("stirlerr(1) = %.17g, want 1 − ½ln 2π = %.17g", got, want)
	}
	for k := 1; k <= 2000; k++ {
		kf := float64(k)
		want := 1 - (kf+0.5)*math.Log1p(1/kf)
		if got := stirlerr(k+1) - stirlerr(k); math.Abs(got-want) > 1e-15 {
			t.Errorf("stirlerr(%d) − stirlerr(%d) = %.17g, want %.17g", k+1, k, got, want)
		}
	}
	for _, c := range [][2]float64{{10, 3}, {3, 10}, {1e6, 2e6}, {5, 5}, {1000.5, 1000}, {999, 1000}, {1, 1e-300}} {
		x, np := c[0], c[1]
		want := x*math.Log1p((x-np)/np) - (x - np)
		if x < np/2 || x > 2*np {
			want = x*math.Log(x/np) + np - x
		}
		if got := bd0(x, np); math.Abs(got-want) > 1e-11*math.Max(want, 1e-300) {
			t.Errorf("bd0(%v, %v) = %.17g, want %.17g", x, np, got, want)
		}
	}
}
