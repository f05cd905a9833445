package evaluate

import (
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/table"
)

// Composition across rows. Rows whose dataset cell holds the same text
// touch the same people: their releases compose, and the risk of all of
// them together is the risk of the composed mechanism. A Total collects,
// row by row, what that composition needs — each row's mechanism as a
// list of stages, identical stages merged — in memory that grows with the
// number of distinct stages of the group, not with its rows. The total
// row is then an ordinary input row, built from the stages (see
// Total.synthetic), evaluated by the same evaluator as every other row:
// every bound of a total row is the bound of the composition.
//
// A member row's releases become stages as Release.Stages gives them (its
// own mechanism over its compositions, then its extra_stages); a row with
// no privacy-loss distribution (zcdp, rdp) makes the total's bounds empty,
// with a message naming the rows.

// StatusTotal is the status of a row riskbatch appends for a dataset
// group: the composition of the group's rows.
const StatusTotal Status = "total"

// DatasetWorstAdvantage names the output column that marks every row of a
// dataset group with its total's fdp_worst_advantage.
const DatasetWorstAdvantage = "dataset_worst_advantage"

// maxTotalNames bounds the rows a total's message names (left out, or not
// composable): the count of the others is given instead, so that the
// memory of a group does not grow with its rows.
const maxTotalNames = 5

// Member is what a dataset group's total takes from one row: the group,
// the row's stages (or why it has none) and what the row says of the
// attack. The zero Member is a row in no group.
type Member struct {
	// Dataset is the row's dataset cell, trimmed; "" for a row in no group.
	Dataset string
	// name names the row in a total's message: its id, else where it is.
	name string
	// failed marks a row with status error: it is not composed.
	failed bool
	stages []pld.Stage
	// cannot is why the row's mechanism cannot be composed ("" if it can).
	cannot string
	attack []fieldValue
}

// fieldValue is a row's value of one input field, as read.
type fieldValue struct {
	field Field
	num   float64
	text  string
}

// agreedFields are the inputs that say what the attack is, or at which δ
// an ε is reported, rather than what the mechanism is: a total row has
// each of them when every composed row has the same value, and none of
// them when the rows differ (its bounds that need it are then empty). The
// calibration target is not among them: a calibration of a total row
// would vary its first stage only, which no member asked for.
func agreedFields() []Field {
	return []Field{FieldDelta, FieldBaseline, FieldCandidates, FieldPrior, FieldTargets, FieldSuccesses,
		FieldConfidence, FieldTolerance, FieldRecords, FieldPredicateWeight, FieldReportDelta}
}

// Dataset returns a row's dataset cell, trimmed: "" when the table has no
// dataset column or the cell is empty (the row is in no group).
func (b *Binding) Dataset(cells []table.Cell) string {
	i := b.index[FieldDataset]
	if i < 0 || i >= len(cells) || cells[i].IsEmpty() {
		return ""
	}
	return strings.TrimSpace(cells[i].String())
}

// Member reads what a group's total needs of a row: the row as Evaluate
// reads it, so that a row Evaluate rejects (status error), or that a
// reader could not read whole (readErr), is a failed member. where names
// the row in messages when it has no id ("row 12").
func (b *Binding) Member(cells []table.Cell, readErr error, where string) Member {
	m := b.memberName(cells, where)
	if m.Dataset == "" {
		return m
	}
	if readErr != nil {
		m.failed = true
		return m
	}
	var in inputs
	problems := b.readCells(cells, &in)
	var r *Release
	if len(problems) == 0 {
		r = b.resolve(&in, &problems)
	}
	b.memberOf(&m, &in, r)
	return m
}

// EvaluateMember is Evaluate of a row the reader read whole, and its
// Member from the same reading: the row is resolved once, not once for
// each. It is for a run that composes each group as its rows are written
// (rows sorted by dataset).
func (b *Binding) EvaluateMember(cells []table.Cell, dst []table.Cell, where string) (Status, Member) {
	var m Member
	status := b.evaluateThen(cells, rowOut{cells: dst}, func(r *Release) {
		m = b.memberName(cells, where)
		if m.Dataset == "" {
			return
		}
		var in inputs
		if r != nil {
			b.readCells(cells, &in) // the attack fields: a parse, not a resolution
		}
		b.memberOf(&m, &in, r)
	})
	return status, m
}

// memberName is the member of a row with its group and name and nothing
// else yet.
func (b *Binding) memberName(cells []table.Cell, where string) Member {
	m := Member{Dataset: b.Dataset(cells), name: where}
	if m.Dataset == "" {
		return m
	}
	if i := b.index[FieldID]; i >= 0 && i < len(cells) && !cells[i].IsEmpty() {
		m.name = strings.TrimSpace(cells[i].String())
	}
	return m
}

// memberOf fills m from the row's inputs in and its release r; a nil r (a
// row rejected) fails it.
func (b *Binding) memberOf(m *Member, in *inputs, r *Release) {
	if r == nil {
		m.failed = true
		return
	}
	for _, f := range agreedFields() {
		if in.has(f) {
			m.attack = append(m.attack, fieldValue{field: f, num: in.num[f], text: in.text[f]})
		}
	}
	m.stages, m.cannot = memberStages(r)
}

// memberStages is a row's releases as stages (Release.Stages: its own
// mechanism over its compositions, then its extra_stages), or why it has
// none: zcdp and rdp rows state no privacy-loss distribution to compose.
func memberStages(r *Release) ([]pld.Stage, string) {
	stages, ok := r.Stages()
	if !ok {
		return nil, "mechanism " + string(r.Mechanism) + " states no privacy-loss distribution to compose"
	}
	return stages, ""
}
