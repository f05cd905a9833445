package pipeline

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// Dataset groups. Rows with the same dataset cell are releases about the
// same people; riskbatch appends one total row per group, the composition
// of its rows (evaluate.Total), and marks every row of the group with the
// total's fdp_worst_advantage (dataset_worst_advantage).
//
// A row is written before the rows after it are read, but its mark needs
// the whole group. So, by default, the input is read twice: a first pass
// collects each group's stages (a few numbers per distinct stage: memory
// per group, not per row) and evaluates the totals; the second pass is the
// ordinary run, which marks each row as it is evaluated, and writes the
// totals after the last row, in order of their datasets' first
// appearance (Options.Reopen opens the input again for the first pass). An
// input that cannot be read twice (standard input, a pipe) is refused
// unless Options.SortedGroups (--sorted-groups) says that each dataset's
// rows are contiguous: then the input is read once, each total is written right
// after its group's last row, and the group's rows are not marked (they
// are written before their total is known, and holding them back would
// take memory per row). A dataset whose rows turn out not to be contiguous
// stops such a run (Run returns a groupOrderError: nothing written).

// datasetGroups are the dataset groups of a run.
type datasetGroups struct {
	ev     *evaluate.Evaluator
	lay    *layout.Layout
	sorted bool
	// several says that the run has several tables (rows are named with
	// their file).
	several bool
	// fieldAt is the output column of each input field the output has.
	fieldAt inputColumns
	// totals are the groups by dataset, order the same in order of first
	// appearance; in a sorted run only open is, and closed holds the
	// datasets whose total was written.
	totals map[string]*groupTotal
	order  []*groupTotal
	open   *groupTotal
	closed map[string]bool
	sum    *summary
	// statusAt is, per table, the column of a previous run's status, or
	// -1: its total rows are dropped (see previousTotal).
	statusAt []int
	// dropped counts the previous run's total rows dropped.
	dropped atomic.Int64
}

// groupTotal is a group's total and, once evaluated, its output row.
type groupTotal struct {
	*evaluate.Total
	row []table.Cell
	// seek is the group's goal seek (goalseek.go).
	seek goalSeek
}

// groupOrderError is a dataset met again after its total was written in a
// run with --sorted-groups.
type groupOrderError struct {
	dataset string
	pos     table.Position
}

func (e *groupOrderError) Error() string {
	return fmt.Sprintf("%s: dataset %q appears again after its rows ended and its total was written; with --sorted-groups the rows of each dataset must be contiguous (sort them by dataset, or run without --sorted-groups on a file)", e.pos, e.dataset)
}

