package pld

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"gonum.org/v1/gonum/dsp/fourier"
)

// minPowerPoints is the fewest grid points of a step's PLD that power
// composes by one FFT exponentiation; smaller ones (the atoms of Laplace,
// randomized response and (ε, δ) stages) are composed by repeated
// squaring, whose products of short sequences are direct and exact to a
// few ulps.
const minPowerPoints = 2 * headWidth

// power returns the PLD of n ≥ 2 compositions of x by one FFT
// exponentiation (dp_accounting's self-convolution by FFT, with the
// aliasing and round-off bounded and carried in the slack): the finite
// part of x is folded onto a cycle of N points, transformed once, raised
// to the n-th power coefficient by coefficient and transformed back, which
// is the n-fold cyclic convolution. The window of N points is chosen by
// Chernoff bounds on the finite part's n-fold sum S (in grid indices),
//
//	mass(S ≥ a) ≤ e^{−ta}·M(t)^n,  mass(S ≤ b) ≤ e^{tb}·M(−t)^n,  M(t) = Σ_i x_i·e^{t·i},
//
// so that the mass outside it is at most budget/4 at each end. That mass
// is either folded into the window (adding non-negative mass, which only
// raises δ) or, for the upper end, counted at +∞; the lower end's is added
// to the slack. The result is then truncated as compose truncates, with
// budget/2 and the round-off bound.
//
// Round-off: the forward transform of a sequence of ℓ1 norm s has an
// error of at most e = Γ·s in every coefficient, Γ = fftLevelError·⌈log₂N⌉
// (each output of the Cooley–Tukey factorisation is one sum over a single
// path per input, of unit-modulus twiddles, so the product of the
// factors' absolute values is the all-ones matrix and the componentwise
// bound is Γ·‖x‖₁; Higham 2002, §24.1). Then
//
//	|X̂_k^n − X_k^n| ≤ n·e·(|X̂_k| + e)^{n−1},
//
// and the power's own rounding adds ρ·|X̂_k|^n: binary exponentiation
// squares c^(2^(j−1)) into c^(2^j), each complex product within √5·u of
// the exact one (Brent, Percival & Zimmermann 2007), so the relative
// error of c^(2^j) is at most (2^j − 1)·√5·u (a squaring doubles the
// relative error it is given), and that of the product of the powers of
// the set bits of n at most (n − 1)·√5·u plus √5·u a product, to first
// order; compounded, ρ = 1.01·(e^{3(n + 2)u} − 1) bounds it. The ℓ1 norm of the inverse transform of those errors D_k is
// at most ‖D‖₂ (Parseval with the 1/N scale, and ‖·‖₁ ≤ √N·‖·‖₂), and the
// inverse transform's own error is at most 1.01·(Γ + u)·‖Ŷ‖₂ in ℓ1. Where
// the composed PLD is wide, |X_k|^{n−1} is small but for a few k near 0,
// so the bound is about n·Γ·√N·‖x^{∗(n−1)}‖₂ ≈ n·Γ·√(N/w) for a composed
// width of w points: n times one transform's error, not the step's
// √N·‖x‖₂.
//
// It returns nil when the window would exceed MaxGridPoints or the error
// bound is not small (Γ·√N > 0.01); the caller then composes by squaring.
func (cv *convolver) power(x *lossPMF, n int, budget float64) *lossPMF {
	if n < 2 || len(x.probs) < 2 {
		return nil
	}
	tau := budget / 4
	s := x.finiteMass()
	probs, lo, roundOff, ok := cv.cyclicPower(x.probs, s, n, tau)
	if !ok {
		return nil
	}
	nf := float64(n)
	// n-fold bookkeeping of compose: with M = max(s + inf, 1), the masses
	// at +∞ and the slacks of k-fold products stay below k·inf·M^{k−1}
	// and k·slack·M^{k−1} (compose: inf' = inf_a·M + s_a·inf_b,
	// slack' = slack_a + slack_b·(s_a + inf_a), s_a + inf_a ≤ M^k).
	grow := math.Pow(math.Max(s+x.inf, 1), nf-1) * (1 + 1e-10)
	c := &lossPMF{
		offset: n*x.offset + lo,
		probs:  probs,
		inf:    nudgeUp(nf*x.inf*grow+tau, 4),
		slack:  nudgeUp(nf*x.slack*grow+roundOff+tau, 4),
	}
	c.truncate(budget/2+roundOff, budget/2+roundOff)
	return c
}

