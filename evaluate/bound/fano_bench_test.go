package bound

import (
	"fmt"
	"math"
	"testing"
)

// fanoBenchMu is the i-th of a sequence of Gaussian μ = Δ/σ spread
// log-uniformly over [0.01, 3] and never repeated (the fractional parts of
// i/φ), so that no two rows share their parameters.
func fanoBenchMu(i int) float64 {
	_, f := math.Modf(float64(i) * 0.6180339887498949)
	return 0.01 * math.Pow(300, f)
}

// fanoGaussianRow computes the Fano bounds of a Gaussian row with a uniform
// prior as evaluate's Release.fanoFor does: FanoZCDPMI at ρ = μ²/2 with
// Theorem 2's mutual information.
func fanoGaussianRow(pr fanoPrior, mu float64) (alpha1, best FanoBound) {
	mi, err := FanoMIGaussian(mu, int(pr.m), nil)
	if err != nil {
		panic(err)
	}
	return pr.zcdpMI(mu*mu/2, mi)
}

// BenchmarkFanoGaussianDistinct measures the Fano bounds of Gaussian rows
// with a uniform prior over M candidates whose μ all differ (what the
// evaluator's cache cannot help with), in ns per row, and reports the
// evaluations of the binary Rényi divergence per row.
//
//	go test -run '^$' -bench FanoGaussianDistinct -count 5 ./evaluate/bound
func BenchmarkFanoGaussianDistinct(b *testing.B) {
	for _, m := range []int{2, 10, 100, 1000} {
		b.Run(fmt.Sprint("M=", m), func(b *testing.B) {
			pr, err := newFanoPrior(m, nil)
			if err != nil {
				b.Fatal(err)
			}
			evals := 0
			pr.evals = &evals
			for i := 0; i < b.N; i++ {
				fanoGaussianRow(pr, fanoBenchMu(i))
			}
			b.ReportMetric(float64(evals)/float64(b.N), "evals/row")
		})
	}
}
