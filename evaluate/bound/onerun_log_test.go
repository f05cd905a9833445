package bound

import (
	"math"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/approx"
)

// The log-space bounds (LogBound, used by the one-run audits) agree with
// the linear-scale ones the row columns use (Tail, Cor34, Thm35): the same
// dominating distribution and the same dual bound, computed once in log
// space with the tails of LogSurvival and raised by OneRunLogSlack, once in
// linear space from Survival and rounded up.
func TestOneRunLogBoundMatchesLinear(t *testing.T) {
	lin := make([]float64, 100)
	for i := range lin {
		lin[i] = 0.3 + 0.6*float64(i)/99
	}
	for _, c := range []struct {
		p          []float64
		eps, delta float64
	}{
		{lin, 1, 1e-5}, {lin, 0.2, 1e-3}, {[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 2, 0.01}, {lin, 0.5, 0},
	} {
		r := mustTail(t, c.eps, c.delta, c.p)
		for v := 0; v <= len(c.p)+1; v++ {
			for _, b := range []struct {
				which OneRunBound
				lin   float64
			}{{OneRunPure, r.Tail(v)}, {OneRunCor34, r.Cor34(v)}, {OneRunThm35, r.Thm35(v)}} {
				if b.which == OneRunPure && c.delta > 0 {
					continue
				}
				got := math.Exp(r.LogBound(b.which, v))
				if !approx.Near(got, b.lin, 1e-11, 1e-8) {
					t.Errorf("%s ε=%v δ=%v v=%d: exp(LogBound) = %.15g, linear %.15g",
						b.which, c.eps, c.delta, v, got, b.lin)
				}
			}
		}
	}
	if got := mustTail(t, 1, 0, lin).LogBound(OneRunBound(7), 50); !math.IsNaN(got) {
		t.Errorf("LogBound of an unknown bound = %v, want NaN", got)
	}
}
