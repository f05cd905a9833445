package pipeline

import (
	"errors"
	"math"
	"strconv"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/numtext"
	"github.com/riskbatch/riskbatch/table"
)

// The goal seek of a dataset group (docs/datasets.md). Once the first pass
// has collected a group, seekGoal solves its one unknown against its
// target (dataset.SolveGaussianSigma, SolveGDPMu for Gaussian-only
// datasets, else dataset.Solve on the total as its row computes it,
// evaluate.Evaluator.TotalRisk) and puts the value in the total, or finds
// the noise scale of a dataset without an unknown. The second pass then
// evaluates the unknown's row with the value typed in (evaluateGoal), the
// other rows with their planned parameters, and the rows that state
// conflicting targets as errors.

// rowKey is a row of an input: its table and its row number.
type rowKey struct{ table, row int }

// goalSeek is the goal-seek state of a group.
type goalSeek struct {
	// active says that the group states a target or an unknown.
	active bool
	// unknownRow is the row of the group's (first) unknown.
	unknownRow    rowKey
	hasUnknownRow bool
	// solved is the unknown's solved value; note says how it meets the
	// target, for the row's and the total's messages.
	solved    float64
	hasSolved bool
	note      string
	// scale is the group's noise scale, without an unknown.
	scale    float64
	hasScale bool
	// achieved is the total's measure as riskText writes it: at the
	// value solved for, or, with a noise scale, as the dataset stands.
	achieved string
	// why is why the goal seek found no value (no target, a conflict, a
	// target no value meets, …).
	why string
}

// seekGoal solves a group's goal seek, before its total is evaluated.
func (g *datasetGroups) seekGoal(gt *groupTotal) {
	u, _, n, rows := gt.Unknown()
	_, _, hasTarget := gt.TargetStated()
	if u == nil && !hasTarget {
		return
	}
	s := &gt.seek
	s.active = true
	fail := func(why string) {
		s.why = why
		if u != nil {
			gt.SetUnsolved(u.Column + " not solved: " + why)
		}
	}
	if n > 1 {
		fail("rows " + rows + " each leave a parameter to solve, and a dataset has one unknown; clear solve on all but one")
		return
	}
	if _, nc, why := gt.Cannot(); nc > 0 {
		fail("rows of the dataset cannot be composed (" + why + ")")
		return
	}
	if why := gt.TooLarge(); why != "" {
		fail(why)
		return
	}
	target, err := gt.Target()
	if err != nil {
		fail(g.targetProblem(gt, err))
		return
	}
	if u != nil {
		g.solveUnknown(gt, u, target)
	} else {
		g.solveScale(gt, target)
	}
}

// targetProblem says what is wrong with a group's target.
func (g *datasetGroups) targetProblem(gt *groupTotal, err error) string {
	voc := g.ev.Vocabulary()
	if a, aFrom, b, bFrom, ok := gt.TargetConflict(); ok {
		return "its rows state different targets: " + voc.Column(a.Field).Name + " " + formatValue(a.Num) + " (row " + aFrom + ") and " +
			voc.Column(b.Field).Name + " " + formatValue(b.Num) + " (row " + bFrom + "); one target per dataset"
	}
	var ge *dataset.GoalError
	switch {
	case errors.As(err, &ge):
		return voc.Column(ge.Field).Name + ": " + ge.Why
	case errors.Is(err, dataset.ErrNoTarget):
		return "the dataset states no target: fill dataset_target_advantage, dataset_target_success or dataset_target_epsilon on its rows"
	}
	return err.Error()
}

// riskFunc returns the Risk of a group's total with its stages given by
// stagesOf at each value, as its total row computes it: a total that
// cannot be computed there does not meet the target (+Inf), and *last
// keeps why.
func (g *datasetGroups) riskFunc(gt *groupTotal, target dataset.Target, stagesOf func(x float64) ([]pld.Stage, error), last *error) func(float64) (dataset.Risk, error) {
	return func(x float64) (dataset.Risk, error) {
		stages, err := stagesOf(x)
		if err == nil {
			var r dataset.Risk
			if r, err = g.ev.TotalRisk(gt.Total, target, stages); err == nil {
				return r, nil
			}
		}
		*last = err
		return dataset.Risk{Bound: math.Inf(1)}, nil
	}
}

