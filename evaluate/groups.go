package evaluate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/dataset"
	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// Member is what a dataset group's total takes from one row
// (dataset.Member).
type Member = dataset.Member

// Total is the composition of one dataset group (dataset.Total).
type Total = dataset.Total

// InputCell is one input-side cell of a total row (dataset.InputCell).
type InputCell = dataset.InputCell

// MechanismComposed is the mechanism cell of a total row.
const MechanismComposed = dataset.MechanismComposed

// NewTotal starts the total of a dataset group.
func NewTotal(name string) *Total { return dataset.NewTotal(name) }

// Dataset returns a row's dataset cell, trimmed: "" when the table has no
// dataset column or the cell is empty (the row is in no group).
func (b *Binding) Dataset(cells []table.Cell) string {
	i := b.h.Column(release.FieldDataset)
	if i < 0 || i >= len(cells) || cells[i].IsEmpty() {
		return ""
	}
	return strings.TrimSpace(cells[i].String())
}

// Composition across rows. Rows whose dataset cell holds the same text
// touch the same people: their releases compose, and the risk of all of
// them together is the risk of the composed mechanism. A Total collects,
// row by row, what that composition needs — each row's mechanism as a
// list of stages, identical stages merged — in memory that grows with the
// number of distinct stages of the group, not with its rows. The total
// row is then an ordinary input row, built from the stages (see
// Total.Synthetic), evaluated by the same evaluator as every other row:
// every bound of a total row is the bound of the composition.
//
// A member row's releases become stages as Release.Stages gives them (its
// own mechanism over its compositions, then its extra_stages); a row with
// no privacy-loss distribution (zcdp, rdp) makes the total's bounds empty,
// with a message naming the rows.

// StatusTotal is the status of a row riskbatch appends for a dataset
// group: the composition of the group's rows.
const StatusTotal Status = "total"

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
		m.Failed = true
		return m
	}
	var in resolve.Inputs
	problems := b.h.ReadCells(cells, &in)
	var r *resolve.Release
	if len(problems) == 0 {
		r = b.resolveMember(&in, &problems, &m)
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
	status := b.evaluateThen(cells, rowOut{cells: dst}, func(r *resolve.Release) {
		m = b.memberName(cells, where)
		if m.Dataset == "" {
			return
		}
		var in resolve.Inputs
		if r != nil {
			b.h.ReadCells(cells, &in) // the attack fields: a parse, not a resolution
		}
		b.memberOf(&m, &in, r)
	})
	return status, m
}

// memberName is the member of a row with its group and name and nothing
// else yet.
func (b *Binding) memberName(cells []table.Cell, where string) Member {
	m := Member{Dataset: b.Dataset(cells), Name: where}
	if m.Dataset == "" {
		return m
	}
	if i := b.h.Column(release.FieldID); i >= 0 && i < len(cells) && !cells[i].IsEmpty() {
		m.Name = strings.TrimSpace(cells[i].String())
	}
	return m
}

// memberOf fills m from the row's inputs in and its release r; a nil r (a
// row rejected) fails it.
func (b *Binding) memberOf(m *Member, in *resolve.Inputs, r *resolve.Release) {
	if r == nil {
		m.Failed = true
		return
	}
	for _, f := range dataset.AgreedFields() {
		if in.Has(f) {
			m.Attack = append(m.Attack, dataset.FieldValue{Field: f, Num: in.Num[f], Text: in.Text[f]})
		}
	}
	m.Stages, m.Cannot = memberStages(r)
	b.memberGoal(m, in)
}

// memberStages is a row's releases as stages (Release.Stages: its own
// mechanism over its compositions, then its extra_stages), or why it has
// none: zcdp and rdp rows state no privacy-loss distribution to compose.
func memberStages(r *resolve.Release) ([]pld.Stage, string) {
	stages, ok := r.Stages()
	if !ok {
		return nil, "mechanism " + string(r.Mechanism) + " states no privacy-loss distribution to compose"
	}
	return stages, ""
}

