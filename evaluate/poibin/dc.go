package poibin

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"gonum.org/v1/gonum/dsp/fourier"
)

// Divide-and-conquer product of the per-target polynomials q_i + β_i·x.
//
// Leaves of leafSize targets are multiplied out by the sequential DP
// new[k] = q·old[k] + β·old[k−1], a convex combination with no
// cancellation. Neighbouring blocks are then merged pairwise, level by level.
// A merge is a convolution computed either directly (sums of non-negative
// products: every entry keeps its relative precision) or, when both blocks
// are wide enough that the direct O(la·lb) sum would cost more, with a real
// FFT (gonum dsp/fourier) of a smooth length N = 2^a·3^b·5^c ≥ la + lb − 1.
//
// Truncation. A block of independent Bernoullis with mean μ and variance σ²
// satisfies Bernstein's inequality (|S_i − β_i| ≤ 1):
//
//	Pr[S − μ ≥ t] ≤ exp(−t²/(2(σ² + t/3))),  and the same for μ − S,
//
// so with t = L/3 + √(L²/9 + 2Lσ²) each side outside [μ − t, μ + t] holds at
// most e^{−L} of the *exact* block's mass, whatever round-off the computed
// entries carry. Every merge keeps only that window (L = truncLog, e^{−L} ≈
// 2e-22) and adds e^{−L} per cut side to a running bound on the dropped mass.
// Because the exact block is (kept part) + (a non-negative remainder whose
// mass is at most the running bound), every tail of the exact distribution
// lies in [kept tail, kept tail + dropped]. Windows have width ≈ 2·(√(2L)σ +
// 2L/3), i.e. ≈ 20σ + 34, which is what makes n = 10^6 fast: the top merges
// are of arrays of a few thousand entries, not 10^6.
//
// Mass conservation. Every leaf and every merged window is rescaled to unit
// (compensated) sum. For a leaf this reads each input pair as
// (β_i, q_i)/(β_i + q_i), removing the bias Σ_i(β_i + q_i − 1) of inputs
// that are complementary only to an ulp (≈ 5e-13 at n = 10^6 otherwise);
// for a merge it removes the DC part of the FFT round-off, which is
// systematic (unnormalised, ~2000 FFT merges at n = 10^6 drifted the total
// mass by +3e-12). A window holds ≥ 1 − 2e^{−L} of the exact mass, so the
// rescaling moves entries up by at most that and the bracket
// [kept tail − dropped, kept tail + dropped] still holds.

const (
	leafSize = 16
	// truncLog is L in the Bernstein window; e^{−50} ≈ 1.9e-22 per cut side.
	truncLog     = 50.0
	unitRoundoff = 0x1p-53
	// fftTailFactor is the allowance per FFT merge in units of
	// u·√(log₂N), about four times the largest error measured.
	fftTailFactor = 4
)

// block is the (truncated) distribution of a sum of some of the Bernoullis:
// p[j] ≈ Pr[S_block = lo + j].
type block struct {
	lo   int
	p    []float64
	mean float64
	vari float64
}

// builder holds the scratch space and error bookkeeping of one product.
type builder struct {
	noFFT bool
	ffts  map[int]*fourier.FFT

	bufA, bufB []float64
	cA, cB     []complex128

	// dropped bounds the exact mass removed by truncation.
	dropped float64
	// fftTail bounds the FFT round-off in any tail sum (see fftMerge).
	fftTail float64
	// fftUsed counts FFT merges.
	fftUsed int
}

// product returns the truncated distribution of Σ Bernoulli(beta[i]) with
// complements q[i] (len(beta) ≥ 1, every entry in (0, 1]).
func (b *builder) product(beta, q []float64) block {
	blocks := make([]block, 0, (len(beta)+leafSize-1)/leafSize)
	for i := 0; i < len(beta); i += leafSize {
		j := min(i+leafSize, len(beta))
		blocks = append(blocks, leaf(beta[i:j], q[i:j]))
	}
	for len(blocks) > 1 {
		next := blocks[:0]
		for i := 0; i < len(blocks); i += 2 {
			if i+1 == len(blocks) {
				next = append(next, blocks[i])
				continue
			}
			next = append(next, b.merge(blocks[i], blocks[i+1]))
		}
		blocks = next
	}
	return blocks[0]
}

