package pld

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// The FFT exponentiation (cyclicPower) must equal the n-fold convolution
// folded onto its window within its round-off bound, and the window must
// hold all but its Chernoff tail masses: checked against repeated direct
// convolution (exact to a few ulps a term) on one step's PLD of several
// configurations and on random sequences with a sharp head and thin tails.
// It catches only gross errors: a window cut too narrow, or a round-off
// bound far below the actual error. The measured errors are 70–500 times
// below the bound, so a missing term of the bound passes here;
// TestFFTCoefficientError checks the per-coefficient claim the bound
// rests on, and TestPowerProfileAboveDirect the profile's side.
func TestPowerAgainstDirect(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	type input struct {
		name string
		p    []float64
	}
	var inputs []input
	for _, c := range []struct{ sigma, q, h float64 }{{2, 0.01, 2e-3}, {1, 0.05, 1e-2}, {0.8, 0.2, 2e-2}, {3, 1, 5e-3}} {
		m := newSubsampledGaussian(c.sigma, c.q)
		for _, d := range []direction{remove, add} {
			x, err := m.stepPMF(d, c.h, 1e-15, MaxGridPoints)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{fmt.Sprintf("σ=%g q=%g %v", c.sigma, c.q, d), x.probs})
		}
	}
	for k := range 3 {
		p := make([]float64, 150+rng.IntN(200))
		head := rng.IntN(len(p))
		for i := range p {
			d := float64(i-head) / 4
			p[i] = math.Exp(-d*d/2) + 1e-14*rng.Float64()
		}
		inputs = append(inputs, input{fmt.Sprintf("random %d", k), approx.Normalise(p)})
	}
	cv := newConvolver()
	for _, in := range inputs {
		for _, n := range []int{2, 5, 16, 37} {
			var s float64
			for _, v := range in.p {
				s += v
			}
			s *= 1 + 1e-12
			const tau = 1e-16
			got, lo, roundOff, ok := cv.cyclicPower(in.p, s, n, tau)
			if !ok {
				t.Fatalf("%s, n = %d: no window", in.name, n)
			}
			want, directErr := in.p, 0.0
			for range n - 1 {
				var e float64
				want, e = directConvolve(want, in.p)
				directErr += e
			}
			folded := make([]float64, len(got))
			var outside float64
			for r, v := range want {
				if r < lo || r >= lo+len(got) {
					outside += v
				}
				folded[((r-lo)%len(got)+len(got))%len(got)] += v
			}
			var l1 float64
			for j := range got {
				l1 += math.Abs(got[j] - folded[j])
			}
			if l1 > roundOff+directErr {
				t.Errorf("%s, n = %d: ℓ1 error %.3g above the bound %.3g", in.name, n, l1, roundOff)
			}
			if outside > 2*tau*(1+1e-9)+directErr {
				t.Errorf("%s, n = %d: mass %.3g outside the window [%d, %d), more than 2·%g", in.name, n, outside, lo, lo+len(got), tau)
			}
			if n == 37 {
				t.Logf("%s, n = %d: window %d of %d points, ℓ1 error %.3g, bound %.3g", in.name, n, len(got), len(want), l1, roundOff)
			}
		}
	}
}

// complexPow must agree with repeated multiplication.
func TestComplexPow(t *testing.T) {
	c := complex(0.6, -0.7)
	want := complex(1, 0)
	for n := range 40 {
		if got := complexPow(c, n); math.Abs(real(got-want))+math.Abs(imag(got-want)) > 1e-14 {
			t.Errorf("complexPow(%v, %d) = %v, want %v", c, n, got, want)
		}
		want *= c
	}
}

