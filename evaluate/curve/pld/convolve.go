package pld

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"gonum.org/v1/gonum/dsp/fourier"
)

// fftLevelError bounds the relative ℓ2 error that one radix-2 level of the
// FFT adds (Higham 2002, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., Thm 24.2: ‖ŷ − y‖₂ ≤ (log₂N·η/(1 − log₂N·η))·‖y‖₂ with
// η = μ + γ₄(√2 + μ) ≈ 7u for twiddle factors accurate to μ ≈ u). gonum's
// FFTPACK port uses radix-4, 2, 3 and 5 passes with twiddle factors from
// cos/sin of k·2π/N (μ of a few u); 32u per level of log₂N leaves a margin
// of about four over the radix-2 constant. A test measures the actual errors
// against the bound.
const fftLevelError = 32 * numeric.UnitRoundoff

// directConvolutionLimit is the largest len(a)·len(b) convolved directly:
// below it the O(n·m) loop is faster than three transforms, and exact to a
// relative (m + 1)·u per entry.
const directConvolutionLimit = 1 << 15

// convolver convolves non-negative sequences by FFT (gonum.org/v1/gonum/
// dsp/fourier) and bounds the rounding error. It keeps its transforms and
// buffers between calls; it is not safe for concurrent use.
type convolver struct {
	plans map[int]*fourier.FFT
	ca    []complex128
	cb    []complex128
	ra    []float64
	rb    []float64
	ta    []float64 // the tails of the inputs (heads zeroed)
	tb    []float64
}

func newConvolver() *convolver { return &convolver{plans: map[int]*fourier.FFT{}} }

// fastLength returns the smallest 2^a·3^b·5^c ≥ n (at least 2) that
// gonum's FFTPACK port can factor: it stores at most maxFFTFactors factors,
// taking 4s first, then 2, 3 and 5, and indexes out of range beyond that
// (2·3^13 = 3,188,646 panics).
func fastLength(n int) int {
	best := math.MaxInt
	for p5, c := 1, 0; p5 < 2*n+10; p5, c = p5*5, c+1 {
		for p35, b := p5, 0; p35 < 2*n+10; p35, b = p35*3, b+1 {
			v, a := p35, 0
			for v < n {
				v *= 2
				a++
			}
			if a/2+a%2+b+c <= maxFFTFactors && v < best {
				best = v
			}
		}
	}
	return max(best, 2)
}

// maxFFTFactors is the number of factors gonum's FFTPACK port keeps
// (its factor array has 15 entries, two of which hold n and the count).
const maxFFTFactors = 13

// headWidth is the width of the head window that convolve handles directly.
const headWidth = 64

// convolve returns c = a ∗ b for non-negative a and b and a bound on
// ‖ĉ − c‖₁, the ℓ1 norm of its rounding error.
//
// FFT round-off is spread evenly over all N outputs, so its ℓ1 norm grows
// like √N times the ℓ2 norms of the inputs; a PLD concentrated on a few grid
// points with a long thin tail (one step of subsampled DP-SGD) has a large
// ℓ2 norm, and errors made early in a self-composition are repeated by every
// later product. So each input is split into a head, the window of
// headWidth points holding the most of ‖·‖₂², and the rest (the tail):
//
//	a ∗ b = head_a ∗ b + tail_a ∗ head_b + tail_a ∗ tail_b,
//
// the first two directly (each output a sum of ≤ 2·headWidth non-negative
// products, relative error γ_{2·headWidth+2}), the third by FFT, whose
// error bound is then proportional to the tails' small norms. The split is
// skipped when the heads hold less than half of ‖·‖₂² (wide PLDs, where
// the FFT bound is already small).
//
// By FFT of length N ≥ len a + len b − 1, with Γ = fftLevelError·⌈log₂N⌉
// bounding the relative ℓ2 error of each transform and 3u that of the
// complex products, Parseval's identity and ‖Fx‖_∞ ≤ ‖x‖₁ give
//
//	‖ĉ − c‖₂ ≤ 1.01·[(Γ + 3u)·‖a‖₂‖b‖₁ + Γ·‖a‖₁‖b‖₂ + (Γ + u)·‖c‖₂],
//
// ‖c‖₂ ≤ min(‖a‖₁‖b‖₂, ‖a‖₂‖b‖₁) (Young), and ‖ĉ − c‖₁ ≤ √N·‖ĉ − c‖₂. The
// factor 1.01 covers the second-order terms while Γ·√N ≤ 0.01. The result
// may hold tiny negative values; truncate clamps them (which only brings
// them closer to the exact, non-negative values).
func (cv *convolver) convolve(a, b []float64) ([]float64, float64) {
	n := len(a) + len(b) - 1
	if len(a)*len(b) <= directConvolutionLimit || min(len(a), len(b)) <= 16 {
		return directConvolve(a, b)
	}
	size := fastLength(n)
	levels := math.Ceil(math.Log2(float64(size)))
	gamma := fftLevelError * levels
	if gamma*math.Sqrt(float64(size)) > 0.01 {
		return directConvolve(a, b)
	}
	same := len(a) == len(b) && &a[0] == &b[0]
	a0, aShare := headWindow(a)
	b0, bShare := a0, aShare
	if !same {
		b0, bShare = headWindow(b)
	}
	out := make([]float64, size)
	var directSum, fftErr float64
	ta, tb := a, b
	if aShare >= 0.5 && bShare >= 0.5 {
		// Direct head products: head_a ∗ b, then tail_a ∗ head_b.
		a1, b1 := min(a0+headWidth, len(a)), min(b0+headWidth, len(b))
		for i := a0; i < a1; i++ {
			if x := a[i]; x != 0 {
				row := out[i : i+len(b)]
				for j, y := range b {
					row[j] += x * y
				}
			}
		}
		for i, x := range a {
			if x == 0 || (i >= a0 && i < a1) {
				continue
			}
			row := out[i+b0 : i+b1]
			for j, y := range b[b0:b1] {
				row[j] += x * y
			}
		}
		for _, v := range out[:n] {
			directSum += v
		}
		cv.ta = resizeFloat(cv.ta, len(a))
		copy(cv.ta, a)
		clear(cv.ta[a0:a1])
		ta = cv.ta
		if same {
			tb = ta
		} else {
			cv.tb = resizeFloat(cv.tb, len(b))
			copy(cv.tb, b)
			clear(cv.tb[b0:b1])
			tb = cv.tb
		}
	}
	l1a, l2a := norms(ta)
	l1b, l2b := norms(tb)
	if l1a > 0 && l1b > 0 {
		tail := cv.fftConvolve(ta, tb, same, size)
		for i, v := range tail[:n] {
			out[i] += v
		}
		u := numeric.UnitRoundoff
		e2 := 1.01 * ((gamma+3*u)*l2a*l1b + gamma*l1a*l2b + (gamma+u)*math.Min(l1a*l2b, l2a*l1b))
		fftErr = math.Sqrt(float64(size)) * e2
	}
	m := float64(2*headWidth + 2)
	g := m * numeric.UnitRoundoff / (1 - m*numeric.UnitRoundoff)
	bound := g*directSum*1.01 + fftErr*(1+numeric.UnitRoundoff) + numeric.UnitRoundoff*l1a*l1b
	return out[:n:n], nudgeUp(bound, 4)
}

