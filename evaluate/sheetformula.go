package evaluate

import (
	"errors"
	"fmt"
	"sort"

	"github.com/riskbatch/riskbatch/evaluate/internal/formula"
	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// SheetBinding maps the header of an output table (input columns, then the
// evaluator's Columns) to the inputs and outputs, to write the table as a
// live workbook. Formulas is not safe for concurrent use (a writer calls
// it for one row at a time); the other methods are.
type SheetBinding struct {
	b       *Binding
	first   int           // header index of the status column
	table   formula.Table // what the row's formulas refer to
	outputs []registry.OutputColumn
	named   map[string]release.Mechanism // mechanism cells already looked up
}

// maxNamedMechanisms bounds SheetBinding.named: a table names its
// mechanisms in a handful of spellings.
const maxNamedMechanisms = 64

// BindSheet matches an output table's header: the input columns, then the
// evaluator's Columns() (status, message and the outputs) at its end.
func (e *Evaluator) BindSheet(header []table.Column) (*SheetBinding, error) {
	first := len(header) - e.Width()
	if first < 0 {
		return nil, errors.New("evaluate: the header is shorter than the evaluator's columns")
	}
	for k, c := range e.Columns() {
		if header[first+k].Name != c.Name {
			return nil, fmt.Errorf("evaluate: header column %d is %q where the evaluator writes %q", first+k, header[first+k].Name, c.Name)
		}
	}
	b, err := e.Bind(header[:first])
	if err != nil {
		return nil, err
	}
	s := &SheetBinding{b: b, first: first, outputs: e.outputs, named: map[string]release.Mechanism{}}
	s.table.OutputStart, s.table.Confidence = first+HeadWidth, b.h.Confidence()
	for f := range s.table.Ref {
		i := b.h.Column(release.Field(f))
		s.table.Column[f] = i
		if i >= 0 {
			s.table.Ref[f] = xlformula.ThisRow(header[i].Name)
		}
	}
	for _, o := range e.outputs {
		s.table.Outputs = append(s.table.Outputs, o.Name)
		s.table.OutRef = append(s.table.OutRef, xlformula.ThisRow(o.Name))
	}
	return s, nil
}

// Field returns the header index of an input field's column, or -1.
func (s *SheetBinding) Field(f release.Field) int { return s.b.h.Column(f) }

// NumberColumns returns the header indexes of the numeric inputs (every
// input of the contract but id, mechanism and prior). A workbook writes
// their text cells that hold a plain decimal number as numbers, as it
// must for formulas to use them: CSV and TSV inputs carry no types.
func (s *SheetBinding) NumberColumns() []int {
	var cols []int
	for f := release.Field(0); f < release.NumFields; f++ {
		if i := s.b.h.Column(f); i >= 0 && !s.b.Vocabulary().Column(f).Text {
			cols = append(cols, i)
		}
	}
	sort.Ints(cols)
	return cols
}

// Advantages returns the header indexes of the output columns that bound an
// attack's advantage (formula.Form.Advantage).
func (s *SheetBinding) Advantages() []int {
	var cols []int
	for k, o := range s.outputs {
		if o.Sheet.Advantage {
			cols = append(cols, s.first+HeadWidth+k)
		}
	}
	return cols
}

// OutputColumns returns the header indexes of the output columns (those
// after status and message) for which keep is true.
func (s *SheetBinding) OutputColumns(keep func(registry.OutputColumn) bool) []int {
	var cols []int
	for k, o := range s.outputs {
		if keep(o) {
			cols = append(cols, s.first+HeadWidth+k)
		}
	}
	return cols
}

// Describe returns what the header note of column col says about its cells
// in a workbook ("" for inputs, status and message).
func (s *SheetBinding) Describe(col int) string {
	k := col - s.first - HeadWidth
	if k < 0 || k >= len(s.outputs) {
		return ""
	}
	return s.outputs[k].Sheet.Describe()
}

// Formulas sets formulas[i] to the spreadsheet formula of cells[i] (without
// "="), which refers to the row's cells by their header names
// (xlformula.ThisRow), or to "" where the cell is written as a value (see
// the package comment on live workbooks).
func (s *SheetBinding) Formulas(cells []table.Cell, formulas []string) {
	for i := range formulas {
		formulas[i] = ""
	}
	if len(cells) != len(formulas) || len(cells) < s.first+HeadWidth+len(s.outputs) {
		return
	}
	switch Status(cells[s.first].String()) {
	case StatusOK, StatusPartial:
	default:
		return
	}
	in, ok := s.b.h.ParseInputs(cells)
	if !ok {
		return
	}
	mech, ok := s.mechanism(&in)
	if !ok {
		return
	}
	x := s.table.NewRow(&in, cells, formulas, mech)
	for k, o := range s.outputs {
		at := s.first + HeadWidth + k
		if o.Sheet.Formula == nil || cells[at].Kind != table.Number {
			continue
		}
		if f, ok := x.Formula(o.Sheet.Formula); ok {
			formulas[at] = f
		}
	}
}

// mechanism is the row's mechanism, as Evaluate finds it.
func (s *SheetBinding) mechanism(in *resolve.Inputs) (release.Mechanism, bool) {
	if !in.Set[release.FieldMechanism] {
		var problems resolve.RowError
		spec := s.b.h.Mechanism(in, &problems)
		if spec == nil {
			return "", false
		}
		return spec.Name, true
	}
	text := in.Text[release.FieldMechanism]
	if m, ok := s.named[text]; ok {
		return m, true
	}
	spec, err := s.b.h.LookupMechanism(text)
	if err != nil {
		return "", false
	}
	if len(s.named) < maxNamedMechanisms {
		s.named[text] = spec.Name
	}
	return spec.Name, true
}
