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
// D_α(p ‖ U)), so c is drawn over (0, ln M).
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
		near0, large := pr.feasibleGuesses(alpha, c)
		got := largestFeasible(d, c, near0, large)
		want := largestFeasibleBisect(func(v float64) bool { oldEvals++; return pr.binaryDivergence(alpha, v) <= c })
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
