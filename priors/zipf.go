package priors

import (
	"errors"
	"fmt"
	"math"
)

// harmonicDirect is the number of leading terms of H_{N,s} summed
// directly before the Euler–Maclaurin tail takes over.
const harmonicDirect = 64

// Harmonic returns the generalized harmonic number
//
//	H_{N,s} = Σ_{r=1}^{N} r^{−s},
//
// the normalising constant of Zipf(s, N) (Swanberg et al. 2025). n is a whole number
// ≥ 1, or +Inf with s > 1 (then H = ζ(s), the Riemann zeta function); s is
// finite and ≥ 0. The first 64 terms are summed directly (smallest first),
// the rest by the Euler–Maclaurin formula with Bernoulli terms up to B_14,
// whose remainder is below 1e-25 relative for every s ≥ 0, so the result is
// accurate to a few units in the last place for any N (1e9, 1e300, ∞).
func Harmonic(s, n float64) (float64, error) {
	if err := checkZipf(s, n); err != nil {
		return 0, err
	}
	return harmonic(s, n), nil
}

// checkZipf validates the parameters of Zipf(s, N).
func checkZipf(s, n float64) error {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0) || s < 0:
		return fmt.Errorf("the Zipf exponent s must be a finite number ≥ 0, not %v", s)
	case math.IsNaN(n) || n < 1 || math.IsInf(n, -1):
		return fmt.Errorf("the Zipf domain size N must be a whole number ≥ 1 or inf, not %v", n)
	case math.IsInf(n, 1):
		if s <= 1 {
			return fmt.Errorf("Zipf(s, ∞) needs s > 1 (Σ r^−s diverges for s ≤ 1), not s = %v", s)
		}
	case n != math.Floor(n):
		return fmt.Errorf("the Zipf domain size N must be a whole number, not %v", n)
	}
	return nil
}

// harmonic is Harmonic without validation.
func harmonic(s, n float64) float64 {
	direct := n
	if direct > harmonicDirect {
		direct = harmonicDirect
	}
	sum := 0.0
	for r := int(direct); r >= 1; r-- {
		sum += math.Pow(float64(r), -s)
	}
	if n > harmonicDirect {
		sum += eulerMaclaurinTail(s, harmonicDirect+1, n)
	}
	return sum
}

// eulerMaclaurinTail returns Σ_{r=a}^{b} r^{−s} (b may be +Inf when s > 1)
// by the Euler–Maclaurin formula for f(x) = x^{−s}:
//
//	∫_a^b f + (f(a) + f(b))/2 + Σ_{k=1}^{7} B_{2k}/(2k)! · (s)_{2k−1} · (a^{−s−2k+1} − b^{−s−2k+1}),
//
// where (s)_m = s(s+1)…(s+m−1) is the rising factorial, since
// f^{(2k−1)}(x) = −(s)_{2k−1} x^{−s−2k+1}.
func eulerMaclaurinTail(s, a, b float64) float64 {
	fa := math.Pow(a, -s)
	if fa == 0 {
		return 0 // every term underflows
	}
	var integral, fb float64
	if math.IsInf(b, 1) {
		integral = a * fa / (s - 1) // a^{1−s}/(s−1)
	} else {
		fb = math.Pow(b, -s)
		// ∫_a^b x^{−s} dx = a^{1−s}·(e^{(1−s)L} − 1)/(1−s), L = ln(b/a),
		// through expm1 so that s near 1 loses no precision (→ L at s = 1).
		t := 1 - s
		l := math.Log(b / a)
		if t == 0 {
			integral = l
		} else {
			integral = a * fa * math.Expm1(t*l) / t
		}
	}
	sum := integral + (fa+fb)/2
	// B_{2k}/(2k)! for k = 1..7.
	coef := [...]float64{
		1.0 / 12,
		-1.0 / 720,
		1.0 / 30240,
		-1.0 / 1209600,
		1.0 / 47900160,
		-691.0 / 2730 / 479001600,
		1.0 / 74724249600,
	}
	rising := s  // (s)_{2k−1}
	pa := fa / a // a^{−s−2k+1}
	pb := fb / b // b^{−s−2k+1}; 0 when b = ∞
	for k, c := range coef {
		sum += c * rising * (pa - pb)
		m := float64(2 * (k + 1))
		rising *= (s + m - 1) * (s + m)
		if math.IsInf(rising, 0) {
			break
		}
		pa /= a * a
		pb /= b * b
	}
	return sum
}

// ZipfP returns the probability of rank r under Zipf(s, N),
//
//	p(r) = r^{−s} / H_{N,s}   (Swanberg et al. 2025),
//
// computed as exp(−s·ln r − ln H) so that tiny probabilities keep their
// precision. r is a whole number from 1 to N (any r ≥ 1 when N = ∞); see
// Harmonic for s and N. p(1) = 1/H is the Bayes-optimal guess's success.
func ZipfP(s, n, r float64) (float64, error) {
	if err := checkZipf(s, n); err != nil {
		return 0, err
	}
	if math.IsNaN(r) || r < 1 || r != math.Floor(r) || r > n || math.IsInf(r, 0) {
		return 0, fmt.Errorf("the Zipf rank must be a whole number from 1 to N = %v, not %v", n, r)
	}
	return math.Exp(-s*math.Log(r) - math.Log(harmonic(s, n))), nil
}

