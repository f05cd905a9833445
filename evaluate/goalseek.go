package evaluate

import (
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/editdist"
	"github.com/riskbatch/riskbatch/table"
)

// Goal seek across a dataset (docs/datasets.md): the rows of a dataset may
// state a target for its total (dataset_target_advantage, _success,
// _epsilon), and one of them may leave one parameter empty, named by its
// solve cell. A row read alone cannot be evaluated without that value: it
// is an error row that says so, unless the run that composes its dataset
// solves the value and evaluates the row with it typed in. Member reads
// the row with the unknown as a function of its value (dataset.Unknown);
// TotalRisk computes the total's measure as the total row reports it.

// solvable are the fields a solve cell may name.
var solvable = []release.Field{release.FieldSigma, release.FieldMu, release.FieldLaplaceScale, release.FieldEpsilon, release.FieldNoiseMultiplier, release.FieldSteps, release.FieldEpochs, release.FieldCompositions}

// checkGoalSeek checks the goal-seek inputs of a row (goalInputs) and
// rejects a row whose solve cell names a valid unknown: its value is not
// known to a row evaluated alone. A run over its whole dataset evaluates
// it with the solved value typed in and its solve cell cleared.
func (b *Binding) checkGoalSeek(in *resolve.Inputs, problems *resolve.RowError) bool {
	f, ok := b.goalInputs(in, problems)
	if !ok {
		return false
	}
	if f >= 0 {
		problems.Add(b.h.Name(release.FieldSolve), in.Text[release.FieldSolve], "%s is empty, to be solved against its dataset's target: riskbatch solves it in a run over the whole dataset (a file, without --sorted-groups)", b.h.Name(f))
		return false
	}
	return true
}

// goalInputs checks a row's targets and solve cell: at most one target,
// a target or a solve only on a row of a dataset, a solve naming a
// parameter of the row's mechanism that the row leaves empty and the
// table has a column for. It returns the field to solve for, or -1.
func (b *Binding) goalInputs(in *resolve.Inputs, problems *resolve.RowError) (release.Field, bool) {
	n := len(*problems)
	var filled []string
	for _, f := range dataset.TargetFields() {
		if in.Has(f) {
			filled = append(filled, b.h.Name(f))
			if !in.Has(release.FieldDataset) {
				problems.Add(b.h.Name(f), in.Value(f), "filled, but the row has no %s: a target is for the total of a dataset's rows; fill %s", b.h.Name(release.FieldDataset), b.h.Name(release.FieldDataset))
			}
		}
	}
	if len(filled) > 1 {
		problems.Add(strings.Join(filled, ", "), "", "one target per dataset: fill one of %s", registry.AndList(filled))
	}
	if !in.Has(release.FieldSolve) {
		return -1, len(*problems) == n
	}
	name := b.h.Name(release.FieldSolve)
	text := strings.TrimSpace(in.Text[release.FieldSolve])
	f, known := b.h.Vocabulary().Lookup(text)
	if !known || !slices.Contains(solvable, f) {
		if near := editdist.Closest(text, release.SolveChoices(), 1); len(near) > 0 {
			problems.Add(name, text, "%s is not a parameter riskbatch solves for; did you mean %s?", release.QuoteClipped(text), near[0])
		} else {
			problems.Add(name, text, "expected the name of the parameter to solve for: one of %s", strings.Join(release.SolveChoices(), ", "))
		}
		return -1, false
	}
	switch {
	case !in.Has(release.FieldDataset):
		problems.Add(name, text, "filled, but the row has no %s: the value is solved against a dataset's target; fill %s", b.h.Name(release.FieldDataset), b.h.Name(release.FieldDataset))
	case in.Has(f):
		problems.Add(name+", "+b.h.Name(f), in.Value(f), "%s is filled; clear it to solve for it, or clear %s", b.h.Name(f), name)
	case b.h.Column(f) < 0:
		problems.Add(name, text, "the table has no %s column; add one and leave it empty on this row", b.h.Vocabulary().Column(f).Name)
	default:
		probe := *in
		probe.Num[f], probe.Set[f], probe.Set[release.FieldSolve] = 1, true, false
		var ignored resolve.RowError
		if spec := b.h.Mechanism(&probe, &ignored); spec != nil && !slices.Contains(spec.Defines, f) && !slices.Contains(spec.Modifiers, f) {
			var uses []string
			for _, g := range solvable {
				if slices.Contains(spec.Defines, g) || slices.Contains(spec.Modifiers, g) {
					uses = append(uses, b.h.Vocabulary().Column(g).Name)
				}
			}
			problems.Add(name, text, "mechanism %s does not use %s; expected one of its parameters %s", spec.Name, b.h.Vocabulary().Column(f).Name, strings.Join(uses, ", "))
		}
	}
	return f, len(*problems) == n
}