// leaf multiplies out q_i + β_i·x for a few targets by the sequential DP.
func leaf(beta, q []float64) block {
	p := make([]float64, 1, len(beta)+1)
	p[0] = 1
	var mean, vari float64
	for i, bi := range beta {
		qi := q[i]
		p = append(p, 0)
		for k := len(p) - 1; k >= 1; k-- {
			p[k] = p[k]*qi + p[k-1]*bi
		}
		p[0] *= qi
		mean += bi
		vari += bi * qi
	}
	normalize(p)
	return block{lo: 0, p: p, mean: mean, vari: vari}
}

// normalize rescales p to unit (compensated) sum; see "Mass conservation"
// above.
func normalize(p []float64) {
	var s numeric.Sum
	for _, v := range p {
		s.Add(v)
	}
	if t := s.Value(); t > 0 && t != 1 {
		f := 1 / t
		for i := range p {
			p[i] *= f
		}
	}
}

// window returns the Bernstein window [lo, hi] (clamped to [full0, full1])
// for a block of the given mean and variance, and how many sides were cut.
func window(mean, vari float64, full0, full1 int) (lo, hi, cut int) {
	const l = truncLog
	t := l/3 + math.Sqrt(l*l/9+2*l*vari) + 1 // +1 covers round-off in mean, vari
	lo, hi = full0, full1
	if f := math.Ceil(mean - t); f > float64(full0) {
		lo = int(f)
		cut++
	}
	if f := math.Floor(mean + t); f < float64(full1) {
		hi = int(f)
		cut++
	}
	return lo, hi, cut
}

// merge convolves two blocks and truncates the result to its window.
func (b *builder) merge(x, y block) block {
	mean, vari := x.mean+y.mean, x.vari+y.vari
	full0 := x.lo + y.lo
	full1 := full0 + len(x.p) + len(y.p) - 2
	lo, hi, cut := window(mean, vari, full0, full1)
	b.dropped += float64(cut) * math.Exp(-truncLog)
	out := make([]float64, hi-lo+1)
	la, lb := len(x.p), len(y.p)
	if b.noFFT || directCheaper(la, lb, len(out)) {
		directMerge(out, lo-full0, x.p, y.p)
	} else {
		b.fftMerge(out, lo-full0, x.p, y.p)
	}
	normalize(out)
	return block{lo: lo, p: out, mean: mean, vari: vari}
}

// directCheaper compares the cost of the direct convolution restricted to
// an output window of length w (≈ 0.45 ns per multiply-add) with that of
// three real FFTs of the padded length N (≈ 12 ns·N·log₂N in all); the
// constants were measured with BenchmarkMerge on amd64.
func directCheaper(la, lb, w int) bool {
	direct := float64(min(la*lb, w*min(la, lb)))
	n := float64(smoothSize(la + lb - 1))
	fft := 27*n*math.Log2(n) + 4000
	return direct <= fft
}

// directMerge writes (a*b)[off+k] into out[k] for k = 0..len(out)−1.
// Each output is a dot product of a with b reversed, summed in four
// independent chains (for speed); all products are of non-negative numbers
// (up to earlier FFT noise), so every output keeps its relative precision.
func directMerge(out []float64, off int, a, b []float64) {
	la, lb := len(a), len(b)
	br := make([]float64, lb)
	for j, v := range b {
		br[lb-1-j] = v
	}
	for k := range out {
		c := k + off // index into the full convolution
		i0 := max(0, c-lb+1)
		i1 := min(la-1, c)
		if i0 > i1 {
			out[k] = 0
			continue
		}
		// b[c − i] = br[lb − 1 − c + i]
		aa := a[i0 : i1+1]
		bb := br[lb-1-c+i0:]
		bb = bb[:len(aa)]
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= len(aa); i += 4 {
			s0 += aa[i] * bb[i]
			s1 += aa[i+1] * bb[i+1]
			s2 += aa[i+2] * bb[i+2]
			s3 += aa[i+3] * bb[i+3]
		}
		for ; i < len(aa); i++ {
			s0 += aa[i] * bb[i]
		}
		out[k] = (s0 + s1) + (s2 + s3)
	}
}