// ZipfFit is the maximum-likelihood fit of Zipf(s, N) to counts by rank.
type ZipfFit struct {
	S        float64 // the maximum-likelihood exponent ŝ
	N        float64 // the domain size the fit used (+Inf for an infinite domain)
	Observed bool    // N is the observed number of ranks, not a stated one
	Total    float64 // C = Σ c_r, the number of observations
	LogLik   float64 // Σ c_r ln p(r) at ŝ
	KS       float64 // Kolmogorov–Smirnov distance max_r |F_emp(r) − F_fit(r)|
	PTop     float64 // 1/H_{N,ŝ}: the fitted probability of rank 1
}

// FitZipf fits Zipf(s, N) to counts by rank (counts[0] is the count of
// rank 1, the most frequent value; counts are taken in the order given,
// the caller ranks them) by maximum likelihood: ŝ maximises
//
//	ℓ(s) = Σ_r c_r ln p(r) = −s Σ_r c_r ln r − C ln H_{N,s},   C = Σ_r c_r,
//
// which is concave in s (ln H_{N,s} is a log-sum-exp of −s ln r), so a
// golden-section search over a bracket of its maximum finds it (to 1e-10
// relative). The search runs over s ≥ 0 (s > 1 when N = ∞).
//
// n is the domain size N: a whole number ≥ the last rank with a positive
// count, +Inf, or 0 for the observed size (the last rank with a positive
// count: for a frequency-ranked list, the number of distinct values seen).
// The goodness of fit is the Kolmogorov–Smirnov distance between the
// empirical and the fitted CDF over the ranks, F(r) = Σ_{q ≤ r} p(q).
//
// Counts must be finite and ≥ 0, with positive counts on at least two
// ranks (with a single one the likelihood grows without bound as s → ∞).
// Ranks taken from the observed frequencies (and N from the values seen)
// bias ŝ slightly, through the sparse tail: by a few thousandths, in either
// direction, for 10^6 draws over N = 10^4; ranks from an independent
// source do not.
func FitZipf(counts []float64, n float64) (ZipfFit, error) {
	last, positive := 0, 0
	var total, a float64
	for i, c := range counts {
		if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
			return ZipfFit{}, fmt.Errorf("fitting Zipf(s, N): the count of rank %d is %v; counts must be finite and ≥ 0", i+1, c)
		}
		if c > 0 {
			last = i + 1
			positive++
			total += c
			a += c * math.Log(float64(i+1))
		}
	}
	if positive < 2 {
		return ZipfFit{}, errors.New("fitting Zipf(s, N): needs positive counts on at least two ranks")
	}
	observed := n == 0
	if observed {
		n = float64(last)
	}
	if err := checkZipf(1.5, n); err != nil {
		return ZipfFit{}, fmt.Errorf("fitting Zipf(s, N): %w", err)
	}
	if n < float64(last) {
		return ZipfFit{}, fmt.Errorf("fitting Zipf(s, N): the domain size N = %v is smaller than the %d ranks with counts", n, last)
	}
	loglik := func(s float64) float64 { return -s*a - total*math.Log(harmonic(s, n)) }

	lo := 0.0
	if math.IsInf(n, 1) {
		lo = 1
	}
	// Bracket: ℓ is concave, so once ℓ(2h) < ℓ(h) the maximum lies below 2h.
	h := lo + 1
	for loglik(2*h) >= loglik(h) {
		h *= 2
		if h > 1e6 {
			return ZipfFit{}, errors.New("fitting Zipf(s, N): the counts are so concentrated on rank 1 that the exponent has no finite estimate")
		}
	}
	s := goldenMax(loglik, lo, 2*h)
	hs := harmonic(s, n)
	fit := ZipfFit{S: s, N: n, Observed: observed, Total: total, LogLik: loglik(s), PTop: 1 / hs}
	var cumEmp, cumFit float64
	for r := 1; r <= last; r++ {
		cumEmp += counts[r-1] / total
		cumFit += math.Pow(float64(r), -s) / hs
		fit.KS = math.Max(fit.KS, math.Abs(cumEmp-cumFit))
	}
	return fit, nil
}

// goldenMax returns the maximiser of a unimodal f on [lo, hi] by
// golden-section search, to 1e-10 relative (or absolute below 1).
func goldenMax(f func(float64) float64, lo, hi float64) float64 {
	const invPhi = 0.6180339887498949 // (√5 − 1)/2
	x1 := hi - invPhi*(hi-lo)
	x2 := lo + invPhi*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < 200 && hi-lo > 1e-10*math.Max(1, math.Abs(lo)); i++ {
		if f1 < f2 {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + invPhi*(hi-lo)
			f2 = f(x2)
		} else {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - invPhi*(hi-lo)
			f1 = f(x1)
		}
	}
	return (lo + hi) / 2
}