// cyclicPower returns the n-fold convolution of p (of ℓ1 norm at most s)
// read on a window of grid indices lo … lo + len(out) − 1 of the sum of
// indices, with the mass outside [lo, lo + len(out)) folded in (at most
// tau at each end), and a bound on the ℓ1 norm of its round-off (see
// power); ok is false when the window is too large for a bounded error.
func (cv *convolver) cyclicPower(p []float64, s float64, n int, tau float64) (out []float64, lo int, roundOff float64, ok bool) {
	lo, hi, ok := chernoffWindow(p, n, tau)
	if !ok {
		return nil, 0, 0, false
	}
	size := fastLength(hi - lo + 1)
	if size > MaxGridPoints {
		return nil, 0, 0, false
	}
	gamma := fftLevelError * math.Ceil(math.Log2(float64(size)))
	if gamma*math.Sqrt(float64(size)) > 0.01 {
		return nil, 0, 0, false
	}
	plan := cv.plan(size)
	cv.ra = resizeFloat(cv.ra, size)
	cv.ca = resizeComplex(cv.ca, size/2+1)
	clear(cv.ra)
	for i, v := range p {
		cv.ra[i%size] += v // folding: the cyclic convolution of folded sequences is the folded convolution
	}
	plan.Coefficients(cv.ca, cv.ra)

	u := numeric.UnitRoundoff
	e := gamma * s * (1 + 4*u)
	nf := float64(n)
	rho := math.Expm1(3*(nf+2)*u) * 1.01 // the power's relative rounding error (compounded), and the modulus's
	var d2, y2 float64                   // Σ D_k², Σ |Ŷ_k|² over the full spectrum
	var skipped float64                  // Σ D_k of the coefficients set to 0 unexamined
	// Below this modulus (|X̂| + e)^{n−1} < e^{−701}, so lb < −700 without
	// computing it (most coefficients of a wide composition).
	small := math.Exp(-701 / (nf - 1))
	for k, c := range cv.ca {
		w := 2.0 // the conjugate coefficient N − k has the same error
		if k == 0 || 2*k == size {
			w = 1
		}
		// |X̂| ≤ 1 (a transform of at most unit mass), so the squares
		// cannot overflow.
		a := math.Sqrt(real(c)*real(c)+imag(c)*imag(c)) * (1 + 4*u)
		lb := -701.0
		if a+e >= small {
			lb = (nf - 1) * math.Log(a+e)
		}
		if lb < -700 {
			// |X̂|^n and its error are below e^{−700}·(n·e + 1): set to 0,
			// and counted in ℓ1 (‖D‖₂ ≤ ‖D_kept‖₂ + Σ D_skipped).
			cv.ca[k] = 0
			skipped += w * (nf*e + 1) * 1e-304 // e^{−700} < 1e-304
			continue
		}
		// n·e·(|X̂|+e)^{n−1} and |X̂|^n, with a margin for the rounding
		// of Exp and Log.
		dk := nf * e * math.Exp(lb) * (1 + 1e-10)
		an := math.Exp(nf*math.Log(a)) * (1 + 1e-10)
		if an < 1e-280 {
			cv.ca[k] = 0
			dk += an
		} else {
			cv.ca[k] = complexPow(c, n)
			dk += rho * an
		}
		d2 += w * dk * dk
		y2 += w * an * an
	}
	plan.Sequence(cv.ra, cv.ca)
	scale := 1 / float64(size)
	var l2out float64
	for i := range cv.ra {
		cv.ra[i] *= scale
		l2out += cv.ra[i] * cv.ra[i]
	}
	sqN := math.Sqrt(float64(size))
	roundOff = (math.Sqrt(d2)+skipped)*1.01 + 1.01*(gamma+u)*math.Sqrt(y2) + 2*u*sqN*math.Sqrt(l2out)
	out = make([]float64, size)
	for j := range out {
		out[j] = cv.ra[(lo+j)%size]
	}
	return out, lo, nudgeUp(roundOff, 4), true
}