// smoothSize returns the smallest 2^a·3^b·5^c ≥ n, a length for which
// gonum's FFTPACK-based transform uses only its fast radices.
func smoothSize(n int) int {
	if n <= 1 {
		return 1
	}
	best := math.MaxInt
	for p5 := 1; p5 < best; p5 *= 5 {
		for p35 := p5; p35 < best; p35 *= 3 {
			s := p35
			for s < n {
				s *= 2
			}
			if s < best {
				best = s
			}
		}
	}
	return best
}

// fftMerge computes the window of a*b with a real FFT of smooth length
// N ≥ la + lb − 1 (a linear, not circular, convolution).
//
// Round-off. The FFT error of a product of probability vectors has two
// parts. High-frequency noise, ‖e‖₂ ≈ u·√(log₂N)·(2‖a‖₂‖b‖₂ + ‖a*b‖₂)
// (u = 2^-53; the random-rounding model of Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., §24.1, and Higham & Mary, SIAM J. Sci.
// Comput. 41(5), 2019), is ~1e-17 and hardly moves tail sums. The part
// that matters is smooth: errors in the low-frequency coefficients, which
// are O(1) because |A_0| = Σa = 1, spread over many outputs with one sign,
// so a tail sum Σ_{k≥v} e_k can reach ≈ u·√(log₂N) (measured: 1.0–1.2 of
// that on products of Poisson-binomial blocks with N = 960…7200, against a
// direct convolution). Later convolutions with probability vectors do not
// amplify tail errors, and each block is renormalised to unit mass after
// every merge, which removes the DC part of the error. The builder adds
// fftTailFactor·u·√(log₂N) per FFT merge to fftTail, i.e. it assumes the
// worst case in which all merges err coherently in the same direction;
// measured end-to-end errors (n = 10^6, ~240 FFT merges: ≤ 8e-15) grow like
// the square root of the number of merges instead, an order of magnitude
// below the allowance.
func (b *builder) fftMerge(out []float64, off int, a, bb []float64) {
	la, lb := len(a), len(bb)
	n := smoothSize(la + lb - 1)
	f := b.ffts[n]
	if f == nil {
		if b.ffts == nil {
			b.ffts = make(map[int]*fourier.FFT)
		}
		f = fourier.NewFFT(n)
		b.ffts[n] = f
	}
	if cap(b.bufA) < n {
		b.bufA = make([]float64, n)
		b.bufB = make([]float64, n)
	}
	bufA, bufB := b.bufA[:n], b.bufB[:n]
	copy(bufA, a)
	clear(bufA[la:])
	copy(bufB, bb)
	clear(bufB[lb:])
	nc := n/2 + 1
	if cap(b.cA) < nc {
		b.cA = make([]complex128, nc)
		b.cB = make([]complex128, nc)
	}
	ca := f.Coefficients(b.cA[:nc], bufA)
	cb := f.Coefficients(b.cB[:nc], bufB)
	for k := range ca {
		ca[k] *= cb[k]
	}
	seq := f.Sequence(bufA, ca)
	scale := 1 / float64(n)
	for k := range out {
		out[k] = seq[k+off] * scale
	}
	b.fftTail += fftTailFactor * unitRoundoff * math.Sqrt(math.Log2(float64(n)))
	b.fftUsed++
}