// planGroups prepares the dataset groups of a run: nil when no input table
// has a dataset column. Without Options.SortedGroups it reads the inputs a first
// time and evaluates every group's total.
func planGroups(opts Options, ev *evaluate.Evaluator, lay *evalLayout, tables []readers.Table) (*datasetGroups, error) {
	if opts.PassThrough {
		return nil, nil
	}
	has := false
	for i := range tables {
		has = has || lay.Binding(i).Has(release.FieldDataset)
	}
	if !has {
		return nil, nil
	}
	g := &datasetGroups{ev: ev, lay: lay.Layout, sorted: opts.SortedGroups, several: len(tables) > 1, fieldAt: newInputColumns(lay.Layout, ev),
		totals: map[string]*groupTotal{}, closed: map[string]bool{}}
	for _, t := range tables {
		g.statusAt = append(g.statusAt, slices.IndexFunc(t.Columns(), func(c table.Column) bool {
			return release.CanonicalName(c.Name) == "status"
		}))
	}
	if g.sorted {
		return g, nil
	}
	if opts.Reopen == nil {
		return nil, errNoReopen
	}
	again, err := opts.Reopen()
	defer func() {
		for _, t := range again {
			t.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	if len(again) != len(tables) {
		return nil, fmt.Errorf("the inputs changed while riskbatch read them: %d tables, then %d", len(tables), len(again))
	}
	for ti, t := range again {
		if err := g.collect(ti, t); err != nil {
			return nil, err
		}
	}
	for _, gt := range g.order {
		g.seekGoal(gt)
		g.evaluate(gt)
	}
	return g, nil
}

// collect reads the rows of table tableNo and adds each to its group.
func (g *datasetGroups) collect(tableNo int, t readers.Table) error {
	if fr, ok := t.(readers.FieldRecords); ok {
		return g.collectFields(tableNo, t, fr)
	}
	b := g.lay.Binding(tableNo)
	for {
		row, err := t.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil && readers.IsFatal(err) {
			return err
		}
		if g.previousTotal(tableNo, row.Cells) {
			continue
		}
		g.add(b.Member(row.Cells, err, rowName(row.Pos, g.several)), tableNo, row.Pos.Row)
	}
}

// collectFields is collect for a CSV or TSV table t, read as fr: it reads
// only the fields Member and previousTotal read, as the cells Next would
// make of them (text cells), the others left empty.
func (g *datasetGroups) collectFields(tableNo int, t readers.Table, fr readers.FieldRecords) error {
	b := g.lay.Binding(tableNo)
	cols := b.MemberColumns()
	if s := g.statusAt[tableNo]; s >= 0 && !slices.Contains(cols, s) {
		cols = append(cols, s)
		slices.Sort(cols)
	}
	if len(cols) == 0 {
		return nil
	}
	if err := fr.SelectColumns(cols); err != nil {
		return err
	}
	fields := make([]string, len(cols))
	cells := make([]table.Cell, len(t.Columns()))
	for {
		row, err := fr.NextFields(fields)
		if err == io.EOF {
			return nil
		}
		if err != nil && readers.IsFatal(err) {
			return err
		}
		for j, c := range cols {
			cells[c] = table.TextCell(fields[j])
		}
		if g.previousTotal(tableNo, cells) {
			continue
		}
		pos := table.Position{File: t.File(), Sheet: t.Sheet(), Row: row}
		g.add(b.Member(cells, err, rowName(pos, g.several)), tableNo, row)
	}
}

// add adds a member to its group, which it starts if need be; the member
// is row row of table tableNo.
func (g *datasetGroups) add(m evaluate.Member, tableNo, row int) {
	if m.Dataset == "" {
		return
	}
	gt := g.totals[m.Dataset]
	if gt == nil {
		gt = &groupTotal{Total: evaluate.NewTotal(m.Dataset)}
		g.totals[m.Dataset] = gt
		g.order = append(g.order, gt)
	}
	gt.Add(m)
	if m.Unknown != nil && !gt.seek.hasUnknownRow {
		gt.seek.unknownRow, gt.seek.hasUnknownRow = rowKey{tableNo, row}, true
	}
}

// previousTotal reports whether a row of table tableNo is a total row a
// previous run of riskbatch wrote (its status column, which the layout
// drops as recomputed, says "total"). Such a row is dropped, as the
// status and bound columns are: composed again with its own dataset it
// would count the dataset's releases twice, and its total is recomputed
// from the rows anyway.
func (g *datasetGroups) previousTotal(tableNo int, cells []table.Cell) bool {
	i := g.statusAt[tableNo]
	return i >= 0 && i < len(cells) && strings.EqualFold(strings.TrimSpace(cells[i].String()), string(evaluate.StatusTotal))
}

// rowName names a row without an id in a total's message: its row, and
// its file (and sheet) when the run has several tables.
func rowName(pos table.Position, several bool) string {
	name := "row " + strconv.Itoa(pos.Row)
	switch {
	case !several:
	case pos.Sheet != "":
		name += " of " + pos.File + ":" + pos.Sheet
	default:
		name += " of " + pos.File
	}
	return name
}

// evaluate computes a group's total row.
func (g *datasetGroups) evaluate(gt *groupTotal) {
	out := make([]table.Cell, g.lay.Width())
	for _, c := range g.ev.EvaluateTotal(gt.Total, out[g.lay.Inputs():]) {
		if j, ok := g.fieldAt[c.Field]; ok {
			out[j] = c.Cell
		}
	}
	g.markTotal(gt, out[g.lay.Inputs():])
	gt.row = out
}

// mark is the groups' part of evaluating row i of a batch, whose output
// row is out and status st: a row of a group gets the group's total
// advantage (once the groups are known), or, in a sorted run, its member
// is kept for the writer to compose: m, read with the row's evaluation
// (Layout.EvaluateMember), or read here when m is nil (a row passed through).
func (g *datasetGroups) mark(b *batch, i int, out []table.Cell, st evaluate.Status, m *evaluate.Member) {
	bind := g.lay.Binding(b.tableNo)
	cells := b.rows[i].Cells
	if g.sorted {
		if b.members == nil {
			b.members = make([]evaluate.Member, len(b.rows))
		}
		if m == nil {
			b.members[i] = bind.Member(cells, b.errs[i], rowName(b.rows[i].Pos, g.several))
		} else {
			b.members[i] = *m
		}
		return
	}
	if st == evaluate.StatusError {
		return
	}
	if gt := g.totals[bind.Dataset(cells)]; gt != nil {
		g.ev.MarkMember(out[g.lay.Inputs():], gt.WorstAdvantage())
	}
}

// emitFunc writes one output row and counts it.
type emitFunc func(cells []table.Cell, st evaluate.Status) error

// beforeRow is the groups' part of writing row i of a batch, in a sorted
// run: the open group's total is written before a row of another dataset
// (or of none), and the row joins its own group.
func (g *datasetGroups) beforeRow(b *batch, i int, emit emitFunc) error {
	if !g.sorted {
		return nil
	}
	var m evaluate.Member
	if b.members != nil {
		m = b.members[i]
	}
	if g.open != nil && m.Dataset != g.open.Dataset {
		g.closed[g.open.Dataset] = true
		if err := g.writeTotal(g.open, emit); err != nil {
			return err
		}
		g.open = nil
	}
	if m.Dataset == "" {
		return nil
	}
	if g.open == nil {
		if g.closed[m.Dataset] {
			return &groupOrderError{dataset: m.Dataset, pos: b.rows[i].Pos}
		}
		g.open = &groupTotal{Total: evaluate.NewTotal(m.Dataset)}
	}
	g.open.Add(m)
	return nil
}

// finish writes the totals not yet written, once every row is.
func (g *datasetGroups) finish(emit emitFunc) error {
	if g.sorted {
		if g.open == nil {
			return nil
		}
		open := g.open
		g.open = nil
		return g.writeTotal(open, emit)
	}
	for _, gt := range g.order {
		if err := g.writeTotal(gt, emit); err != nil {
			return err
		}
	}
	return nil
}

// writeTotal writes a group's total row, evaluating it first if need be,
// and lists the group on the Summary sheet.
func (g *datasetGroups) writeTotal(gt *groupTotal, emit emitFunc) error {
	if gt.row == nil {
		g.seekGoal(gt)
		g.evaluate(gt)
	}
	if g.sum != nil {
		g.sum.addGroup(gt.Total, g.goalSummary(gt))
	}
	return emit(gt.row, evaluate.StatusTotal)
}

// dropRow reports whether the run drops a row of table tableNo as it
// reads it: a total row of a previous run (previousTotal), counted for
// droppedTotals. It is false for a run without dataset groups (g nil).
func (g *datasetGroups) dropRow(tableNo int, cells []table.Cell) bool {
	if g == nil || !g.previousTotal(tableNo, cells) {
		return false
	}
	g.dropped.Add(1)
	return true
}

// droppedTotals is the number of total rows of a previous run dropped
// from the input (0 for a run without dataset groups, g nil).
func (g *datasetGroups) droppedTotals() int {
	if g == nil {
		return 0
	}
	return int(g.dropped.Load())
}
