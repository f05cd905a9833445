package bound

import (
	"math"
	"math/rand"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/internal/approx"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// largestFeasibleBisect is the bisection largestFeasible replaced, kept as
// its reference: the smallest v ∈ (0, 1] above which ok fails, found by
// bisecting the bit patterns of [0, 1] (64 evaluations at most).
func largestFeasibleBisect(ok func(float64) bool) float64 {
	if ok(1) {
		return 1
	}
	lo, hi := uint64(0), math.Float64bits(1)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(math.Float64frombits(mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Float64frombits(hi)
}

// largestFeasible against the full bisection over random (α, c, M): the
// same bits wherever the predicate is monotone near the answer, and where
// the two differ, each answer is a valid one (d ≤ c just below it, d > c
// at it) and both are within a few ulps. The divergence and the guess are
// those of solve; the prior enters the search only through c (its gap
// D_α(p ‖ U)), so c is drawn over (0, ln M). Half the searches start from
// solve's two estimates, half from one estimate 1e-3 relative off.
func TestLargestFeasibleMatchesBisection(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	ms := []int{2, 3, 10, 100, 1000, 1e6, 1e9}
	n := testenv.Count(20000, 200000)
	same, newEvals, oldEvals := 0, 0, 0
	for i := 0; i < n; i++ {
		m := ms[rng.Intn(len(ms))]
		pr, err := newFanoPrior(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		var alpha float64
		switch rng.Intn(8) {
		case 0:
			alpha = 1
		case 1:
			alpha = math.Inf(1)
		default:
			alpha = 1 + math.Pow(10, -5+9*rng.Float64())
		}
		c := pr.logM * math.Pow(10, -30*math.Pow(rng.Float64(), 3))
		if rng.Intn(10) == 0 {
			c = pr.logM * math.Pow(10, -300*rng.Float64())
		}
		d := func(v float64) float64 { newEvals++; return pr.binaryDivergence(alpha, v) }
		want := largestFeasibleBisect(func(v float64) bool { oldEvals++; return pr.binaryDivergence(alpha, v) <= c })
		near0, large := pr.feasibleGuesses(alpha, c)
		if i%2 == 1 {
			// One guess, as a search over orders passes the answer at a
			// nearby order.
			near0, large = want*(1+1e-3*rng.NormFloat64()), -1
		}
		got := largestFeasible(d, c, near0, large)
		if got == want {
			same++
			continue
		}
		below := math.Nextafter(got, 0)
		if !(pr.binaryDivergence(alpha, below) <= c) || pr.binaryDivergence(alpha, got) <= c {
			t.Fatalf("M = %d, α = %v, c = %v: %v is not the end of a feasible interval (bisection: %v)", m, alpha, c, got, want)
		}
		if ulps := math.Abs(float64(int64(math.Float64bits(got)) - int64(math.Float64bits(want)))); ulps > 16 {
			t.Errorf("M = %d, α = %v, c = %v: %v, bisection %v (%v ulps apart)", m, alpha, c, got, want, ulps)
		}
	}
	t.Logf("%d of %d the same bits; %.1f evaluations a search (bisection %.1f)", same, n, float64(newEvals)/float64(n), float64(oldEvals)/float64(n))
}

// FanoZCDP, which solves for the best order (zcdpTangent), against the
// search over orders it replaced (one a decade, refined by Brent's method
// to about 1e-7 in log10(α − 1), zcdpSearch) and against FanoOrders'
// finer one (sixteen a decade, refined by golden-section search to 1e-9),
// over random (ρ ∈ [1e-6, 10], a fifth in [1e-12, 1e-6], M, prior): the
// bound on the fine grid is unimodal in the order beyond its rounding
// (what solving for a stationary order relies on); FanoZCDP's
// success bound is never above either search's by more than 1e-12
// relative (it may be below: the searches stop at α − 1 = 10⁴) and its
// advantage never above theirs by more than 1e-12 absolute; it is the
// exact Fano solution at its own order (solve at best.Order: never below
// it within 1e-14 relative, both solutions of largestFeasible where the
// computed divergence flickers around c), whose v violates Fano's
// condition at that order; and Newton's method converges in every case
// (no fallback to the search).
func TestFanoZCDPSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	ms := []int{2, 3, 10, 100, 1000, 1e6}
	worst, better, fallbacks, interior := 0.0, 0, 0, 0
	for i, n := 0, testenv.Count(300, 5000); i < n; i++ {
		m := ms[rng.Intn(len(ms))]
		var prior []float64
		if m <= 1000 && rng.Intn(3) == 0 {
			prior = make([]float64, m)
			for k := range prior {
				prior[k] = rng.ExpFloat64()
			}
			sum := fanoSum(0, prior, fanoIdentity)
			for k := range prior {
				prior[k] /= sum
			}
		}
		pr := unwrap[fanoPrior](t)(newFanoPrior(m, prior))
		rho := math.Pow(10, -6+7*rng.Float64())
		if rng.Intn(5) == 0 { // orders beyond the searches' last, 1 + 10⁴
			rho = math.Pow(10, -12+6*rng.Float64())
		}
		alpha1, got := pr.zcdp(rho)
		if alpha1.Trivial {
			continue
		}
		_, v1 := pr.solveFrom(1, rho, 0)
		if _, ok, in := pr.zcdpTangent(rho, v1); !ok {
			fallbacks++
			t.Logf("no convergence: M = %d, prior %v, ρ = %v", m, prior != nil, rho)
		} else if in {
			interior++
		}
		fine := fanoOrdersGrid()
		at := pr.zcdpAt(rho)
		prev, rises := math.Inf(1), false
		for j := fine.lo; j <= fine.hi; j++ {
			s := at(float64(j) / float64(fine.perDecade)).Success
			// Unimodal beyond the rounding of the bound (a few ulps,
			// which is all that moves it near α = 1 for ρ ≈ 1e-12).
			if s > prev*(1+1e-14) {
				rises = true
			} else if s < prev*(1-1e-14) && rises {
				t.Errorf("M = %d, prior %v, ρ = %v: the bound falls again at α = 1 + 10^%v", m, prior != nil, rho, float64(j)/float64(fine.perDecade))
			}
			prev = s
		}
		for _, ref := range []FanoBound{pr.zcdpSearch(rho, alpha1), pr.searchOrders(pr.zcdpAt(rho), alpha1, fine)} {
			rel := (got.Success - ref.Success) / ref.Success
			worst = math.Max(worst, rel)
			if rel > 1e-12 || got.Advantage-ref.Advantage > 1e-12 {
				t.Errorf("M = %d, prior %v, ρ = %v: success %v advantage %v (order %v), a search %v %v (order %v)",
					m, prior != nil, rho, got.Success, got.Advantage, got.Order, ref.Success, ref.Advantage, ref.Order)
			}
			if rel < -1e-12 {
				better++
			}
		}
		own := alpha1
		if got.Order != 1 {
			own = pr.solve(got.Order, math.Nextafter(rho*got.Order, math.Inf(1)))
		}
		if !approx.Near(got.Success, own.Success, 0, 1e-14) || !approx.Near(got.Advantage, own.Advantage, 1e-14, 1e-13) {
			t.Errorf("M = %d, prior %v, ρ = %v: success %v advantage %v at order %v, the Fano solution there %v %v",
				m, prior != nil, rho, got.Success, got.Advantage, got.Order, own.Success, own.Advantage)
		}
		// Validity: the v of the success bound violates Fano's condition
		// at its order, D_α(v) > ρα + D_α(p ‖ U), without the margins.
		a := got.Order
		v := (pr.m*got.Success - 1) / (pr.m - 1)
		g, _ := pr.gap(a)
		if d := pr.binaryDivergence(a, v); !got.Trivial && !(d > rho*a+g) {
			t.Errorf("M = %d, prior %v, ρ = %v: at order %v, v = %v satisfies Fano's condition (D = %v ≤ %v)", m, prior != nil, rho, a, v, d, rho*a+g)
		}
	}
	if fallbacks > 0 {
		t.Errorf("Newton's method did not converge in %d cases", fallbacks)
	}
	t.Logf("largest relative excess of the success bound over a search's: %.3g; %d comparisons below a search's by more than 1e-12; %d interior orders",
		worst, better, interior)
}

// FanoZCDPMI against what the evaluator computed before it (FanoZCDP's
// search over orders, then Algorithm 1 with Theorem 2's mutual information
// where tighter) on random Gaussian rows (μ, M, prior): alpha1 within
// 1e-15 relative (the same Fano solution, up to where the computed
// divergence flickers around c) and best never above the search's by more
// than 1e-12 relative; a NaN or negative mi is an error.
func TestFanoZCDPMI(t *testing.T) {
	rng := rand.New(rand.NewSource(37))
	ms := []int{2, 3, 10, 100, 1000, 1e6}
	for i, n := 0, testenv.Count(300, 3000); i < n; i++ {
		m := ms[rng.Intn(len(ms))]
		var prior []float64
		if m <= 1000 && rng.Intn(3) == 0 {
			prior = approx.RandomPrior(rng, m, 10, rng.ExpFloat64)
		}
		pr := unwrap[fanoPrior](t)(newFanoPrior(m, prior))
		mu := math.Pow(10, -2.5+3*rng.Float64())
		rho := mu * mu / 2
		mi := unwrap[float64](t)(FanoMIGaussian(mu, m, prior))
		alpha1, best := unwrap2(t)(FanoZCDPMI(curve.ZCDP{Rho: rho}, mi, m, prior))
		wantA1, _ := pr.solveFrom(1, rho, 0)
		wantBest := wantA1
		if !wantA1.Trivial {
			wantBest = pr.zcdpSearch(rho, wantA1)
		}
		if thm2 := pr.solve(1, mi); thm2.Success < wantA1.Success {
			wantA1 = thm2
		}
		if wantA1.Success < wantBest.Success {
			wantBest = wantA1
		}
		if !approx.Near(alpha1.Success, wantA1.Success, 0, 1e-15) {
			t.Errorf("M = %d, prior %v, μ = %v: alpha1 %v, before %v", m, prior != nil, mu, alpha1.Success, wantA1.Success)
		}
		if best.Success > wantBest.Success*(1+1e-12) || best.Success > alpha1.Success {
			t.Errorf("M = %d, prior %v, μ = %v: best %v (order %v), before %v (order %v)", m, prior != nil, mu, best.Success, best.Order, wantBest.Success, wantBest.Order)
		}
	}
	for _, mi := range []float64{math.NaN(), -1} {
		if _, _, err := FanoZCDPMI(curve.ZCDP{Rho: 1}, mi, 10, nil); err == nil {
			t.Errorf("FanoZCDPMI with mi = %v: no error", mi)
		}
	}
}