// fftConvolve returns the first len(a) + len(b) − 1 values of the cyclic
// convolution of a and b zero-padded to size (same: b is a).
func (cv *convolver) fftConvolve(a, b []float64, same bool, size int) []float64 {
	plan := cv.plan(size)
	cv.ra = resizeFloat(cv.ra, size)
	cv.ca = resizeComplex(cv.ca, size/2+1)
	copy(cv.ra, a)
	clear(cv.ra[len(a):])
	plan.Coefficients(cv.ca, cv.ra)
	if same {
		for i, x := range cv.ca {
			cv.ca[i] = x * x
		}
	} else {
		cv.rb = resizeFloat(cv.rb, size)
		cv.cb = resizeComplex(cv.cb, size/2+1)
		copy(cv.rb, b)
		clear(cv.rb[len(b):])
		plan.Coefficients(cv.cb, cv.rb)
		for i, x := range cv.cb {
			cv.ca[i] *= x
		}
	}
	plan.Sequence(cv.ra, cv.ca)
	scale := 1 / float64(size)
	n := len(a) + len(b) - 1
	for i := range cv.ra[:n] {
		cv.ra[i] *= scale
	}
	return cv.ra[:n]
}

// headWindow returns the start of the window of headWidth points holding
// the largest part of ‖x‖₂², and that part's share.
func headWindow(x []float64) (start int, share float64) {
	var total, win, best float64
	for i, v := range x {
		total += v * v
		win += v * v
		if i >= headWidth {
			old := x[i-headWidth]
			win -= old * old
		}
		if win > best {
			best, start = win, max(i-headWidth+1, 0)
		}
	}
	if total == 0 {
		return 0, 0
	}
	return start, best / total
}

// directConvolve returns a ∗ b by the O(len a · len b) loop and its ℓ1
// error bound.
func directConvolve(a, b []float64) ([]float64, float64) {
	if len(a) > len(b) {
		a, b = b, a
	}
	c := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		row := c[i : i+len(b)]
		for j, y := range b {
			row[j] += x * y
		}
	}
	var s float64
	for _, x := range c {
		s += x
	}
	m := float64(len(a) + 2)
	g := m * numeric.UnitRoundoff / (1 - m*numeric.UnitRoundoff)
	return c, nudgeUp(g*s*(1+float64(len(c))*numeric.UnitRoundoff)*1.01, 4)
}

// norms returns ‖x‖₁ and ‖x‖₂ of a non-negative x, rounded up.
func norms(x []float64) (l1, l2 float64) {
	var s1, s2 float64
	for _, v := range x {
		s1 += v
		s2 += v * v
	}
	f := 1 + float64(len(x)+2)*numeric.UnitRoundoff
	return s1 * f, math.Sqrt(s2*f) * (1 + numeric.UnitRoundoff)
}

func resizeFloat(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}

func resizeComplex(s []complex128, n int) []complex128 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]complex128, n)
}
