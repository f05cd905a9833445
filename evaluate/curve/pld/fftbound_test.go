package pld

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// bigPrec is the precision of the reference DFT, far beyond float64's, so
// that its own error (about N·2^−150 of ‖x‖₁) is negligible beside the
// bound under test.
const bigPrec = 192

// bigPi returns π to 60 digits.
func bigPi() *big.Float {
	pi, _, err := big.ParseFloat("3.14159265358979323846264338327950288419716939937510582097494", 10, bigPrec, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return pi
}

// bigCosSin returns cos θ and sin θ for |θ| ≤ π by their Taylor series,
// summed until a term falls below 2^−(bigPrec+8).
func bigCosSin(theta *big.Float) (c, s *big.Float) {
	c, s = new(big.Float).SetPrec(bigPrec).SetInt64(1), new(big.Float).SetPrec(bigPrec).Set(theta)
	t2 := new(big.Float).SetPrec(bigPrec).Mul(theta, theta)
	ct := new(big.Float).SetPrec(bigPrec).SetInt64(1) // θ^{2k}/(2k)!
	st := new(big.Float).SetPrec(bigPrec).Set(theta)  // θ^{2k+1}/(2k+1)!
	for k := int64(1); ; k++ {
		ct.Mul(ct, t2)
		ct.Quo(ct, new(big.Float).SetInt64((2*k-1)*(2*k)))
		ct.Neg(ct)
		st.Mul(st, t2)
		st.Quo(st, new(big.Float).SetInt64((2*k)*(2*k+1)))
		st.Neg(st)
		c.Add(c, ct)
		s.Add(s, st)
		if ct.Sign() == 0 || ct.MantExp(nil) < -(bigPrec+8) {
			return c, s
		}
	}
}

// exactDFT returns the coefficients X_k = Σ_j x_j·e^{−2πi·jk/N}, k = 0 …
// N/2, computed in bigPrec-bit arithmetic and rounded to float64.
func exactDFT(x []float64) []complex128 {
	n := len(x)
	pi := bigPi()
	cosT, sinT := make([]*big.Float, n), make([]*big.Float, n)
	for m := range n {
		r := m
		if 2*r > n {
			r -= n
		}
		theta := new(big.Float).SetPrec(bigPrec).Mul(pi, new(big.Float).SetInt64(int64(2*r)))
		theta.Quo(theta, new(big.Float).SetInt64(int64(n)))
		cosT[m], sinT[m] = bigCosSin(theta)
	}
	out := make([]complex128, n/2+1)
	re, im := new(big.Float).SetPrec(bigPrec), new(big.Float).SetPrec(bigPrec)
	term, xj := new(big.Float).SetPrec(bigPrec), new(big.Float).SetPrec(bigPrec)
	for k := range out {
		re.SetInt64(0)
		im.SetInt64(0)
		for j, v := range x {
			if v == 0 {
				continue
			}
			xj.SetFloat64(v)
			m := (j * k) % n
			re.Add(re, term.Mul(xj, cosT[m]))
			im.Sub(im, term.Mul(xj, sinT[m]))
		}
		r, _ := re.Float64()
		i, _ := im.Float64()
		out[k] = complex(r, i)
	}
	return out
}

// The claim power's and convolve's round-off bounds rest on: gonum's
// forward transform of a sequence of ℓ1 norm s is within Γ·s of the exact
// DFT in every coefficient, Γ = fftLevelError·⌈log₂N⌉. Checked against a
// DFT in 192-bit arithmetic for lengths made of the radix-4, 2, 3 and 5
// passes, on non-negative sequences shaped like a step's PLD (a sharp head
// with thin tails) and uniformly random ones.
func TestFFTCoefficientError(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{48, 360, 1024, 1125} {
		head := make([]float64, n)
		c := rng.IntN(n)
		for i := range head {
			d := float64(i-c) / 6
			head[i] = math.Exp(-d*d/2) + 1e-13*rng.Float64()
		}
		uniform := make([]float64, n)
		for i := range uniform {
			uniform[i] = rng.Float64()
		}
		for _, in := range []struct {
			name string
			x    []float64
		}{{"head", head}, {"uniform", uniform}} {
			name, x := in.name, in.x
			var s float64
			for _, v := range x {
				s += v
			}
			s *= 1 + float64(n)*1.2e-16
			got := fourier.NewFFT(n).Coefficients(nil, x)
			want := exactDFT(x)
			gamma := fftLevelError * math.Ceil(math.Log2(float64(n)))
			var worst float64
			for k := range want {
				d := got[k] - want[k]
				worst = math.Max(worst, math.Hypot(real(d), imag(d)))
			}
			if worst > gamma*s {
				t.Errorf("N = %d %s: coefficient error %.3g above Γ·‖x‖₁ = %.3g", n, name, worst, gamma*s)
			}
			t.Logf("N = %d %s: largest coefficient error %.3g, Γ·‖x‖₁ = %.3g (ratio %.3g)", n, name, worst, gamma*s, worst/(gamma*s))
		}
	}
}
