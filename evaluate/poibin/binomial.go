package poibin

import "math"

// The homogeneous case (every β_i equal) is the binomial distribution. Its
// point masses are computed with Loader's saddle-point form
//
//	ln Pr[S = k] = stirlerr(n) − stirlerr(k) − stirlerr(n − k)
//	               − bd0(k, nβ) − bd0(n − k, n(1 − β)) − ½·ln(2π·k·(n − k)/n)
//
// (C. Loader, "Fast and Accurate Computation of Binomial Probabilities",
// 2000; the algorithm behind R's dbinom). Every term is small or computed
// without cancellation, so the log-mass has an absolute error of a few ulps
// of its largest term, i.e. Pr[S = k] keeps ~1e-14 relative precision even
// for n = 10^9, where the textbook lgamma form loses ~n·ln n·2^-53 ≈ 1e-6.

const ln2Pi = 1.837877066409345483560659472811235279722794947275566825634 // ln(2π)

// stirlerrSmall returns stirlerr(k) = ln k! − ln(√(2πk)·(k/e)^k) for
// k = 1..15, the values of R's nmath/stirlerr.c (sferr_halves at the
// integers), where the asymptotic series is not yet accurate.
func stirlerrSmall(k int) float64 {
	switch k {
	case 1:
		return 0.0810614667953272582196702
	case 2:
		return 0.0413406959554092940938221
	case 3:
		return 0.02767792568499833914878929
	case 4:
		return 0.02079067210376509311152277
	case 5:
		return 0.01664469118982119216319487
	case 6:
		return 0.01387612882307074799874573
	case 7:
		return 0.01189670994589177009505572
	case 8:
		return 0.010411265261972096497478567
	case 9:
		return 0.009255462182712732917728637
	case 10:
		return 0.008330563433362871256469318
	case 11:
		return 0.007573675487951840794972024
	case 12:
		return 0.006942840107209529865664152
	case 13:
		return 0.006408994188004207068439631
	case 14:
		return 0.005951370112758847735624416
	case 15:
		return 0.005554733551962801371038690
	}
	return 0
}