// resolveMember is resolve for Member: a row whose solve cell names a
// valid unknown is resolved with the unknown at 1, and m gets the unknown
// (its stages as a function of its value); the stages resolved at 1 are
// not the row's (memberGoal drops them).
func (b *Binding) resolveMember(in *resolve.Inputs, problems *resolve.RowError, m *Member) *resolve.Release {
	if !in.Has(release.FieldSolve) {
		return b.resolve(in, problems)
	}
	f, ok := b.goalInputs(in, problems)
	if !ok {
		return nil
	}
	probe := *in
	probe.Num[f], probe.Set[f], probe.Set[release.FieldSolve] = 1, true, false
	r := b.resolve(&probe, problems)
	if r == nil {
		return nil
	}
	m.Unknown = b.unknown(r, &probe, f)
	return r
}

// memberGoal records a member's targets, and drops the stages of a row
// resolved with its unknown at a placeholder value.
func (b *Binding) memberGoal(m *Member, in *resolve.Inputs) {
	for _, f := range dataset.TargetFields() {
		if in.Has(f) {
			m.Targets = append(m.Targets, dataset.FieldValue{Field: f, Num: in.Num[f]})
		}
	}
	if m.Unknown != nil {
		m.Stages = nil
	}
}

// unknown describes the unknown f of a row resolved as r from in (with f
// at a placeholder): the values searched and the row's stages at each.
func (b *Binding) unknown(r *resolve.Release, in *resolve.Inputs, f release.Field) *dataset.Unknown {
	u := &dataset.Unknown{Field: f, Column: b.h.Name(f), Extra: slices.Clone(r.ExtraStages)}
	sens := in.NumOr(release.FieldSensitivity, 1)
	switch f {
	case release.FieldSteps, release.FieldEpochs, release.FieldCompositions:
		u.Integer, u.Increasing, u.Lo, u.Start = true, true, 1, 1
		u.Hi = curve.MaxCompositions
		if f != release.FieldCompositions {
			u.Hi = 1 << 30
		}
	case release.FieldMu, release.FieldEpsilon:
		u.Increasing, u.Lo, u.Hi = true, 1e-6, 100
	case release.FieldNoiseMultiplier:
		u.Lo, u.Hi = 0.05, 1e4
	default: // sigma, laplace_scale
		u.Lo, u.Hi = 1e-3*sens, 1e6*sens
	}
	switch {
	case f == release.FieldSigma && r.Mechanism == release.MechanismGaussian:
		u.Closed, u.Sensitivity, u.Steps = dataset.ClosedSigma, sens, r.Compositions
	case f == release.FieldMu && r.Mechanism == release.MechanismGDP:
		u.Closed, u.Steps = dataset.ClosedMu, r.Compositions
	}
	row := *in
	extra := u.Extra
	u.StagesAt = func(x float64) ([]pld.Stage, error) {
		at := row
		at.Num[f] = x
		var problems resolve.RowError
		if r.Mechanism == release.MechanismDPSGD {
			// The row's stages as resolve reads them, without the
			// accountant of the row alone that it builds next.
			rx := new(resolve.Release)
			rx.ExtraStages = extra
			stages, ok := b.h.DPSGDStages(rx, &at, &problems)
			if !ok {
				return nil, problems
			}
			return stages, nil
		}
		rx := b.resolve(&at, &problems)
		if rx == nil {
			return nil, problems
		}
		stages, ok := rx.Stages()
		if !ok {
			return nil, errors.New("mechanism " + string(rx.Mechanism) + " states no privacy-loss distribution to compose")
		}
		return slices.Clone(stages), nil
	}
	return u
}

