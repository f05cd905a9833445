package bound

import (
	"math"
	"math/rand"
	"testing"

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

// FanoZCDP's search over orders (one a decade, refined by Brent's method
// to about 1e-7 in log10(α − 1)) against FanoOrders' finer one (sixteen a
// decade, refined by golden-section search to 1e-9) over random (ρ, M, prior): the bound on the fine grid is unimodal
// in the order (what the coarse grid relies on), the success bounds agree
// to 1e-14 relative, and the advantages to 1e-14 absolute (relative to
// the advantage they can differ by ~1e-11 where it is tiny beside p* for
// a non-uniform prior: (P − p*)/(1 − p*) cancels there).
func TestFanoZCDPSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	ms := []int{2, 3, 10, 100, 1000, 1e6}
	worst := 0.0
	for i, n := 0, testenv.Count(200, 3000); i < n; i++ {
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
		alpha1, got := pr.zcdp(rho)
		if alpha1.Trivial {
			continue
		}
		fine := fanoOrdersGrid()
		at := pr.zcdpAt(rho)
		prev, rises := math.Inf(1), false
		for j := fine.lo; j <= fine.hi; j++ {
			s := at(float64(j) / float64(fine.perDecade)).Success
			if s > prev {
				rises = true
			} else if s < prev && rises {
				t.Errorf("M = %d, prior %v, ρ = %v: the bound falls again at α = 1 + 10^%v", m, prior != nil, rho, float64(j)/float64(fine.perDecade))
			}
			prev = s
		}
		want := pr.searchOrders(at, alpha1, fine)
		rel := math.Abs(got.Success-want.Success) / want.Success
		worst = math.Max(worst, rel)
		if rel > 1e-14 || math.Abs(got.Advantage-want.Advantage) > 1e-14 {
			t.Errorf("M = %d, prior %v, ρ = %v: success %v advantage %v (order %v), the fine search %v %v (order %v)",
				m, prior != nil, rho, got.Success, got.Advantage, got.Order, want.Success, want.Advantage, want.Order)
		}
	}
	t.Logf("largest relative difference of the success bounds: %.3g", worst)
}
