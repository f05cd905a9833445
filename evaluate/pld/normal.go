package pld

import "math"

// The standard normal distribution, written so that both tails keep their
// relative precision: every tail probability goes through math.Erfc, never
// 1 − Φ.

const logSqrt2Pi = 0.91893853320467274178032973640561763986139747363778 // ½·ln(2π)

// unitRoundoff is u = 2⁻⁵³, the relative error of one correctly rounded
// float64 operation.
const unitRoundoff = 0x1p-53

// normPDF returns φ(z) = exp(−z²/2)/√(2π).
func normPDF(z float64) float64 { return math.Exp(-0.5*z*z - logSqrt2Pi) }

// normCDF returns Φ(z) = ½·erfc(−z/√2), exact in the lower tail.
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// normSF returns 1 − Φ(z) = ½·erfc(z/√2), exact in the upper tail.
func normSF(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

// upperQuantile returns a z ≥ 0 with 1 − Φ(z) ≤ p, within 1e-12 of the
// exact quantile, for p in (0, ½]. Bisection on erfc keeps it exact for p
// down to the smallest subnormal, where math.Erfcinv(2p) would overflow.
func upperQuantile(p float64) float64 {
	lo, hi := 0.0, 40.0
	if normSF(hi) > p {
		return hi
	}
	for hi-lo > 1e-12 {
		mid := 0.5 * (lo + hi)
		if normSF(mid) > p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// logPos returns ln x for x ≥ 0. Go's math.Log is wrong for subnormal x
// on amd64 (math.Log(5e-324) returns −709.09 instead of −744.44), so a
// subnormal x is first scaled by 2^54, which is exact.
func logPos(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// logSumExp returns ln(eᵃ + eᵇ) without overflow; a −Inf term drops out.
func logSumExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// nudgeUp moves x n ulps towards +∞ (x ≥ 0); 0 and +Inf stay as they are.
func nudgeUp(x float64, n int) float64 {
	if x <= 0 || math.IsInf(x, 1) || math.IsNaN(x) {
		return x
	}
	return math.Float64frombits(math.Float64bits(x) + uint64(n))
}

// nudgeDown moves x n ulps towards 0 (x ≥ 0), stopping at 0.
func nudgeDown(x float64, n int) float64 {
	if x <= 0 || math.IsInf(x, 1) || math.IsNaN(x) {
		return x
	}
	b := math.Float64bits(x)
	if b <= uint64(n) {
		return 0
	}
	return math.Float64frombits(b - uint64(n))
}

// gaussLegendre holds the nodes and weights of an n-point Gauss–Legendre
// rule on [−1, 1].
type gaussLegendre struct {
	nodes, weights []float64
}

// newGaussLegendre computes the n-point rule by Newton's method on the
// Legendre polynomial Pₙ (Golub–Welsch would do too; n ≤ 32 here), to full
// double precision.
func newGaussLegendre(n int) gaussLegendre {
	g := gaussLegendre{nodes: make([]float64, n), weights: make([]float64, n)}
	for i := 0; i < (n+1)/2; i++ {
		x := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for iter := 0; iter < 100; iter++ {
			p0, p1 := 1.0, x
			for k := 2; k <= n; k++ {
				p0, p1 = p1, ((2*float64(k)-1)*x*p1-(float64(k)-1)*p0)/float64(k)
			}
			dp = float64(n) * (x*p1 - p0) / (x*x - 1)
			step := p1 / dp
			x -= step
			if math.Abs(step) < 1e-17 {
				break
			}
		}
		w := 2 / ((1 - x*x) * dp * dp)
		g.nodes[i], g.nodes[n-1-i] = -x, x
		g.weights[i], g.weights[n-1-i] = w, w
	}
	return g
}