// solveUnknown solves a group's unknown and puts it in its total.
func (g *datasetGroups) solveUnknown(gt *groupTotal, u *dataset.Unknown, target dataset.Target) {
	var last error
	risk := g.riskFunc(gt, target, gt.StagesAt, &last)
	x, ok := g.closedForm(gt, u, target, risk)
	uncertified := ""
	if !ok {
		sol, err := dataset.SolveSmooth(dataset.Problem{Target: target, Risk: risk, Increasing: u.Increasing, Integer: u.Integer, Lo: u.Lo, Hi: u.Hi, Start: u.Start})
		if err != nil {
			gt.seek.why = unmetWhy(u.Column, err, last)
			gt.SetUnsolved(u.Column + " not solved: " + gt.seek.why)
			return
		}
		x = sol.Value
		if sol.AtLimit {
			gt.seek.note = "every " + u.Column + " up to " + formatValue(x) + ", the end of the range searched, meets the target"
		}
		uncertified = g.uncertifiedNext(u, sol, risk, &last)
	}
	if err := gt.Solve(x); err != nil {
		gt.seek.why = err.Error()
		gt.SetUnsolved(u.Column + " not solved: " + gt.seek.why)
		return
	}
	r, _ := risk(x)
	gt.seek.solved, gt.seek.hasSolved, gt.seek.achieved = x, true, riskText(r)
	if gt.seek.note == "" {
		gt.seek.note = u.Column + " = " + formatValue(x) + " meets " + g.targetText(gt) + " (the total reaches " + riskText(r) + ")" + uncertified
	}
}

// uncertifiedNext says, where the value next to a solution (one step more
// aggressive) fails the target not by its measure but because its total
// cannot be computed or certified (the PLD accountant's error reaching the
// target's δ, say), that the answer is where that stops and not
// necessarily the boundary of the target: the accountant's error need not
// be monotone in the unknown, so a more aggressive value may meet the
// target too. "" otherwise.
func (g *datasetGroups) uncertifiedNext(u *dataset.Unknown, sol dataset.Solution, risk func(float64) (dataset.Risk, error), last *error) string {
	if sol.AtLimit || !math.IsInf(sol.NextRisk.Bound, 1) {
		return ""
	}
	*last = nil
	risk(sol.Next) // again, for why (the accountant's results are cached)
	why := "its total cannot be computed"
	var acc *evaluate.AccountantError
	if errors.As(*last, &acc) {
		why = "the accountant's error reaches δ"
	}
	return "; the next, " + formatValue(sol.Next) + ", is not certified (" + why + "): a more aggressive " + u.Column + " may meet the target too"
}

// closedForm is the closed-form answer of a Gaussian-only dataset's σ or
// μ, checked against the total row: it meets the target there and the
// next more aggressive float does not (else a few floats are stepped to
// the safe side; false when that does not settle it, or for any other
// dataset).
func (g *datasetGroups) closedForm(gt *groupTotal, u *dataset.Unknown, target dataset.Target, risk func(float64) (dataset.Risk, error)) (float64, bool) {
	if u.Closed == dataset.NoClosedForm {
		return 0, false
	}
	others, err := gt.Others()
	if err != nil {
		return 0, false
	}
	var x float64
	if u.Closed == dataset.ClosedSigma {
		x, err = dataset.SolveGaussianSigma(target, others, u.Sensitivity, u.Steps)
	} else {
		x, err = dataset.SolveGDPMu(target, others, u.Steps)
	}
	if err != nil {
		return 0, false // the general solver says why
	}
	return checkedBoundary(x, u.Increasing, target, risk)
}