// At the sizes of real compositions (too large for direct convolution),
// the exponentiation and the repeated squaring are two computations of the
// same discrete n-fold composition with independent error bounds. Without
// its slack, each profile is within its slack (the round-off bound) below
// the exact discrete one's, and above it by at most its mass at +∞ and
// the budget of the tails it moved, so the two may differ by no more than
// the sum of those at any ε ≥ 0. A bound
// that misses the exponentiation's actual error, or a window that drops
// mass, shows as a larger gap.
func TestPowerAgainstSquaring(t *testing.T) {
	t.Parallel()
	cases := []Stage{sg(1, 0.004, 3000), sg(0.6, 0.01, 1000), sg(2, 0.001, 10000), sg(0.8, 0.2, 300), sg(3, 1, 50)}
	for _, st := range cases {
		h, _ := autoGridStep([]Stage{st}, DefaultTailMass)
		for _, d := range []direction{remove, add} {
			c := newChain(NewChains(), newConvolver(), st, d, h, DefaultTailMass/2)
			x, err := c.level(0)
			if err != nil {
				t.Fatal(err)
			}
			budget := DefaultTailMass / 8
			p := c.cv.power(x, st.Steps, budget)
			if p == nil {
				t.Fatalf("%+v %v: the exponentiation declined", st, d)
			}
			s, err := c.squaredCompose(st.Steps, budget)
			if err != nil {
				t.Fatal(err)
			}
			pp, sp := p.positivePart(), s.positivePart()
			pProf, sProf := newProfile([2]*lossPMF{pp, pp}, h), newProfile([2]*lossPMF{sp, sp}, h)
			allowed := p.slack + p.inf + s.slack + s.inf + 2*budget
			var gap float64
			last := max(pp.offset+len(pp.probs), sp.offset+len(sp.probs))
			for k := 0; k <= last; k += 3 {
				eps := float64(k) * h
				gap = math.Max(gap, math.Abs((pProf.deltaAt(eps)-p.slack)-(sProf.deltaAt(eps)-s.slack)))
			}
			if gap > allowed {
				t.Errorf("%+v %v: profiles differ by %.3g, more than the bounds allow (%.3g)", st, d, gap, allowed)
			}
			t.Logf("%+v %v: %d / %d points, largest gap %.3g, slack and +∞ %.3g and %.3g", st, d, len(p.probs), len(s.probs), gap, p.slack+p.inf, s.slack+s.inf)
		}
	}
}

// The exponentiation's profile, with its slack and its mass at +∞, must lie
// above the exact discrete n-fold composition's at every grid ε: checked
// against repeated direct convolution (the mass at +∞ carried as n·x.inf,
// an upper bound on the composition's), with no tolerance beyond the
// direct convolutions' own ℓ1 error. The window's upper tail, folded in or
// counted at +∞, and the round-off slack are what keep it above; a power
// that drops either falls below the direct profile.
func TestPowerProfileAboveDirect(t *testing.T) {
	t.Parallel()
	cv := newConvolver()
	for _, c := range []struct{ sigma, q, h float64 }{{0.8, 0.2, 2e-2}, {1, 0.05, 1e-2}, {2, 0.01, 2e-3}} {
		m := newSubsampledGaussian(c.sigma, c.q)
		for _, d := range []direction{remove, add} {
			x, err := m.stepPMF(d, c.h, 1e-15, MaxGridPoints)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{5, 16, 37} {
				want, directErr := x.probs, 0.0
				for range n - 1 {
					var e float64
					want, e = directConvolve(want, x.probs)
					directErr += e
				}
				direct := &lossPMF{offset: n * x.offset, probs: want, inf: float64(n) * x.inf}
				dp := direct.positivePart()
				dProf := newProfile([2]*lossPMF{dp, dp}, c.h)
				for _, budget := range []float64{1e-4, 1e-8} {
					p := cv.power(x, n, budget)
					if p == nil {
						t.Fatalf("σ=%g q=%g %v n=%d budget=%g: the exponentiation declined", c.sigma, c.q, d, n, budget)
					}
					pp := p.positivePart()
					pProf := newProfile([2]*lossPMF{pp, pp}, c.h)
					last := max(pp.offset+len(pp.probs), dp.offset+len(dp.probs)) + 1
					var worst float64
					for k := 0; k <= last; k++ {
						eps := float64(k) * c.h
						worst = math.Max(worst, dProf.deltaAt(eps)-directErr-pProf.deltaAt(eps))
					}
					if worst > 0 {
						t.Errorf("σ=%g q=%g %v n=%d budget=%g: power below the direct δ by %.3g", c.sigma, c.q, d, n, budget, worst)
					}
				}
			}
		}
	}
}