// EvaluateTotal evaluates a group's total row into dst (Width() cells:
// status total, the message, the headline, the bounds of the composition)
// and returns the input-side cells to show with it: the dataset, the
// mechanism "composed", the stages composed (extra_stages) and the attack
// fields its rows agree on (see dataset.Total.ComposedCells). The row it evaluates (the
// composition written as one row of one of the stages' mechanisms, see
// Synthetic) is not shown: its parameters are not what was released. The
// message says which rows were composed, which were left out, and why any
// bound is empty.
func (e *Evaluator) EvaluateTotal(t *Total, dst []table.Cell) []InputCell {
	clear(dst)
	shown := []InputCell{{Field: release.FieldDataset, Cell: table.TextCell(t.Dataset)}, {Field: release.FieldID, Cell: table.TextCell(t.Dataset)}}
	msg := []string{"total of dataset " + strconv.Quote(t.Dataset) + ": " + strconv.Itoa(t.Composed) + " of " + strconv.Itoa(t.Rows) + " rows composed"}
	if st := t.Stages(); st != "" {
		msg[0] += ", stages " + st
	}
	if left, n := t.Left(); n > 0 {
		msg = append(msg, "left out (status error): "+left)
	}
	var why string
	cannot, nCannot, cannotWhy := t.Cannot()
	switch {
	case nCannot > 0:
		why = "not computed: rows " + cannot + " cannot be composed (" + cannotWhy + ")"
	case t.TooLarge() != "":
		why = "not computed: " + t.TooLarge()
	case t.Unsolved() != "":
		why = "not computed: " + t.Unsolved()
	case t.Composed == 0:
		why = "not computed: no row of the dataset could be composed"
	}
	var row []InputCell
	if why == "" {
		var ok bool
		if row, ok = t.Synthetic(); !ok {
			why = "not computed: its stages are all (ε, δ) guarantees with δ > 0, which no row can state as its own mechanism beside a reporting δ; add them as extra_stages of one of its rows"
		}
	}
	if why == "" {
		b, cells, err := e.bindRow(row)
		if err != nil {
			why = "not computed: " + err.Error()
		} else {
			status := b.Evaluate(cells, dst)
			if m := dst[1].String(); m != "" && (len(t.Differ()) == 0 || status == StatusError) {
				msg = append(msg, m)
			}
			t.SetEvaluated(row)
		}
	}
	shown = append(shown, t.ComposedCells()...)
	if len(t.Differ()) > 0 {
		var fs []string
		for _, f := range t.Differ() {
			fs = append(fs, e.rows.Vocabulary().Column(f).Name)
		}
		it := "it"
		if len(fs) > 1 {
			it = "them"
		}
		msg = append(msg, "the rows differ in "+registry.AndList(fs)+", so the bounds that need "+it+" are empty")
	}
	if why != "" {
		clear(dst)
		msg = append(msg, why)
	}
	dst[0] = table.TextCell(string(StatusTotal))
	dst[1] = table.TextCell(strings.Join(msg, "; "))
	var worst table.Cell
	if k := e.outputIndex("fdp_worst_advantage"); k >= 0 {
		worst = dst[HeadWidth+k]
	} else if why == "" {
		worst = e.everyColumn().totalWorst(row)
	}
	t.SetWorst(worst)
	e.MarkMember(dst, worst)
	return shown
}

// totalWorst is the fdp_worst_advantage cell of a total's row, for an
// evaluator that does not write that column (--columns without it): what
// dataset_worst_advantage and the Summary show.
func (e *Evaluator) totalWorst(row []InputCell) table.Cell {
	k := e.outputIndex("fdp_worst_advantage")
	b, cells, err := e.bindRow(row)
	if k < 0 || err != nil {
		return table.Cell{}
	}
	dst := make([]table.Cell, e.Width())
	b.Evaluate(cells, dst)
	return dst[HeadWidth+k]
}

// MarkMember writes a group's total advantage into the
// dataset_worst_advantage cell of one of its rows' output cells (Width()
// cells, from the status).
func (e *Evaluator) MarkMember(dst []table.Cell, worst table.Cell) {
	if k := e.outputIndex(registry.DatasetWorstAdvantage); k >= 0 && HeadWidth+k < len(dst) {
		dst[HeadWidth+k] = worst
	}
}

// outputIndex is the index of the named output column, or -1.
func (e *Evaluator) outputIndex(name string) int {
	for k := range e.outputs {
		if e.outputs[k].Name == name {
			return k
		}
	}
	return -1
}

// MemberColumns are the columns of the table that Member reads, in
// increasing order: a first pass over a table's groups may read only
// these (see readers.FieldRecords).
func (b *Binding) MemberColumns() []int {
	cols := b.InputColumns()
	slices.Sort(cols)
	return cols
}

// bindRow binds a row that a dataset's total writes (Total.Synthetic): its
// input cells, each named by its field, as a table of one row with the
// contract's headers and the decimal point.
func (e *Evaluator) bindRow(row []InputCell) (*Binding, []table.Cell, error) {
	cols := make([]table.Column, len(row))
	cells := make([]table.Cell, len(row))
	for i, c := range row {
		cols[i] = table.Column{Name: e.rows.Vocabulary().Column(c.Field).Name}
		cells[i] = c.Cell
	}
	b, err := e.BindTable(cols, DecimalPoint)
	return b, cells, err
}