// checkedBoundary returns x, or the float a few steps to the safe side of
// it, where the total meets the target and the next more aggressive float
// does not.
func checkedBoundary(x float64, increasing bool, target dataset.Target, risk func(float64) (dataset.Risk, error)) (float64, bool) {
	safe, bold := math.Inf(1), math.Inf(-1) // towards more noise (decreasing risk)
	if increasing {
		safe, bold = bold, safe
	}
	meets := func(v float64) bool {
		r, _ := risk(v)
		return target.Meets(r.Bound, r.Error)
	}
	for range 16 {
		if meets(x) {
			return x, !meets(math.Nextafter(x, bold))
		}
		x = math.Nextafter(x, safe)
	}
	return 0, false
}

// solveScale finds the noise scale of a group without an unknown.
func (g *datasetGroups) solveScale(gt *groupTotal, target dataset.Target) {
	stages, err := gt.StagesAt(0)
	if err != nil || len(stages) == 0 {
		gt.seek.why = "the dataset has no stages to scale"
		return
	}
	var last error
	risk := g.riskFunc(gt, target, func(s float64) ([]pld.Stage, error) { return dataset.Scaled(stages, s), nil }, &last)
	s, ok := 0.0, false
	if guess, err := dataset.GaussianNoiseScale(target, stages); err == nil {
		s, ok = checkedBoundary(guess, false, target, risk)
	}
	if !ok {
		sol, err := dataset.SolveSmooth(dataset.Problem{Target: target, Risk: risk, Lo: 1e-6, Hi: 1e6, Start: 1})
		if err != nil {
			gt.seek.why = unmetWhy(noiseScaleColumn, err, last)
			return
		}
		s = sol.Value
	}
	r, _ := risk(s)
	// The Summary's "achieved" is what the dataset reaches as it stands
	// (its noise times 1); the note says what it reaches at the scale.
	now, err := risk(1)
	if err != nil {
		now = r
	}
	gt.seek.scale, gt.seek.hasScale, gt.seek.achieved = s, true, riskText(now)
	gt.seek.note = noiseScaleColumn + " " + formatValue(s) + ": the dataset's noise times " + formatValue(s) + " meets " + g.targetText(gt) + " (the total reaches " + riskText(r) + ")"
}

// noiseScaleColumn is the noise scale's column.
const noiseScaleColumn = evaluate.DatasetNoiseScale

// unmetWhy says why no value of what was found.
func unmetWhy(what string, err error, last error) string {
	var unmet *dataset.UnmetError
	if errors.As(err, &unmet) && math.IsInf(unmet.Reached, 1) && last != nil {
		var acc *evaluate.AccountantError
		if errors.As(last, &acc) {
			return acc.Error()
		}
		return "no " + what + " meets the target: the total cannot be computed at the safest value tried (" + last.Error() + ")"
	}
	if unmet != nil {
		return err.Error() // "cannot meet the target …: … (by …)"
	}
	return "no " + what + " meets the target: " + err.Error()
}

// targetText is a group's target as its rows state it.
func (g *datasetGroups) targetText(gt *groupTotal) string {
	v, _, _ := gt.TargetStated()
	return g.ev.Vocabulary().Column(v.Field).Name + " " + formatValue(v.Num)
}

