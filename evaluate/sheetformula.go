package evaluate

import (
	"errors"
	"fmt"
	"sort"

	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// Live workbooks. An output column whose bound has a closed form that a
// spreadsheet computes with its own functions (EXP, LN, NORMSDIST, …) is
// written as a formula over the row's input cells, with riskbatch's value
// as the formula's cached result: the workbook opens showing riskbatch's
// numbers and recomputes them when an analyst edits ε, δ, σ or the
// baseline. The formula of a column lives on its registry entry
// (OutputColumn.Sheet); SheetBinding writes it for one row at a time, in
// terms of the row's columns by name, as Excel's structured references to
// a table row do ([@epsilon], see xlformula.ThisRow). Where the columns and
// the row land on a sheet is the workbook writer's business: it binds
// each name to its cell.
//
// A formula is written for a row only when all of these hold:
//
//   - the row's status is ok or partial and the cell has a value;
//   - every input the value depends on is a cell of the row that the
//     formula references (a baseline typed as baseline or as candidates,
//     not derived from a prior; a Gaussian μ from sigma and sensitivity or
//     from mu, not both; no compositions where the formula has none), and
//     each referenced cell holds a number (or text that is a plain decimal
//     number, which the workbook writes as a number: see NumberColumns);
//   - the inputs lie where spreadsheet arithmetic is safe: ε ≤ 700 (e^ε
//     overflows near 709.8), baselines of Gaussian curves in
//     [1e-300, 1 − 1e-15] (the domain of NORMSINV), and the ranges named
//     on each formula where a spreadsheet would lose precision.
//
// Everywhere else the cell holds the value alone. The formulas reproduce
// riskbatch's values to 1e-9 absolute (riskbatch rounds its upper bounds
// up by a few ulps and computes tails without cancellation; a spreadsheet
// that recalculates may differ in the last digits).
//
// The formulas use only functions of Excel 2007's file format, which every
// spreadsheet reads by their plain names: the normal distribution is
// NORMSDIST(x) and NORMSINV(p), not NORM.S.DIST(x,TRUE) and NORM.S.INV(p).
// Those two are Excel 2010 functions, which a file must name
// _xlfn.NORM.S.DIST and _xlfn.NORM.S.INV; and Gnumeric (1.12) has no
// NORM.S.DIST under either name (#NAME? once it recalculates). They are
// the same functions: Excel 2010 gave NORMSDIST and NORMSINV the improved
// algorithms of their new names (Microsoft, "What's new: changes made to
// Excel functions"), and LibreOffice computes both pairs with the same
// code.

// maxSheetExp is the largest exponent a formula passes to EXP: e^700 ≈
// 1e304 still fits a double, e^710 does not.
const maxSheetExp = 700

// Gaussian baselines outside [minSheetQuantile, 1 − maxSheetQuantileGap]
// are beyond what NORMSINV accepts or resolves.
const (
	minSheetQuantile    = 1e-300
	maxSheetQuantileGap = 1e-15
)

// minSheetGap bounds 1 − x from below where a formula divides by 1 − x
// (1 − baseline, 1 − target_advantage): the cancellation in 1 − x then
// costs at most ~1e-10 absolute. (LibreOffice even rounds a difference of
// nearly equal numbers to 0: 1 − (1 − 1e-15) is 0 there.)
const minSheetGap = 1e-6

// maxSheetRecords bounds records in pso_baseline's (1 − w)^(records − 1),
// whose relative error grows as records × 1e-16.
const maxSheetRecords = 1e6

// SheetForm says how an output column is written in a workbook besides its
// value.
type SheetForm struct {
	// Advantage marks a bound on an attack's advantage (success beyond the
	// baseline), the quantity target_advantage and riskbatch's --threshold
	// are stated in; the workbook shades these cells against them.
	Advantage bool
	// Rows names the rows whose cell is a live formula, for the column's
	// note; empty for a column that is always written as a value because
	// it needs numerical work (root finding, optimisation, convolution).
	Rows string
	// formula returns the column's spreadsheet formula for one row,
	// without the leading "=", in terms of the row's quantities (see
	// sheetRow), which refer to the row's cells by column name; a failed
	// requirement of x makes it void.
	formula func(x *sheetRow) string
}

// The rows a formula covers, for the notes. A test checks them against the
// rows that get formulas.
const (
	sheetRowsCurve  = "pure, exponential, approx, laplace and rr rows of one composition, and gaussian, gdp and marginals rows"
	sheetRowsBinary = "pure, exponential, approx and laplace rows of one composition, and gaussian, gdp and marginals rows"
	sheetRowsEps    = "pure, exponential, laplace and rr rows with delta empty, and approx rows of one composition"
	sheetRowsPure   = "pure, exponential, laplace and rr rows with delta empty"
	sheetRowsRho    = "zcdp, gaussian, gdp and marginals rows"
	sheetRowsRDP    = "rdp, zcdp, gaussian, gdp and marginals rows"
	sheetRowsDelta  = "pure, exponential, laplace and rr rows, approx rows of one composition, and gaussian, gdp, marginals, zcdp, rdp and dpsgd rows with a delta"
	sheetRowsAll    = "every row"
)

// withSheet sets how a column is written in a workbook.
func withSheet(s SheetForm, c OutputColumn) OutputColumn {
	c.Sheet = s
	return c
}

// Describe says how the column's cells are written in a workbook, for its
// header note and the Columns sheet.
func (s SheetForm) Describe() string {
	if s.formula == nil {
		return "In the workbook: value (numerical)."
	}
	return "In the workbook: a live formula on " + s.Rows +
		" (with the inputs it needs typed in the row); elsewhere the value."
}

// SheetBinding maps the header of an output table (input columns, then the
// evaluator's Columns) to the inputs and outputs, to write the table as a
// live workbook. Formulas is not safe for concurrent use (a writer calls
// it for one row at a time); the other methods are.
type SheetBinding struct {
	b       *Binding
	first   int                       // header index of the status column
	ref     [release.NumFields]string // this-row reference to each input field's column; "" if absent
	outRef  []string                  // this-row reference to each output column
	outputs []OutputColumn
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
	for f := range s.ref {
		if i := b.Column(release.Field(f)); i >= 0 {
			s.ref[f] = xlformula.ThisRow(header[i].Name)
		}
	}
	for _, o := range e.outputs {
		s.outRef = append(s.outRef, xlformula.ThisRow(o.Name))
	}
	return s, nil
}

// Field returns the header index of an input field's column, or -1.
func (s *SheetBinding) Field(f release.Field) int { return s.b.Column(f) }

// NumberColumns returns the header indexes of the numeric inputs (every
// input of the contract but id, mechanism and prior). A workbook writes
// their text cells that hold a plain decimal number as numbers, as it
// must for formulas to use them: CSV and TSV inputs carry no types.
func (s *SheetBinding) NumberColumns() []int {
	var cols []int
	for f := release.Field(0); f < release.NumFields; f++ {
		if i := s.b.Column(f); i >= 0 && !s.b.Vocabulary().Column(f).Text {
			cols = append(cols, i)
		}
	}
	sort.Ints(cols)
	return cols
}

// Advantages returns the header indexes of the output columns that bound an
// attack's advantage (SheetForm.Advantage).
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
func (s *SheetBinding) OutputColumns(keep func(OutputColumn) bool) []int {
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
	in, ok := s.b.ParseInputs(cells)
	if !ok {
		return
	}
	mech, ok := s.mechanism(&in)
	if !ok {
		return
	}
	x := sheetRow{s: s, in: &in, cells: cells, formulas: formulas, mech: mech}
	for k, o := range s.outputs {
		at := s.first + HeadWidth + k
		if o.Sheet.formula == nil || cells[at].Kind != table.Number {
			continue
		}
		x.ok = true
		if f := o.Sheet.formula(&x); x.ok {
			formulas[at] = f
		}
	}
}

// mechanism is the row's mechanism, as Evaluate finds it.
func (s *SheetBinding) mechanism(in *resolve.Inputs) (release.Mechanism, bool) {
	if !in.Set[release.FieldMechanism] {
		var problems resolve.RowError
		spec := s.b.Mechanism(in, &problems)
		if spec == nil {
			return "", false
		}
		return spec.Name, true
	}
	text := in.Text[release.FieldMechanism]
	if m, ok := s.named[text]; ok {
		return m, true
	}
	spec, err := s.b.LookupMechanism(text)
	if err != nil {
		return "", false
	}
	if len(s.named) < maxNamedMechanisms {
		s.named[text] = spec.Name
	}
	return spec.Name, true
}
