package evaluate

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/table"
)

// Evaluating one row: its cells read into inputs, resolved into a
// Release, and its output (status, message, headline and bounds) written.

// rowOut is where a row's output goes: the status in cells[0], the
// message in cells[1], the headline in cells[2] and cells[3], and the
// value of output column k in cells[HeadWidth+k] as a number cell, or,
// when nums is not nil, in nums[k] (NaN for none).
type rowOut struct {
	cells []table.Cell
	nums  []float64
}

// clearValues empties every output column's value and the headline.
func (o rowOut) clearValues() {
	if o.nums == nil {
		clear(o.cells[2:])
		return
	}
	clear(o.cells[2:HeadWidth])
	for k := range o.nums {
		o.nums[k] = math.NaN()
	}
}

// set writes the value of output column k.
func (o rowOut) set(k int, v float64) {
	if o.nums != nil {
		o.nums[k] = v
	} else {
		o.cells[HeadWidth+k] = table.NumberCell(v)
	}
}

// value is the value of output column k, and whether it has one.
func (o rowOut) value(k int) (float64, bool) {
	if o.nums != nil {
		v := o.nums[k]
		return v, v == v
	}
	c := o.cells[HeadWidth+k]
	return c.Num, c.Kind == table.Number
}

// evaluateThen is Evaluate into out, calling use (when it is not nil) with the
// row's release (nil for a row rejected) before the release goes back to
// be reused: use must not keep r.
func (b *Binding) evaluateThen(cells []table.Cell, out rowOut, use func(r *resolve.Release)) Status {
	// Most rows have a few marks, so they live on the stack.
	var buf [32]mark
	// The row's Release is one the binding reuses: nothing keeps it past
	// the row, and it is cleared before it goes back.
	scratch, _ := b.releases.Get().(*resolve.Release)
	if scratch == nil {
		scratch = new(resolve.Release)
	}
	status, r, problems, marks := b.evaluateInto(scratch, cells, out, buf[:0])
	dst := out.cells
	dst[0] = table.TextCell(string(status))
	switch {
	case status == StatusError:
		dst[1] = table.TextCell(errorMessage(problems.Texts()))
	case len(marks) == 0:
		dst[1] = table.Cell{}
	default:
		dst[1] = table.TextCell(b.message(marks, r))
	}
	if status != StatusError {
		if h, ok := b.headline(r, out); ok {
			dst[2], dst[3] = table.NumberCell(h.Value), table.TextCell(h.Says)
		}
	}
	if use != nil {
		use(r)
	}
	*scratch = resolve.Release{}
	b.releases.Put(scratch)
	return status
}

// evaluate computes the output cells dst[2:] of one row and returns its
// status with what its message is made of: the problems of a rejected row,
// or the marks of the output columns that have something to say.
func (b *Binding) evaluate(cells []table.Cell, dst []table.Cell, marks []mark) (Status, *resolve.Release, resolve.RowError, []mark) {
	return b.evaluateInto(new(resolve.Release), cells, rowOut{cells: dst}, marks)
}

// evaluateInto is evaluate with the row resolved into r, which must be
// zero (see resolveInto).
func (b *Binding) evaluateInto(r *resolve.Release, cells []table.Cell, out rowOut, marks []mark) (Status, *resolve.Release, resolve.RowError, []mark) {
	var in resolve.Inputs
	problems := b.h.ReadCells(cells, &in)
	if len(problems) == 0 {
		r = b.resolveInto(r, &in, &problems)
	} else {
		r = nil
	}
	out.clearValues()
	if r == nil {
		return StatusError, nil, problems, marks
	}
	bit := registry.MechanismBit(r.Mechanism)
	for _, u := range b.unused {
		if in.Has(u.Field) && u.Mechanisms&bit == 0 {
			marks = append(marks, mark{kind: markUnused, column: -1, text: b.h.Name(u.Field) + ": filled, but only " + u.Users + " rows use it; clear it or correct mechanism"})
		}
	}
	status, marks := b.outputCells(r, out, marks)
	return status, r, problems, marks
}

// outputCells computes the output columns of the row's mechanism into
// out (whose values are empty), and returns the row's status with the marks of the columns
// that have something to say.
func (b *Binding) outputCells(r *resolve.Release, out rowOut, marks []mark) (Status, []mark) {
	status := StatusOK
	var asks registry.AskSet
	// The columns of the row's mechanism (of a mixture: those of every
	// mechanism); the others do not apply to it.
	for _, p := range b.plans.Of(r) {
		if !asks.Asked(p.Asks, r) || !p.Only.Holds(r) {
			continue // the row does not ask for the column
		}
		k := p.Index
		o := &b.outputs[k]
		v, s := o.ValueAsked(r)
		if s.OK() && (math.IsNaN(v) || math.IsInf(v, 0)) {
			// Never write NaN or ±Inf: report it (tests look for this).
			s = resolve.Skip{Why: registry.WhyNumericalFailure, Fault: true}
		}
		switch {
		case s.OK():
			out.set(k, v)
			if s.Note != "" {
				marks = append(marks, mark{kind: markNote, text: s.Note, bare: s.Bare, column: k})
			}
		case s.Silent:
		case s.Need != 0:
			status = StatusPartial
			marks = append(marks, mark{kind: markNeed, need: s.Need, column: k})
		case s.Fault:
			status = StatusPartial
			marks = append(marks, mark{kind: markFault, text: s.Why, bare: s.Bare, column: k})
		case s.Unused:
			marks = append(marks, mark{kind: markUnused, text: s.Why, bare: s.Bare, column: k})
		default:
			marks = append(marks, mark{kind: markWhy, text: s.Why, bare: s.Bare, column: k})
		}
	}
	return status, marks
}