// riskText is a total's Risk, with its error where it has one.
func riskText(r dataset.Risk) string {
	// Both are upper bounds: rounded up as written.
	s := numtext.FormatSignificant(r.Bound, 10, 1)
	if r.Error > 0 {
		s += " + accountant's error " + numtext.FormatSignificant(r.Error, 3, 1)
	}
	return s
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// markTotal writes a group's goal seek on its total row's output cells
// (from the status): the solved value or the noise scale, and the note or
// the reason in its message.
func (g *datasetGroups) markTotal(gt *groupTotal, dst []table.Cell) {
	s := &gt.seek
	if !s.active {
		return
	}
	var add string
	switch {
	case s.hasSolved:
		g.ev.MarkSolved(dst, s.solved)
		add = "solved: " + s.note
	case s.hasScale:
		g.ev.MarkNoiseScale(dst, s.scale)
		add = s.note
	case gt.Unsolved() == "" && s.why != "":
		add = "goal seek: " + s.why
	}
	if add != "" {
		dst[1] = table.TextCell(joinMessage(dst[1].String(), add))
	}
}

func joinMessage(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// evaluateGoal evaluates row i of a batch (read whole) when its group's
// goal seek changes it: the unknown's row with its solved value typed in,
// a row with an unknown that was not solved with the reason, a row that
// states a conflicting target as an error, and the rows of a dataset with
// a noise scale with their planned parameters. ok is false for the other
// rows, which are evaluated as they are.
func (g *datasetGroups) evaluateGoal(lay *evalLayout, b *batch, i int, out []table.Cell) (st evaluate.Status, ok bool) {
	bind := lay.Binding(b.tableNo)
	cells := b.rows[i].Cells
	gt := g.totals[bind.Dataset(cells)]
	if gt == nil || !gt.seek.active {
		return "", false
	}
	s := &gt.seek
	dst := out[lay.Inputs():]
	hasTarget, hasSolve := bind.GoalCells(cells)
	u, _, _, _ := gt.Unknown()
	switch {
	case s.hasSolved && s.unknownRow == (rowKey{b.tableNo, b.rows[i].Pos.Row}):
		st = lay.Evaluate(b.tableNo, bind.SolvedCells(cells, u.Field, s.solved), nil, out)
		g.ev.MarkSolved(dst, s.solved)
		dst[1] = table.TextCell(joinMessage(dst[1].String(), "solve: "+s.note))
		return st, true
	case hasSolve && u != nil && !s.hasSolved:
		st = lay.Evaluate(b.tableNo, cells, nil, out)
		if m := bind.Member(cells, nil, ""); m.Unknown != nil {
			dst[1] = table.TextCell(g.ev.Vocabulary().Column(release.FieldSolve).Name + ": " + m.Unknown.Column + " not solved: " + s.why)
		}
		return st, true
	case hasTarget:
		if _, _, _, _, conflict := gt.TargetConflict(); conflict {
			st = lay.Evaluate(b.tableNo, cells, nil, out)
			if st != evaluate.StatusError {
				clear(dst)
				dst[0] = table.TextCell(string(evaluate.StatusError))
				dst[1] = table.TextCell(g.conflictMessage(gt, bind, cells))
			}
			return evaluate.StatusError, true
		}
	}
	if s.hasScale {
		return bind.EvaluatePlanned(cells, dst, s.scale), true
	}
	return "", false
}

// conflictMessage is the error of a row that states a target its
// dataset's rows contradict: its own target and the other.
func (g *datasetGroups) conflictMessage(gt *groupTotal, bind *evaluate.Binding, cells []table.Cell) string {
	voc := g.ev.Vocabulary()
	a, aFrom, b, bFrom, _ := gt.TargetConflict()
	mine, other, otherFrom := a, b, bFrom
	if m := bind.Member(cells, nil, ""); len(m.Targets) > 0 && m.Targets[0] != a {
		mine, other, otherFrom = m.Targets[0], a, aFrom
	}
	return voc.Column(mine.Field).Name + ": " + formatValue(mine.Num) + ", but row " + otherFrom + " of dataset " + strconv.Quote(gt.Dataset) + " states " +
		voc.Column(other.Field).Name + " " + formatValue(other.Num) + "; one target per dataset: make them agree"
}

// hasGoal reports whether a run's groups have a goal seek.
func (g *datasetGroups) hasGoal() bool {
	if g == nil {
		return false
	}
	for _, gt := range g.order {
		if gt.seek.active {
			return true
		}
	}
	return false
}

// goalSummary is a group's goal seek on the Summary sheet: its target,
// what its total achieves, and the value solved (or why none was).
func (g *datasetGroups) goalSummary(gt *groupTotal) [3]string {
	s := &gt.seek
	if !s.active {
		return [3]string{}
	}
	target := "none"
	if _, _, ok := gt.TargetStated(); ok {
		target = g.targetText(gt)
	}
	u, from, _, _ := gt.Unknown()
	switch {
	case s.hasSolved:
		return [3]string{target, s.achieved, u.Column + " = " + formatValue(s.solved) + " (row " + from + ")"}
	case s.hasScale:
		return [3]string{target, s.achieved, noiseScaleColumn + " = " + formatValue(s.scale)}
	}
	return [3]string{target, "", "none: " + s.why}
}
