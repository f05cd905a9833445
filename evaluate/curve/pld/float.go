package pld

import (
	"math"
)

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
