package dataset

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// TestMergeLimits: the one merge of stages (mergeChecked) adds the steps of
// identical stages and appends others; past a row's limits (2^40 steps a
// stage, release.MaxExtraStages + 1 distinct stages) it leaves the list
// unchanged with a *stageLimitError, which the Total records as TooLarge
// and the Gaussian solvers return.
func TestMergeLimits(t *testing.T) {
	gauss := func(m float64, steps int) pld.Stage {
		return pld.Stage{NoiseMultiplier: m, SampleRate: 1, Steps: steps}
	}
	got, err := mergeChecked([]pld.Stage{gauss(1, 3), gauss(2, 1)}, gauss(1, 4))
	if err != nil || len(got) != 2 || got[0].Steps != 7 {
		t.Errorf("merging an identical stage: %+v, %v; want its steps added (7)", got, err)
	}
	if got, err = mergeChecked(got, gauss(3, 1)); err != nil || len(got) != 3 {
		t.Errorf("merging a new stage: %+v, %v; want it appended", got, err)
	}

	full := make([]pld.Stage, release.MaxExtraStages+1)
	for i := range full {
		full[i] = gauss(float64(i+1), 1)
	}
	manyWhy := fmt.Sprintf("rows have more than %d distinct stages", release.MaxExtraStages+1)
	steps := []pld.Stage{gauss(1, release.MaxStageSteps)}
	stepsWhy := "stages add up to more than 2^40 steps"
	for _, c := range []struct {
		name   string
		stages []pld.Stage
		s      pld.Stage
		why    string
	}{{"a distinct stage too many", full, gauss(1000, 1), manyWhy}, {"steps past 2^40", steps, gauss(1, 1), stepsWhy}} {
		_, err := mergeChecked(append([]pld.Stage(nil), c.stages...), c.s)
		if limit, ok := errors.AsType[*stageLimitError](err); !ok || err.Error() != "the "+c.why || limit.what != c.why {
			t.Errorf("%s: %v, want a *stageLimitError %q", c.name, err, "the "+c.why)
		}
		var total Total
		list := append([]pld.Stage(nil), c.stages...)
		if list = total.mergeStage(list, c.s); len(list) != len(c.stages) || list[0] != c.stages[0] || total.TooLarge() != "its "+c.why {
			t.Errorf("%s: Total's list %d stages (first %+v), TooLarge %q; want it unchanged and %q", c.name, len(list), list[0], total.TooLarge(), "its "+c.why)
		}
	}
	target := Target{Kind: TargetAdvantage, Value: 0.99}
	if _, err := SolveGaussianSigma(target, full, 1, 1); !errors.As(err, new(*stageLimitError)) {
		t.Errorf("SolveGaussianSigma beside %d distinct stages: %v, want the *stageLimitError", len(full), err)
	}
	if _, err := SolveGDPMu(target, full, 1); !errors.As(err, new(*stageLimitError)) {
		t.Errorf("SolveGDPMu beside %d distinct stages: %v, want the *stageLimitError", len(full), err)
	}
}

// withStage returns others with s merged (mergeChecked), in a new slice,
// for tests whose stages stay within a row's limits.
func withStage(others []pld.Stage, s pld.Stage) []pld.Stage {
	all, err := mergeChecked(slices.Clone(others), s)
	if err != nil {
		panic(err)
	}
	return all
}
