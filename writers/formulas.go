package writers

import (
	"fmt"
	"math"
	"strconv"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// FormulaSource gives the spreadsheet formulas of data cells (Options.Formulas).
type FormulaSource interface {
	// Formulas sets formulas[i] to the formula of cells[i], without the
	// leading "=", or to "" for a cell written as its value alone. A
	// formula refers to the row's cells by their header names, as Excel's
	// structured references to a table's row do: [@epsilon], [@[my
	// column]] (xlformula.ThisRow). The writer binds each name to its
	// column and to the sheet row the row lands on ("B7"); a formula that
	// names a column the header does not have, or has twice, is not
	// written, and the cell holds its value alone.
	Formulas(cells []table.Cell, formulas []string)
	// Describe returns what the header note of column col adds about its
	// cells (for instance which rows carry a formula), or "".
	Describe(col int) string
}

// rowCells binds the column names of a header to the cells of one sheet
// row, for the formulas of a FormulaSource.
type rowCells struct {
	column map[string]int // header name → column; -1 for a name two columns share
	letter []string       // per column
}

func newRowCells(header []table.Column) *rowCells {
	r := &rowCells{column: make(map[string]int, len(header)), letter: make([]string, len(header))}
	for i, c := range header {
		r.letter[i] = table.ColumnLetter(i)
		if _, again := r.column[c.Name]; again {
			r.column[c.Name] = -1
		} else {
			r.column[c.Name] = i
		}
	}
	return r
}

// cell is the cell of the column called name on sheet row `row`, or false
// when no column or two are called name. Names compare exactly: they are
// the header's own.
func (r *rowCells) cell(name, row string) (string, bool) {
	i, ok := r.column[name]
	if !ok || i < 0 {
		return "", false
	}
	return r.letter[i] + row, true
}

// formula is formula with its references to the row's columns by name
// bound to their cells on sheet row `row` (a decimal number), in the A1
// notation a workbook stores; false when a name has no cell or the
// formula is longer than a spreadsheet accepts.
func (r *rowCells) formula(formula, row string) (string, bool) {
	f, ok := xlformula.ResolveThisRow(formula, func(name string) (string, bool) { return r.cell(name, row) })
	if !ok || len(f) > maxFormulaChars {
		return "", false
	}
	return f, true
}

// maxFormulaChars is the longest formula Excel accepts; a longer one is
// dropped and the value written alone.
const maxFormulaChars = 8192

// Shading colours the numbers of some columns (Options.Shading) against a
// limit: red above the limit, amber above half of it, green at or below
// half. A row's limit is the number in its LimitColumn when that cell holds
// one, else Limit; a row with neither is coloured by the Scale: green below
// Scale.Amber, amber from there to Scale.Red, red above. The colours are
// conditional formats, so they follow a spreadsheet's recalculation.
type Shading struct {
	// Columns are the header indexes of the shaded columns.
	Columns []int
	// LimitColumn is the header index of the column holding a row's own
	// limit (target_advantage, say), or -1.
	LimitColumn int
	// Limit is the limit of rows without their own, in (0, 1]; 0 for none.
	Limit float64
	// Scale colours the rows without a limit; the zero Scale leaves them
	// plain.
	Scale ShadeScale
}

// ShadeScale is a fixed scale of colours: green below Amber, amber from
// Amber up to Red, red above Red (0 < Amber ≤ Red ≤ 1).
type ShadeScale struct{ Amber, Red float64 }

// DefaultScale is the scale of rows without a target: an advantage below
// 0.05 is green, from 0.05 to 0.2 amber, above 0.2 red.
var DefaultScale = ShadeScale{Amber: 0.05, Red: 0.2}

// Shading fills (RGB): Excel's stock light red, amber and green.
const (
	shadeRedFill   = "FFC7CE"
	shadeRedFont   = "9C0006"
	shadeAmberFill = "FFEB9C"
	shadeAmberFont = "9C5700"
	shadeGreenFill = "C6EFCE"
	shadeGreenFont = "006100"
)

// check validates the shading against the header's width.
func (s *Shading) check(n int) error {
	for _, c := range s.Columns {
		if c < 0 || c >= n {
			return fmt.Errorf("shaded column %d is outside the header's %d columns", c, n)
		}
	}
	if s.LimitColumn >= n || s.LimitColumn < -1 {
		return fmt.Errorf("limit column %d is outside the header's %d columns", s.LimitColumn, n)
	}
	if !(s.Limit >= 0 && s.Limit <= 1) || math.IsNaN(s.Limit) {
		return fmt.Errorf("limit %v is not a probability", s.Limit)
	}
	if sc := s.Scale; sc != (ShadeScale{}) && !(sc.Amber > 0 && sc.Amber <= sc.Red && sc.Red <= 1) {
		return fmt.Errorf("scale %v is not 0 < amber ≤ red ≤ 1", sc)
	}
	return nil
}

// shadeStyles are the differential styles of the three colours.
type shadeStyles struct{ red, amber, green int }

func newShadeStyles(f *excelize.File) (shadeStyles, error) {
	var s shadeStyles
	style := func(fill, font string) (int, error) {
		return f.NewConditionalStyle(&excelize.Style{
			Font: &excelize.Font{Color: font},
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{fill}},
		})
	}
	var err error
	if s.red, err = style(shadeRedFill, shadeRedFont); err != nil {
		return s, err
	}
	if s.amber, err = style(shadeAmberFill, shadeAmberFont); err != nil {
		return s, err
	}
	s.green, err = style(shadeGreenFill, shadeGreenFont)
	return s, err
}

