package dataset

import (
	"errors"
	"fmt"
	"slices"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The goal seek of a dataset group: the target its rows state, the one
// unknown a row leaves to be solved, and the total at a value of it.

// TargetFields are the input fields that state a dataset's target, one
// per kind of Target.
func TargetFields() []release.Field {
	return []release.Field{release.FieldDatasetTargetAdvantage, release.FieldDatasetTargetSuccess, release.FieldDatasetTargetEpsilon}
}

// targetKind is the kind of target a target field states.
func targetKind(f release.Field) TargetKind {
	switch f {
	case release.FieldDatasetTargetAdvantage:
		return TargetAdvantage
	case release.FieldDatasetTargetSuccess:
		return TargetSuccess
	case release.FieldDatasetTargetEpsilon:
		return TargetEpsilon
	}
	return 0
}

// ClosedForm says how a Gaussian-only dataset solves an unknown without
// the accountant.
type ClosedForm uint8

const (
	// NoClosedForm: Solve, on the total at each value tried.
	NoClosedForm ClosedForm = iota
	// ClosedSigma: the unknown is the σ of a gaussian row, its own stage
	// gaussian(σ/Sensitivity)×Steps (SolveGaussianSigma).
	ClosedSigma
	// ClosedMu: the unknown is the μ of a gdp row, its own stage
	// gaussian(1/μ)×Steps (SolveGDPMu).
	ClosedMu
)

// Unknown is the one parameter of a member row left to be solved for.
type Unknown struct {
	// Field is the parameter's input field; Column its column's name as
	// the table spells it.
	Field  release.Field
	Column string
	// Integer, Increasing, Lo, Hi and Start are the Problem's.
	Integer, Increasing bool
	Lo, Hi, Start       float64
	// StagesAt returns the row's stages with the parameter at x, as the
	// row evaluated with x typed in gives them (Release.Stages).
	StagesAt func(x float64) ([]pld.Stage, error)
	// Closed, Sensitivity, Steps and Extra describe the row for the
	// closed forms: its own stage (see ClosedForm) and its extra stages.
	Closed      ClosedForm
	Sensitivity float64
	Steps       int
	Extra       []pld.Stage
}

// goal is the goal-seek state of a Total.
type goal struct {
	// target is the first target a row fills, from the row named
	// targetFrom; other, from otherFrom, the first that differs from it.
	target, other         FieldValue
	targetFrom, otherFrom string
	hasTarget, conflict   bool
	// unknown is the first row's unknown, from the row unknownFrom;
	// unknowns names every row with one.
	unknown     *Unknown
	unknownFrom string
	unknowns    names
	// after are the stages of the rows after the unknown's, merged among
	// themselves: the total at a value x of the unknown is the stages
	// before it, then the unknown's, then these, merged in that order —
	// the stages a run with x typed in composes.
	after []pld.Stage
	// solved is the solved value once Solved has put it in.
	solved    float64
	hasSolved bool
	// unsolved is why the unknown was not solved.
	unsolved string
}

// addGoal records a composed member's target and unknown.
func (t *Total) addGoal(m Member) {
	for _, v := range m.Targets {
		switch {
		case !t.hasTarget:
			t.target, t.targetFrom, t.hasTarget = v, m.Name, true
		case t.conflict || (v.Field == t.target.Field && v.Num == t.target.Num):
		default:
			t.other, t.otherFrom, t.conflict = v, m.Name, true
		}
	}
	if m.Unknown != nil {
		if t.unknowns.n == 0 {
			t.unknown, t.unknownFrom = m.Unknown, m.Name
		}
		t.unknowns.add(m.Name)
	}
}

// TargetStated returns the target the dataset's rows state, the row that
// states it first, and whether any does.
func (t *Total) TargetStated() (v FieldValue, from string, ok bool) {
	return t.target, t.targetFrom, t.hasTarget
}

// TargetConflict returns, when two rows state different targets, the
// first target and the first that differs from it, with their rows.
func (t *Total) TargetConflict() (first FieldValue, firstFrom string, second FieldValue, secondFrom string, ok bool) {
	return t.target, t.targetFrom, t.other, t.otherFrom, t.conflict
}

// Target is the dataset's target as the solvers take it: the stated
// value, with the total's shared baseline for a success (its baseline,
// else 1/candidates) and its reporting δ for an ε (its report_delta, else
// its delta). The error says what the dataset lacks: no target, a
// conflict, no shared baseline or δ; or it is the Target's Check.
func (t *Total) Target() (Target, error) {
	switch {
	case !t.hasTarget:
		return Target{}, ErrNoTarget
	case t.conflict:
		return Target{}, ErrTargetConflict
	}
	tg := Target{Kind: targetKind(t.target.Field), Value: t.target.Num}
	switch tg.Kind {
	case TargetSuccess:
		if v, ok := t.agreed(release.FieldBaseline); ok {
			tg.Baseline = v
		} else if m, ok := t.agreed(release.FieldCandidates); ok {
			tg.Baseline = 1 / m
		} else {
			return tg, &GoalError{Field: t.target.Field, Why: "the dataset's rows share no baseline (nor candidates): fill the same baseline on each of its rows"}
		}
	case TargetEpsilon:
		if v, ok := t.agreed(release.FieldReportDelta); ok {
			tg.Delta = v
		} else if v, ok := t.agreed(release.FieldDelta); ok {
			tg.Delta = v
		} else {
			return tg, &GoalError{Field: t.target.Field, Why: "the dataset's rows share no δ to report ε at: fill the same delta (or report_delta) on each of its rows"}
		}
	}
	if err := tg.Check(); err != nil {
		return tg, &GoalError{Field: t.target.Field, Why: err.Error()}
	}
	return tg, nil
}

// GoalError is a dataset's target or unknown that cannot be used, with
// the input field it is about.
type GoalError struct {
	Field release.Field
	Why   string
}

func (e *GoalError) Error() string { return e.Why }

// The errors of Total.Target for a dataset without one target.
var (
	ErrNoTarget       = errors.New("the dataset states no target")
	ErrTargetConflict = errors.New("the dataset's rows state different targets")
)

// agreed is the number of an agreed attack field of the total.
func (t *Total) agreed(f release.Field) (float64, bool) {
	for _, a := range t.attack {
		if a.Field == f && a.Text == "" {
			return a.Num, true
		}
	}
	return 0, false
}

// Unknown returns the first row's unknown and the row, and how many rows
// of the dataset have one (rows, their names).
func (t *Total) Unknown() (u *Unknown, from string, n int, rows string) {
	return t.unknown, t.unknownFrom, t.unknowns.n, t.unknowns.String()
}

// Unsolved is why the total's stages are incomplete: a row's unknown not
// solved (see SetUnsolved); "" when the total has every stage.
func (t *Total) Unsolved() string {
	if t.unknown == nil || t.hasSolved {
		return ""
	}
	if t.unsolved != "" {
		return t.unsolved
	}
	return "the " + t.unknown.Column + " of row " + t.unknownFrom + " is to be solved, and was not"
}

// SetUnsolved records why the unknown was not solved.
func (t *Total) SetUnsolved(why string) { t.unsolved = why }

// Solved returns the solved value, once Solve has put it in.
func (t *Total) Solved() (float64, bool) { return t.solved, t.hasSolved }

// StagesAt returns the total's stages with the unknown at x: the stages
// of the rows before its row, its row's, and those after, merged in that
// order (as a run with x typed in merges them). Without an unknown, the
// total's stages.
func (t *Total) StagesAt(x float64) ([]pld.Stage, error) {
	if t.unknown == nil || t.hasSolved {
		return slices.Clone(t.stages), nil
	}
	own, err := t.unknown.StagesAt(x)
	if err != nil {
		return nil, err
	}
	all := slices.Clone(t.stages)
	for _, list := range [][]pld.Stage{own, t.after} {
		for _, s := range list {
			if all, err = mergeChecked(all, s); err != nil {
				return nil, err
			}
		}
	}
	return all, nil
}

// mergeChecked merges a stage into a list of distinct stages (identical
// stages add their steps, in place), as Total.Add does, or returns a
// *stageLimitError, the list unchanged, where the result would overflow a
// row.
func mergeChecked(stages []pld.Stage, s pld.Stage) ([]pld.Stage, error) {
	for i := range stages {
		if sameStage(stages[i], s) {
			if stages[i].Steps+s.Steps > release.MaxStageSteps {
				return nil, &stageLimitError{what: "stages add up to more than 2^40 steps"}
			}
			stages[i].Steps += s.Steps
			return stages, nil
		}
	}
	if len(stages) > release.MaxExtraStages {
		return nil, &stageLimitError{what: fmt.Sprintf("rows have more than %d distinct stages", release.MaxExtraStages+1)}
	}
	return append(stages, s), nil
}

// stageLimitError says why merged stages overflow a row.
type stageLimitError struct {
	what string // "stages add up to …" or "rows have more than …", of the total
}

func (e *stageLimitError) Error() string { return "the " + e.what }

// Others returns the total's stages without the unknown's own stage: the
// stages before its row, its extra stages and those after. It is what the
// closed forms take as the others.
func (t *Total) Others() ([]pld.Stage, error) {
	all := slices.Clone(t.stages)
	var err error
	for _, list := range [][]pld.Stage{t.unknown.Extra, t.after} {
		for _, s := range list {
			if all, err = mergeChecked(all, s); err != nil {
				return nil, err
			}
		}
	}
	return all, nil
}

// SyntheticAt is Synthetic of the total whose stages are stages (StagesAt,
// or Scaled).
func (t *Total) SyntheticAt(stages []pld.Stage) ([]InputCell, bool) {
	c := *t
	c.stages = stages
	return c.Synthetic()
}

// Solve puts the unknown's solved value x in: the total's stages become
// StagesAt(x), which its row then shows.
func (t *Total) Solve(x float64) error {
	stages, err := t.StagesAt(x)
	if err != nil {
		return err
	}
	t.stages, t.after, t.solved, t.hasSolved = stages, nil, x, true
	return nil
}

// Scaled returns stages with all their noise multiplied by s: the noise
// multiplier of every Gaussian and subsampled Gaussian stage times s, the
// ε of every Laplace, randomized-response and (ε, δ) stage divided by s
// (δ unchanged). The products are rounded up and the quotients down (to
// the safe side for s ≥ 1, and a total that meets a target at s meets it
// at any larger s).
func Scaled(stages []pld.Stage, s float64) []pld.Stage {
	out := make([]pld.Stage, len(stages))
	for i, st := range stages {
		switch st.Mechanism {
		case pld.SubsampledGaussian:
			st.NoiseMultiplier = numeric.MulUp(st.NoiseMultiplier, s)
		default:
			st.Epsilon = numeric.DivDown(st.Epsilon, s)
		}
		out[i] = st
	}
	return out
}
