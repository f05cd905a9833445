package readers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// Typing a cell: shared formulas moved to their cells, cached values by
// their type attribute, and formulas without a cached value handed to the
// calculation engine.

// formulaOf returns the formula of a cell: its own text, or for a cell
// that shares the formula of a master cell (t="shared" with only an si),
// the master's formula moved to the cell as a spreadsheet moves it. An
// array formula (and a data table's) gives "": its text is not the
// formula of the cell alone, so its value is kept without it.
func (s *sheetStream) formulaOf(rc rawCell) (f string, array bool, err error) {
	switch rc.fType {
	case "array", "dataTable":
		return "", true, nil
	case "shared":
		if strings.TrimSpace(rc.f) != "" {
			if s.shared == nil {
				s.shared = map[string]sharedFormula{}
			}
			s.shared[rc.fSI] = sharedFormula{text: rc.f, col: rc.col, row: rc.row}
			return rc.f, false, nil
		}
		m, ok := s.shared[rc.fSI]
		if !ok {
			return "", false, fmt.Errorf("the workbook is damaged: the shared formula %q this cell uses is not defined before it", clip(rc.fSI))
		}
		moved, ok := xlformula.Shift(m.text, rc.row-m.row, rc.col-m.col)
		if !ok {
			return "", false, fmt.Errorf("the shared formula =%s cannot be moved to this cell: a reference leaves the sheet", clip(m.text))
		}
		return moved, false, nil
	}
	return rc.f, false, nil
}

// decodeCell types a cell's value: by its type attribute, and for a
// number by its number format (a date or time format makes a Date,
// Timestamp or TimeOfDay cell). A formula's value is its cached one, or
// the one the calculation engine computes; Cell.Formula holds it.
func (s *sheetStream) decodeCell(rc rawCell) (table.Cell, error) {
	formula, array := "", false
	if rc.hasF {
		var err error
		if formula, array, err = s.formulaOf(rc); err != nil {
			return table.Cell{}, err
		}
		formula = strings.TrimPrefix(strings.TrimSpace(formula), "=")
		// openpyxl and pandas write a formula's missing value as an empty
		// <v></v>: only a string result may be empty.
		cached := rc.hasIS || rc.hasV && (strings.TrimSpace(rc.v) != "" || rc.typ == "str" || rc.typ == "inlineStr")
		if s.onFormula != nil && formula != "" {
			s.onFormula(rc.col, rc.row, formula, cached)
		}
		if !cached {
			return s.computeCell(rc, formula, array)
		}
	}
	cell, err := s.value(rc)
	if err != nil {
		return table.Cell{}, err
	}
	cell.Formula = formula
	return cell, nil
}

// computeCell is the value of a formula without a cached value.
func (s *sheetStream) computeCell(rc rawCell, formula string, array bool) (table.Cell, error) {
	where := table.ColumnLetter(rc.col) + strconv.Itoa(rc.row)
	const advice = "open the workbook in a spreadsheet application and save it, so that its formulas are calculated"
	switch {
	case array:
		return table.Cell{}, fmt.Errorf("cell %s holds an array formula without a computed value, which riskbatch does not compute; %s", where, advice)
	case formula == "":
		return table.Cell{}, fmt.Errorf("cell %s holds an empty formula without a computed value; %s", where, advice)
	case s.calc == nil:
		return table.Cell{}, fmt.Errorf("the formula =%s in cell %s has no computed value; %s", clip(formula), where, advice)
	}
	cell, err := s.calc(rc.col, rc.row, formula)
	if err != nil {
		msg := fmt.Sprintf("the formula =%s in cell %s has no computed value, and riskbatch cannot compute it: %v", clip(formula), where, err)
		var ce *calcError
		if errors.As(err, &ce) && ce.advise {
			msg += "; " + advice
		}
		if ce != nil && ce.err != nil {
			return table.Cell{}, fmt.Errorf("%s: %w", msg, ce.err)
		}
		return table.Cell{}, errors.New(msg)
	}
	if cell.Kind == table.Number {
		if t, ok := serialCell(cell.Num, s.styles.classOf(rc.style), s.date1904); ok {
			cell = t
		}
	}
	cell.Formula = formula
	return cell, nil
}

// value types a cell's cached (or plain) value.
func (s *sheetStream) value(rc rawCell) (table.Cell, error) {
	v := rc.v
	switch rc.typ {
	case "s":
		if strings.TrimSpace(v) == "" {
			return table.Cell{}, nil
		}
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(s.sst) {
			return table.Cell{}, fmt.Errorf("the workbook is damaged: shared string %q does not exist", clip(v))
		}
		if n, long := s.sstLong[i]; long {
			return table.Cell{}, limitError(limitCellBytes, s.cellMax, "this cell's text (shared string %d) holds %s", i, byteSize(n))
		}
		return textCell(s.sst[i]), nil
	case "inlineStr":
		if !rc.hasIS {
			return textCell(v), nil
		}
		return textCell(rc.inline), nil
	case "str", "e":
		return textCell(v), nil
	case "d":
		return isoCell(v), nil
	case "b":
		switch strings.TrimSpace(v) {
		case "1", "true", "TRUE":
			return table.BoolCell(true), nil
		case "0", "false", "FALSE":
			return table.BoolCell(false), nil
		case "":
			return table.Cell{}, nil
		}
		return table.Cell{}, fmt.Errorf("boolean cell holds %q", clip(v))
	case "", "n":
		t := strings.TrimSpace(v)
		if t == "" {
			return table.Cell{}, nil
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return table.Cell{}, fmt.Errorf("number cell holds %q", clip(v))
		}
		if c, ok := serialCell(x, s.styles.classOf(rc.style), s.date1904); ok {
			return c, nil
		}
		return table.NumberCell(x), nil
	}
	return table.Cell{}, fmt.Errorf("unknown cell type %q", clip(rc.typ))
}

// textCell is a Text cell, or an Empty one for "".
func textCell(s string) table.Cell {
	if s == "" {
		return table.Cell{}
	}
	return table.TextCell(s)
}

// columnOf returns the 0-based column of a cell reference such as "AB12"
// (its letters; the row digits are not checked).
func columnOf(ref string) (int, bool) {
	col, n := 0, 0
	for ; n < len(ref); n++ {
		c := ref[n]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c < 'A' || c > 'Z' {
			break
		}
		col = col*26 + int(c-'A'+1)
		if col > maxSheetCols {
			return 0, false
		}
	}
	if n == 0 {
		return 0, false
	}
	return col - 1, true
}