// rules are the conditional formats of one shaded column on a sheet whose
// data rows are 2..last: red, then amber, then green, each stopping the
// next. Formulas are relative to the range's first cell (row 2); the limit
// column is anchored ($L2) so that every shaded column reads it. A row
// without a limit of its own takes Limit, else the Scale, else stays
// plain.
func (s *Shading) rules(col int, st *shadeStyles) []excelize.ConditionalFormatOptions {
	x := table.ColumnLetter(col) + "2"
	num := func(v float64) string { return strconv.FormatFloat(v, 'G', -1, 64) }
	// red and amber are the conditions of a row without a limit of its
	// own ("" when it stays plain).
	var red, amber string
	switch {
	case s.Limit > 0:
		red, amber = x+">"+num(s.Limit), x+">"+num(s.Limit)+"/2"
	case s.Scale != (ShadeScale{}):
		red, amber = x+">"+num(s.Scale.Red), x+">="+num(s.Scale.Amber)
	}
	var redIf, amberIf, guard string
	switch {
	case s.LimitColumn >= 0 && red != "":
		l := "$" + table.ColumnLetter(s.LimitColumn) + "2"
		redIf = "IF(ISNUMBER(" + l + ")," + x + ">" + l + "," + red + ")"
		amberIf = "IF(ISNUMBER(" + l + ")," + x + ">" + l + "/2," + amber + ")"
	case s.LimitColumn >= 0:
		l := "$" + table.ColumnLetter(s.LimitColumn) + "2"
		redIf, amberIf, guard = x+">"+l, x+">"+l+"/2", ",ISNUMBER("+l+")"
	case red != "":
		redIf, amberIf = red, amber
	default:
		return nil
	}
	return []excelize.ConditionalFormatOptions{
		{Type: "formula", Criteria: "AND(ISNUMBER(" + x + ")" + guard + "," + redIf + ")", Format: &st.red, StopIfTrue: true},
		{Type: "formula", Criteria: "AND(ISNUMBER(" + x + ")" + guard + "," + amberIf + ")", Format: &st.amber, StopIfTrue: true},
		{Type: "formula", Criteria: "AND(ISNUMBER(" + x + ")" + guard + ")", Format: &st.green},
	}
}
