package dataset

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// randomStages are a member's stages drawn from a small set, so that
// members share stages and Total.Add merges them.
func randomStages(rng *rand.Rand) []pld.Stage {
	pool := []pld.Stage{
		{NoiseMultiplier: 2, SampleRate: 1, Steps: 1},
		{NoiseMultiplier: 3, SampleRate: 1, Steps: 2},
		{NoiseMultiplier: 1, SampleRate: 0.01, Steps: 100},
		{Mechanism: pld.Laplace, Epsilon: 0.1, Steps: 3},
		{Mechanism: pld.EpsilonDelta, Epsilon: 0.2, Steps: 1},
	}
	st := make([]pld.Stage, 1+rng.IntN(3))
	for i := range st {
		st[i] = pool[rng.IntN(len(pool))]
	}
	return st
}

// TestStagesAtMatchesTypedIn: a total whose member at position p leaves
// its stage's noise multiplier unknown has, at x, the stages of the total
// whose member p states x (Total.Add row by row, in order) — the stages a
// run with x typed in composes — however the members' stages merge, also
// when the unknown's stage merges with the others' (x one of theirs).
func TestStagesAtMatchesTypedIn(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 8))
	for i := range 500 {
		n := 1 + rng.IntN(6)
		members := make([][]pld.Stage, n)
		for j := range members {
			members[j] = randomStages(rng)
		}
		p := rng.IntN(n)
		extra := randomStages(rng)
		own := func(x float64) []pld.Stage {
			return append([]pld.Stage{{NoiseMultiplier: x, SampleRate: 1, Steps: 2}}, extra...)
		}
		u := &Unknown{Field: release.FieldSigma, Column: "sigma", Extra: extra, StagesAt: func(x float64) ([]pld.Stage, error) { return own(x), nil }}
		withUnknown, typed := NewTotal("d"), NewTotal("d")
		for j, st := range members {
			if j == p {
				withUnknown.Add(Member{Dataset: "d", Name: "u", Unknown: u})
				typed.Add(Member{Dataset: "d", Name: "u", Stages: own(3)}) // x = 3: one of the pool's
				continue
			}
			withUnknown.Add(Member{Dataset: "d", Stages: st})
			typed.Add(Member{Dataset: "d", Stages: st})
		}
		got, err := withUnknown.StagesAt(3)
		if err != nil {
			t.Fatal(err)
		}
		if want := typed.stages; !slices.Equal(got, want) {
			t.Fatalf("case %d (unknown at %d of %d): StagesAt(3) = %s; typed in: %s", i, p, n, stagesText(got), stagesText(want))
		}
		if u, from, k, _ := withUnknown.Unknown(); u == nil || from != "u" || k != 1 || withUnknown.Unsolved() == "" {
			t.Fatalf("case %d: Unknown %v %q %d, Unsolved %q", i, u, from, k, withUnknown.Unsolved())
		}
		if err := withUnknown.Solve(3); err != nil || !slices.Equal(withUnknown.stages, typed.stages) || withUnknown.Unsolved() != "" {
			t.Fatalf("case %d: Solve(3): %v, stages %s", i, err, stagesText(withUnknown.stages))
		}
	}
}

// TestTotalTarget: the target the rows state, with the shared baseline
// or δ it needs, a conflict, and what a dataset lacks.
func TestTotalTarget(t *testing.T) {
	target := func(f release.Field, v float64) []FieldValue { return []FieldValue{{Field: f, Num: v}} }
	attack := func(f release.Field, v float64) []FieldValue { return []FieldValue{{Field: f, Num: v}} }
	tot := NewTotal("d")
	if _, err := tot.Target(); !errors.Is(err, ErrNoTarget) {
		t.Errorf("no target: %v", err)
	}
	tot.Add(Member{Dataset: "d", Name: "a", Targets: target(release.FieldDatasetTargetSuccess, 0.05), Attack: attack(release.FieldCandidates, 100)})
	tot.Add(Member{Dataset: "d", Name: "b", Attack: attack(release.FieldCandidates, 100)})
	if tg, err := tot.Target(); err != nil || tg != (Target{Kind: TargetSuccess, Value: 0.05, Baseline: 0.01}) {
		t.Errorf("a success with candidates 100: %+v, %v", tg, err)
	}
	tot.Add(Member{Dataset: "d", Name: "c", Targets: target(release.FieldDatasetTargetSuccess, 0.05), Attack: attack(release.FieldCandidates, 10)})
	var ge *GoalError
	if _, err := tot.Target(); !errors.As(err, &ge) || ge.Field != release.FieldDatasetTargetSuccess {
		t.Errorf("rows that differ in candidates: %v; want a GoalError on the target", err)
	}
	tot.Add(Member{Dataset: "d", Name: "e", Targets: target(release.FieldDatasetTargetEpsilon, 1), Attack: attack(release.FieldCandidates, 100)})
	a, aFrom, b, bFrom, ok := tot.TargetConflict()
	if _, err := tot.Target(); !ok || !errors.Is(err, ErrTargetConflict) || a.Num != 0.05 || aFrom != "a" || b.Field != release.FieldDatasetTargetEpsilon || bFrom != "e" {
		t.Errorf("conflicting targets: %v %q %v %q %v, %v", a, aFrom, b, bFrom, ok, err)
	}
	eps := NewTotal("e")
	eps.Add(Member{Dataset: "e", Targets: target(release.FieldDatasetTargetEpsilon, 1), Attack: append(attack(release.FieldDelta, 1e-5), attack(release.FieldReportDelta, 1e-6)...)})
	if tg, err := eps.Target(); err != nil || tg.Delta != 1e-6 {
		t.Errorf("ε with report_delta: %+v, %v; want δ = report_delta", tg, err)
	}
}

// TestScaled: every stage's noise scaled on the safe side.
func TestScaled(t *testing.T) {
	st := []pld.Stage{{NoiseMultiplier: 3, SampleRate: 1, Steps: 2}, {Mechanism: pld.Laplace, Epsilon: 0.1, Steps: 1}, {Mechanism: pld.EpsilonDelta, Epsilon: 0.3, Delta: 1e-6, Steps: 1}}
	got := Scaled(st, 1.7)
	if !(got[0].NoiseMultiplier >= 3*1.7 && got[1].Epsilon <= 0.1/1.7 && got[2].Epsilon <= 0.3/1.7 && got[2].Delta == 1e-6 && got[0].Steps == 2) {
		t.Errorf("Scaled: %+v", got)
	}
	if st[0].NoiseMultiplier != 3 {
		t.Error("Scaled changed its argument")
	}
}