// stirlerr returns ln k! − ln(√(2πk)·(k/e)^k) for an integer k ≥ 1: a table
// for k ≤ 15 and the Stirling series 1/(12k) − 1/(360k³) + … beyond.
func stirlerr(k int) float64 {
	if k <= 15 {
		return stirlerrSmall(k)
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	x := float64(k)
	xx := x * x
	switch {
	case k > 500:
		return (s0 - s1/xx) / x
	case k > 80:
		return (s0 - (s1-s2/xx)/xx) / x
	case k > 35:
		return (s0 - (s1-(s2-s3/xx)/xx)/xx) / x
	}
	return (s0 - (s1-(s2-(s3-s4/xx)/xx)/xx)/xx) / x
}

// bd0 returns the deviance term x·ln(x/np) + np − x ≥ 0, through the series
// in v = (x − np)/(x + np) when x is near np (Loader 2000, R's bd0.c).
func bd0(x, np float64) float64 {
	if math.Abs(x-np) < 0.1*(x+np) {
		v := (x - np) / (x + np)
		s := (x - np) * v
		if math.Abs(s) < math.SmallestNonzeroFloat64 {
			return s
		}
		ej := 2 * x * v
		v *= v
		for j := 1; j < 1000; j++ {
			ej *= v
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/np) + np - x
}

// binomLogPMF returns ln Pr[Bin(n, β) = k] with q = 1 − β supplied without
// cancellation (0 < β, q; 0 ≤ k ≤ n).
func binomLogPMF(k, n int, beta, q float64) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	nf := float64(n)
	switch k {
	case 0:
		if n == 0 {
			return 0
		}
		if beta < 0.1 {
			return -bd0(nf, nf*q) - nf*beta
		}
		return nf * math.Log(q)
	case n:
		if q < 0.1 {
			return -bd0(nf, nf*beta) - nf*q
		}
		return nf * math.Log(beta)
	}
	kf := float64(k)
	lc := stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(kf, nf*beta) - bd0(nf-kf, nf*q)
	lf := ln2Pi + math.Log(kf) + math.Log1p(-kf/nf)
	return lc - 0.5*lf
}

// binomMode returns ⌊(n + 1)β⌋ clamped to [0, n], a mode of Bin(n, β).
func binomMode(n int, beta float64) int {
	k := int(math.Floor(float64(n+1) * beta))
	return min(max(k, 0), n)
}

// binomUpRatio returns Pr[S = k + 1]/Pr[S = k] = (n − k)β/((k + 1)q), which
// decreases in k.
func binomUpRatio(k, n int, beta, q float64) float64 {
	return float64(n-k) * beta / (float64(k+1) * q)
}

// binomDownRatio returns Pr[S = k − 1]/Pr[S = k] = k·q/((n − k + 1)β), which
// decreases as k decreases.
func binomDownRatio(k, n int, beta, q float64) float64 {
	return float64(k) * q / (float64(n-k+1) * beta)
}

// binomWindow returns the point masses Pr[S = k] for k in a window [lo, hi]
// around the mode, together with a rigorous bound on the mass outside it.
// The walk outwards stops at the first k whose geometric bound
// Pr[S = k]·r/(1 − r) on the remaining tail (r = the next ratio, which only
// shrinks further out, so the bound holds) is below tol.
func binomWindow(n int, beta, q, tol float64) (lo int, pmf []float64, outside float64) {
	mode := binomMode(n, beta)
	var upper []float64
	for k := mode; ; k++ {
		pk := math.Exp(binomLogPMF(k, n, beta, q))
		upper = append(upper, pk)
		if k == n {
			break
		}
		if r := binomUpRatio(k, n, beta, q); r < 1 {
			if rest := pk * r / (1 - r); rest <= tol {
				outside += rest
				break
			}
		}
	}
	lo = mode
	var lower []float64
	for k := mode - 1; k >= 0; k-- {
		pk := math.Exp(binomLogPMF(k, n, beta, q))
		lower = append(lower, pk)
		lo = k
		if k == 0 {
			break
		}
		if r := binomDownRatio(k, n, beta, q); r < 1 {
			if rest := pk * r / (1 - r); rest <= tol {
				outside += rest
				break
			}
		}
	}
	pmf = make([]float64, 0, len(lower)+len(upper))
	for i := len(lower) - 1; i >= 0; i-- {
		pmf = append(pmf, lower[i])
	}
	pmf = append(pmf, upper...)
	return lo, pmf, outside
}

// binomLogUpper returns ln Pr[S ≥ k] for Bin(n, β) by summing
// Pr[S = j]/Pr[S = k] = Π r upwards from k (every term positive, relative
// error ≲ (terms)·2^-53) until the geometric bound on the rest is below
// 2^-60 of the sum. It is meant for k above the mode, where the terms
// decrease; it is exact but slower (≈ σ terms) just above the mode.
func binomLogUpper(k, n int, beta, q float64) float64 {
	if k <= 0 {
		return 0
	}
	if k > n {
		return math.Inf(-1)
	}
	sum, term := 1.0, 1.0
	for j := k; j < n; j++ {
		r := binomUpRatio(j, n, beta, q)
		term *= r
		sum += term
		if r < 1 {
			if rn := binomUpRatio(j+1, n, beta, q); term*rn/(1-rn) < 0x1p-60*sum {
				break
			}
		}
	}
	return binomLogPMF(k, n, beta, q) + math.Log(sum)
}

// binomLogLower returns ln Pr[S ≤ k], the mirror image of binomLogUpper
// (meant for k below the mode).
func binomLogLower(k, n int, beta, q float64) float64 {
	if k >= n {
		return 0
	}
	if k < 0 {
		return math.Inf(-1)
	}
	sum, term := 1.0, 1.0
	for j := k; j > 0; j-- {
		r := binomDownRatio(j, n, beta, q)
		term *= r
		sum += term
		if r < 1 && j > 1 {
			if rn := binomDownRatio(j-1, n, beta, q); term*rn/(1-rn) < 0x1p-60*sum {
				break
			}
		}
	}
	return binomLogPMF(k, n, beta, q) + math.Log(sum)
}