// TotalRisk returns the target's measure of the total t whose stages are
// stages, as its total row reports it: the row Synthetic writes, resolved
// by a binding of its columns, and the column of the target's measure
// (fdp_worst_advantage, fdp_success or eps_at_delta) computed and rounded
// as the row computes it, with the row's fdp_composition_error counted
// against the target: added to an advantage or a success, subtracted from
// the δ at which an ε is read (dataset.Target.ComposedRisk; an error at or
// above δ leaves no ε: +Inf, and why). The error is the reason the row
// cannot be computed.
func (e *Evaluator) TotalRisk(t *Total, target dataset.Target, stages []pld.Stage) (dataset.Risk, error) {
	row, ok := t.SyntheticAt(stages)
	if !ok {
		return dataset.Risk{}, errors.New("its stages are all (ε, δ) guarantees with δ > 0, which no row can state as its own mechanism")
	}
	b, cells, err := e.bindRow(row)
	if err != nil {
		return dataset.Risk{}, err
	}
	var in resolve.Inputs
	problems := b.h.ReadCells(cells, &in)
	var r *resolve.Release
	if len(problems) == 0 {
		r = b.resolve(&in, &problems)
	}
	if r == nil {
		return dataset.Risk{}, problems
	}
	var compErr float64
	if v, s := r.CompositionError(); s.OK() {
		compErr = v
	} else if !s.Silent {
		return dataset.Risk{}, errors.New(s.Why)
	}
	every := e.everyColumn() // the measure is the full registry's, whatever --columns selects
	column := func(name string) (float64, error) {
		k := every.outputIndex(name)
		if k < 0 {
			return 0, errors.New("no column " + name)
		}
		v, s := every.outputs[k].ValueAsked(r)
		switch {
		case s.Need&resolve.NeedBaseline != 0:
			return 0, errors.New("the dataset's rows share no baseline")
		case !s.OK():
			return 0, errors.New(name + ": " + s.Why)
		}
		return v, nil
	}
	switch target.Kind {
	case dataset.TargetAdvantage:
		v, err := column("fdp_worst_advantage")
		return dataset.Risk{Bound: v, Error: compErr}, err
	case dataset.TargetSuccess:
		v, err := column("fdp_success")
		return dataset.Risk{Bound: v, Error: compErr}, err
	}
	if compErr >= target.Delta {
		return dataset.Risk{Bound: math.Inf(1)}, &AccountantError{Err: compErr, Delta: target.Delta}
	}
	eps := r.EpsilonAtDelta(target.Delta - compErr)
	if math.IsNaN(eps) {
		return dataset.Risk{}, errors.New("no ε at δ = " + resolve.FormatNumber(target.Delta-compErr))
	}
	return dataset.Risk{Bound: eps}, nil
}

// AccountantError is an ε target that no composition with the PLD
// accountant can be shown to meet: the accountant's error, counted against
// the target's δ, reaches it.
type AccountantError struct {
	Err, Delta float64
}

// Error says so, and what to do instead.
func (e *AccountantError) Error() string {
	return "the PLD accountant's error on the total (fdp_composition_error " + resolve.FormatNumber(e.Err) + ") is counted against the target's δ = " +
		resolve.FormatNumber(e.Delta) + " and reaches it, so no ε at that δ can be certified for this composition; state the target at a larger δ, or as a dataset_target_advantage"
}

// GoalCells reports whether a row's cells fill one of the dataset
// targets, and its solve cell.
func (b *Binding) GoalCells(cells []table.Cell) (target, solve bool) {
	filled := func(f release.Field) bool {
		i := b.h.Column(f)
		return i >= 0 && i < len(cells) && !cells[i].IsEmpty() && strings.TrimSpace(cells[i].String()) != ""
	}
	for _, f := range dataset.TargetFields() {
		target = target || filled(f)
	}
	return target, filled(release.FieldSolve)
}

// SolvedCells returns a copy of a row's cells with its unknown f typed
// in as x and its solve cell cleared: the row as Evaluate evaluates it
// once its dataset's goal seek has solved it.
func (b *Binding) SolvedCells(cells []table.Cell, f release.Field, x float64) []table.Cell {
	n := len(cells)
	for _, i := range []int{b.h.Column(f), b.h.Column(release.FieldSolve)} {
		n = max(n, i+1)
	}
	out := make([]table.Cell, n)
	copy(out, cells)
	if i := b.h.Column(f); i >= 0 {
		out[i] = table.NumberCell(x)
	}
	if i := b.h.Column(release.FieldSolve); i >= 0 {
		out[i] = table.Cell{}
	}
	return out
}

// resolveInto reads a row into r as resolve.Header.ResolveInto does, after
// the checks of its goal-seek inputs (checkGoalSeek): every row this
// package resolves goes through it. Audit rows have no goal-seek inputs.
func (b *Binding) resolveInto(r *resolve.Release, in *resolve.Inputs, problems *resolve.RowError) *resolve.Release {
	if !in.Has(release.FieldAudit) && !b.checkGoalSeek(in, problems) {
		return nil
	}
	return b.h.ResolveInto(r, in, problems)
}

// resolve is resolveInto a new Release.
func (b *Binding) resolve(in *resolve.Inputs, problems *resolve.RowError) *resolve.Release {
	return b.resolveInto(new(resolve.Release), in, problems)
}
