package evaluate

import (
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/release"
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

// The input fields of the goal seek.
const (
	FieldDatasetTargetAdvantage = release.FieldDatasetTargetAdvantage
	FieldDatasetTargetSuccess   = release.FieldDatasetTargetSuccess
	FieldDatasetTargetEpsilon   = release.FieldDatasetTargetEpsilon
	FieldSolve                  = release.FieldSolve
)

// solvable are the fields a solve cell may name.
var solvable = []Field{FieldSigma, FieldMu, FieldLaplaceScale, FieldEpsilon, FieldNoiseMultiplier, FieldSteps, FieldEpochs, FieldCompositions}

// checkGoalSeek checks the goal-seek inputs of a row (goalInputs) and
// rejects a row whose solve cell names a valid unknown: its value is not
// known to a row evaluated alone. A run over its whole dataset evaluates
// it with the solved value typed in and its solve cell cleared.
func (b *Binding) checkGoalSeek(in *inputs, problems *rowError) bool {
	f, ok := b.goalInputs(in, problems)
	if !ok {
		return false
	}
	if f >= 0 {
		problems.add(b.name(FieldSolve), in.text[FieldSolve], "%s is empty, to be solved against its dataset's target: riskbatch solves it in a run over the whole dataset (a file, without --sorted-groups)", b.name(f))
		return false
	}
	return true
}

// goalInputs checks a row's targets and solve cell: at most one target,
// a target or a solve only on a row of a dataset, a solve naming a
// parameter of the row's mechanism that the row leaves empty and the
// table has a column for. It returns the field to solve for, or -1.
func (b *Binding) goalInputs(in *inputs, problems *rowError) (Field, bool) {
	n := len(*problems)
	var filled []string
	for _, f := range dataset.TargetFields() {
		if in.has(f) {
			filled = append(filled, b.name(f))
			if !in.has(FieldDataset) {
				problems.add(b.name(f), in.value(f), "filled, but the row has no %s: a target is for the total of a dataset's rows; fill %s", b.name(FieldDataset), b.name(FieldDataset))
			}
		}
	}
	if len(filled) > 1 {
		problems.add(strings.Join(filled, ", "), "", "one target per dataset: fill one of %s", andList(filled))
	}
	if !in.has(FieldSolve) {
		return -1, len(*problems) == n
	}
	name := b.name(FieldSolve)
	text := strings.TrimSpace(in.text[FieldSolve])
	f, known := b.vocab.Lookup(text)
	if !known || !slices.Contains(solvable, f) {
		problems.add(name, text, "expected the name of the parameter to solve for: one of %s", strings.Join(release.SolveChoices(), ", "))
		return -1, false
	}
	switch {
	case !in.has(FieldDataset):
		problems.add(name, text, "filled, but the row has no %s: the value is solved against a dataset's target; fill %s", b.name(FieldDataset), b.name(FieldDataset))
	case in.has(f):
		problems.add(name+", "+b.name(f), in.value(f), "%s is filled; clear it to solve for it, or clear %s", b.name(f), name)
	case b.index[f] < 0:
		problems.add(name, text, "the table has no %s column; add one and leave it empty on this row", b.vocab.Column(f).Name)
	default:
		probe := *in
		probe.num[f], probe.set[f], probe.set[FieldSolve] = 1, true, false
		var ignored rowError
		if spec := b.mechanism(&probe, &ignored); spec != nil && !hasField(spec.Defines, f) && !hasField(spec.Modifiers, f) {
			var uses []string
			for _, g := range solvable {
				if hasField(spec.Defines, g) || hasField(spec.Modifiers, g) {
					uses = append(uses, b.vocab.Column(g).Name)
				}
			}
			problems.add(name, text, "mechanism %s does not use %s; expected one of its parameters %s", spec.Name, b.vocab.Column(f).Name, strings.Join(uses, ", "))
		}
	}
	return f, len(*problems) == n
}

// resolveMember is resolve for Member: a row whose solve cell names a
// valid unknown is resolved with the unknown at 1, and m gets the unknown
// (its stages as a function of its value); the stages resolved at 1 are
// not the row's (memberGoal drops them).
func (b *Binding) resolveMember(in *inputs, problems *rowError, m *Member) *Release {
	if !in.has(FieldSolve) {
		return b.resolve(in, problems)
	}
	f, ok := b.goalInputs(in, problems)
	if !ok {
		return nil
	}
	probe := *in
	probe.num[f], probe.set[f], probe.set[FieldSolve] = 1, true, false
	r := b.resolve(&probe, problems)
	if r == nil {
		return nil
	}
	m.Unknown = b.unknown(r, &probe, f)
	return r
}

// memberGoal records a member's targets, and drops the stages of a row
// resolved with its unknown at a placeholder value.
func (b *Binding) memberGoal(m *Member, in *inputs) {
	for _, f := range dataset.TargetFields() {
		if in.has(f) {
			m.Targets = append(m.Targets, dataset.FieldValue{Field: f, Num: in.num[f]})
		}
	}
	if m.Unknown != nil {
		m.Stages = nil
	}
}

// unknown describes the unknown f of a row resolved as r from in (with f
// at a placeholder): the values searched and the row's stages at each.
func (b *Binding) unknown(r *Release, in *inputs, f Field) *dataset.Unknown {
	u := &dataset.Unknown{Field: f, Column: b.name(f), Extra: slices.Clone(r.extraStages)}
	sens := in.numOr(FieldSensitivity, 1)
	switch f {
	case FieldSteps, FieldEpochs, FieldCompositions:
		u.Integer, u.Increasing, u.Lo, u.Start = true, true, 1, 1
		u.Hi = curve.MaxCompositions
		if f != FieldCompositions {
			u.Hi = 1 << 30
		}
	case FieldMu, FieldEpsilon:
		u.Increasing, u.Lo, u.Hi = true, 1e-6, 100
	case FieldNoiseMultiplier:
		u.Lo, u.Hi = 0.05, 1e4
	default: // sigma, laplace_scale
		u.Lo, u.Hi = 1e-3*sens, 1e6*sens
	}
	switch {
	case f == FieldSigma && r.Mechanism == MechanismGaussian:
		u.Closed, u.Sensitivity, u.Steps = dataset.ClosedSigma, sens, r.compositions
	case f == FieldMu && r.Mechanism == MechanismGDP:
		u.Closed, u.Steps = dataset.ClosedMu, r.compositions
	}
	row := *in
	extra := u.Extra
	u.StagesAt = func(x float64) ([]pld.Stage, error) {
		at := row
		at.num[f] = x
		var problems rowError
		if r.Mechanism == MechanismDPSGD {
			// resolveDPSGD's stages, without the accountant of the row
			// alone it builds next.
			q, steps, ok := b.dpsgdSchedule(new(Release), &at, &problems)
			if !ok {
				return nil, problems
			}
			return curve.DPSGDStages(curve.DPSGD{NoiseMultiplier: at.num[FieldNoiseMultiplier], SampleRate: q, Steps: steps}, extra), nil
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
	cols := make([]table.Column, len(row))
	cells := make([]table.Cell, len(row))
	for i, c := range row {
		cols[i] = table.Column{Name: e.vocab.Column(c.Field).Name}
		cells[i] = c.Cell
	}
	b, err := e.BindTable(cols, DecimalPoint)
	if err != nil {
		return dataset.Risk{}, err
	}
	var in inputs
	problems := b.readCells(cells, &in)
	var r *Release
	if len(problems) == 0 {
		r = b.resolve(&in, &problems)
	}
	if r == nil {
		return dataset.Risk{}, problems
	}
	var compErr float64
	if v, s := r.compositionError(); s.ok() {
		compErr = v
	} else if !s.silent {
		return dataset.Risk{}, errors.New(s.why)
	}
	column := func(name string) (float64, error) {
		k := e.outputIndex(name)
		if k < 0 {
			return 0, errors.New("no column " + name)
		}
		v, s := e.outputs[k].valueAsked(r)
		switch {
		case s.need&NeedBaseline != 0:
			return 0, errors.New("the dataset's rows share no baseline")
		case !s.ok():
			return 0, errors.New(name + ": " + s.why)
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
	eps := r.epsilonAtDelta(target.Delta - compErr)
	if math.IsNaN(eps) {
		return dataset.Risk{}, errors.New("no ε at δ = " + formatNumber(target.Delta-compErr))
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
	return "the PLD accountant's error on the total (fdp_composition_error " + formatNumber(e.Err) + ") is counted against the target's δ = " +
		formatNumber(e.Delta) + " and reaches it, so no ε at that δ can be certified for this composition; state the target at a larger δ, or as a dataset_target_advantage"
}

// GoalCells reports whether a row's cells fill one of the dataset
// targets, and its solve cell.
func (b *Binding) GoalCells(cells []table.Cell) (target, solve bool) {
	filled := func(f Field) bool {
		i := b.index[f]
		return i >= 0 && i < len(cells) && !cells[i].IsEmpty() && strings.TrimSpace(cells[i].String()) != ""
	}
	for _, f := range dataset.TargetFields() {
		target = target || filled(f)
	}
	return target, filled(FieldSolve)
}

// SolvedCells returns a copy of a row's cells with its unknown f typed
// in as x and its solve cell cleared: the row as Evaluate evaluates it
// once its dataset's goal seek has solved it.
func (b *Binding) SolvedCells(cells []table.Cell, f Field, x float64) []table.Cell {
	n := len(cells)
	for _, i := range []int{b.index[f], b.index[FieldSolve]} {
		n = max(n, i+1)
	}
	out := make([]table.Cell, n)
	copy(out, cells)
	if i := b.index[f]; i >= 0 {
		out[i] = table.NumberCell(x)
	}
	if i := b.index[FieldSolve]; i >= 0 {
		out[i] = table.Cell{}
	}
	return out
}