// plan returns the convolver's FFT of length size, made on first use.
func (cv *convolver) plan(size int) *fourier.FFT {
	p := cv.plans[size]
	if p == nil {
		p = fourier.NewFFT(size)
		cv.plans[size] = p
	}
	return p
}

// complexPow returns c^n by binary exponentiation.
func complexPow(c complex128, n int) complex128 {
	r := complex(1, 0)
	for {
		if n&1 == 1 {
			r *= c
		}
		n >>= 1
		if n == 0 {
			return r
		}
		c *= c
	}
}

// chernoffWindow returns grid indices lo ≤ hi of the n-fold sum of
// independent indices distributed as p (a sub-probability on 0 … len−1)
// outside which the sum's mass is at most tau at each end, by the
// Chernoff bounds of power, each minimised over t by a coarse scan in
// factors of 2 around the Gaussian optimum and a golden-section search
// in ln t (any t gives a valid bound; the search only narrows it); ok is
// false if the window is not finite.
func chernoffWindow(p []float64, n int, tau float64) (lo, hi int, ok bool) {
	m := len(p)
	var mass, mean, sq float64
	for i, v := range p {
		mass += v
		mean += v * float64(i)
		sq += v * float64(i) * float64(i)
	}
	if !(mass > 0) {
		return 0, 0, false
	}
	mean /= mass
	sd := math.Max(math.Sqrt(math.Max(sq/mass-mean*mean, 0)), 1e-3)
	nf := float64(n)
	logTau := math.Log(tau)
	top := nf * float64(m-1)
	t0 := math.Sqrt(2*-logTau/nf) / sd
	// The bound at t = t0·e^x, +Inf where the MGF is not finite.
	upperAt := func(x float64) float64 {
		t := t0 * math.Exp(x)
		if g, ok := logMGF(p, t); ok {
			return (nf*g - logTau) / t
		}
		return math.Inf(1)
	}
	lowerAt := func(x float64) float64 { // minus the lower bound, to minimise
		t := t0 * math.Exp(x)
		if g, ok := logMGF(p, -t); ok {
			return -(logTau - nf*g) / t
		}
		return math.Inf(1)
	}
	upper := math.Min(top, minimiseLog(upperAt))
	lower := math.Max(0, -minimiseLog(lowerAt))
	lo = int(math.Max(math.Floor(lower)-1, 0))
	hi = int(math.Min(math.Ceil(upper)+1, top))
	return lo, max(hi, lo), true
}

// minimiseLog returns the least value of f found by a scan of x = k·ln 2,
// k = −8 … 8, and a golden-section search around the best point.
func minimiseLog(f func(x float64) float64) float64 {
	best, bx := math.Inf(1), 0.0
	for k := -8; k <= 8; k++ {
		x := float64(k) * math.Ln2
		if v := f(x); v < best {
			best, bx = v, x
		}
	}
	const g = 0.6180339887498949
	a, b := bx-math.Ln2, bx+math.Ln2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for range 8 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return math.Min(best, math.Min(fc, fd))
}

// logMGF returns an upper bound on ln Σ_i p_i·e^{t·i}, summed from the
// largest exponent down, the factors e^{t(i − ref)} by repeated
// multiplication (relative error under (len p + 2)·u, which the margin of
// 1e-9 in the logarithm covers up to MaxGridPoints terms), stopping where
// they fall below 1e-300 (the rest adds at most len(p)·1e-300, added).
func logMGF(p []float64, t float64) (float64, bool) {
	m := len(p)
	var s float64
	r := math.Exp(-math.Abs(t))
	f := 1.0
	if t > 0 {
		for i := m - 1; i >= 0 && f > 1e-300; i-- {
			s += p[i] * f
			f *= r
		}
	} else {
		for i := 0; i < m && f > 1e-300; i++ {
			s += p[i] * f
			f *= r
		}
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return 0, false
	}
	s += float64(m) * 1e-300
	ref := 0.0
	if t > 0 {
		ref = float64(m - 1)
	}
	return t*ref + math.Log(s) + 1e-9, true
}
