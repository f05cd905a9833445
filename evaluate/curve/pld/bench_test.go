package pld

import (
	"fmt"
	"sort"
	"testing"
	"time"
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

// sweepStages returns the 60 configurations of the DP-SGD sweep benchmark:
// σ ∈ {0.6, 0.8, 1, 1.5, 2}, q ∈ {0.001, 0.004, 0.01} and
// steps ∈ {10³, 3·10³, 10⁴, 3·10⁴}, in that order (steps fastest, as a
// sweep over epochs lists them).
func sweepStages() []Stage {
	var out []Stage
	for _, sigma := range []float64{0.6, 0.8, 1, 1.5, 2} {
		for _, q := range []float64{0.001, 0.004, 0.01} {
			for _, steps := range []int{1000, 3000, 10000, 30000} {
				out = append(out, sg(sigma, q, steps))
			}
		}
	}
	return out
}

// BenchmarkSweep builds the accountants of the 60 configurations of
// sweepStages in turn, sharing one Chains as the evaluator does (chains),
// or each on its own (alone), and reports the median time of a
// configuration (ms/config) besides the time of the whole sweep. The two
// directions run on two goroutines: on a loaded machine compare CPU time
// (the process's, or -cpuprofile) rather than wall time.
//
//	go test -run '^$' -bench Sweep -benchtime 1x -count 3 ./evaluate/curve/pld
func BenchmarkSweep(b *testing.B) {
	stages := sweepStages()
	for _, shared := range []bool{true, false} {
		name := "alone"
		if shared {
			name = "chains"
		}
		b.Run(name, func(b *testing.B) {
			per := make([]float64, 0, len(stages))
			for b.Loop() {
				var opt Options
				if shared {
					opt.Chains = NewChains()
				}
				per = per[:0]
				for _, st := range stages {
					start := time.Now()
					if _, err := NewDPSGD([]Stage{st}, opt); err != nil {
						b.Fatal(err)
					}
					per = append(per, float64(time.Since(start))/1e6)
				}
			}
			sort.Float64s(per)
			b.ReportMetric(per[len(per)/2], "ms/config")
		})
	}
}
