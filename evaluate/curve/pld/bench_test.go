package pld

import (
	"fmt"
	"testing"
)

// BenchmarkDPSGD builds the accountant (both directions, default grid) for
// the configurations of the DP-SGD benchmark: σ ∈ {0.6, 1, 2},
// q ∈ {0.001, 0.01}, steps ∈ {10³, 10⁴, 10⁵}. It reports the grid step, the
// composed grid's points and ε at δ = 1e-5. The error estimate (a second
// composition on a grid twice as coarse) is not included; BenchmarkErrors
// times it.
//
//	go test -run '^$' -bench DPSGD -benchtime 3x ./evaluate/curve/pld
func BenchmarkDPSGD(b *testing.B) {
	for _, sigma := range []float64{0.6, 1, 2} {
		for _, q := range []float64{0.001, 0.01} {
			for _, steps := range []int{1000, 10000, 100000} {
				st := sg(sigma, q, steps)
				b.Run(fmt.Sprintf("sigma=%g/q=%g/steps=%d", sigma, q, steps), func(b *testing.B) {
					var p *PLD
					for b.Loop() {
						p = mustDPSGD(b, st)
					}
					b.ReportMetric(float64(p.GridPoints()), "points")
					b.ReportMetric(p.GridStep(), "h")
					b.ReportMetric(p.Epsilon(1e-5), "eps@1e-5")
				})
			}
		}
	}
}

// BenchmarkErrors times the error estimate of one configuration.
func BenchmarkErrors(b *testing.B) {
	for b.Loop() {
		p := mustDPSGD(b, sg(1, 0.01, 10000))
		mustErrors(b, p)
	}
}
