package writers

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/numtext"
	"github.com/riskbatch/riskbatch/table"
)

// Write appends one row: held while the first rows fix the column widths,
// then written, starting a new sheet when the current one is full.
func (w *xlsxWriter) Write(cells []table.Cell) error {
	return w.WriteFrom(cells, RowOrigin{})
}

// WriteFrom is Write for a row whose input side was read at origin, so
// that the formulas of its input cells can be kept live where they land
// (see OriginWriter).
func (w *xlsxWriter) WriteFrom(cells []table.Cell, origin RowOrigin) error {
	if err := w.beginRow(cells); err != nil {
		return err
	}
	if w.sampling {
		w.pending = append(w.pending, pendingRow{append([]table.Cell(nil), cells...), origin})
		if len(w.pending) < widthSampleRows {
			return nil
		}
		if err := w.startData(); err != nil {
			return w.fail(err)
		}
		return nil
	}
	w.origin = origin
	if err := w.writeRow(cells); err != nil {
		return w.fail(err)
	}
	return nil
}

// writeRow writes one row on the current sheet, or on a new one when it is
// full.
func (w *xlsxWriter) writeRow(cells []table.Cell) error {
	if w.row >= w.maxRows {
		if err := w.endSheet(); err != nil {
			return err
		}
		if err := w.startSheet(); err != nil {
			return err
		}
	}
	if w.formulas != nil {
		w.formulas.Formulas(cells, w.fbuf)
	}
	sheetRow := strconv.Itoa(w.row + 1)
	flag := flagNone
	if w.statusCol >= 0 {
		flag = rowFlagOf(cells[w.statusCol].String())
	}
	for i, c := range cells {
		v, numFmt := w.value(c)
		if c.Kind == table.Text && w.numeric[i] {
			if x, ok := numtext.Plain(c.Str); ok {
				v = x
			}
		}
		if numFmt == "" {
			numFmt = w.colFmt[i]
			if x, ok := v.(float64); ok && w.real[i] {
				numFmt = realNumFmt(realDecimals(x))
			}
		}
		formula := ""
		if w.fbuf != nil && w.fbuf[i] != "" {
			if _, isNum := v.(float64); isNum {
				formula, _ = w.rowCells.formula(w.fbuf[i], sheetRow)
			}
		} else if c.Formula != "" && w.inputCols[i] {
			var ok bool
			if formula, ok = w.inputFormula(c.Formula, i); !ok {
				formula = ""
				w.asValues++
			} else if v == nil {
				v = "" // a formula whose value is empty: no cached value
			}
		}
		if v == nil && flag == flagNone {
			w.vals[i] = nil // nothing to write: no value, no fill
			continue
		}
		if v != nil && (v != "" || formula != "") {
			w.filled[i]++
			w.count[i]++
		}
		align := alignDefault
		if i == w.statusCol {
			align = alignCenter
		} else if _, isNum := v.(float64); isNum && w.foldedOut[i] {
			align = alignDistributed
		} else if w.wrap[i] && v != nil {
			align = alignWrap
		}
		style, err := w.cellStyle(numFmt, flag, align)
		if err != nil {
			return err
		}
		w.cells[i] = excelize.Cell{StyleID: style, Value: v, Formula: formula}
		w.vals[i] = &w.cells[i]
	}
	w.row++
	var opts []excelize.RowOpts
	if lines := w.wrappedLines(cells); lines > 1 {
		opts = append(opts, excelize.RowOpts{Height: float64(lines) * lineHeight})
	}
	if err := w.sw.SetRow("A"+strconv.Itoa(w.row), w.vals, opts...); err != nil {
		return fmt.Errorf("writers: %s: writing data row %d (sheet %q, row %d): %w",
			w.out.target, w.rows+1, w.sheet, w.row, err)
	}
	w.rows++
	return nil
}

// value is the excelize value of a cell (nil for an empty cell) and the
// number format it needs, if any: a date or time is a serial number in a
// date or time format, a decimal a number shown with its digits.
func (w *xlsxWriter) value(c table.Cell) (interface{}, string) {
	switch c.Kind {
	case table.Number:
		return c.Num, ""
	case table.Integer:
		if c.Int > maxExactInteger || c.Int < -maxExactInteger {
			return strconv.FormatInt(c.Int, 10), ""
		}
		return c.Int, ""
	case table.Text, table.Nested:
		s, cut := truncate(c.Str)
		if cut {
			w.cut++
		}
		return s, ""
	case table.Bool:
		return c.Bool, ""
	case table.Date, table.Timestamp, table.TimeOfDay:
		if x, format, ok := serialOf(c); ok {
			return x, format
		}
		return c.String(), ""
	case table.Decimal:
		if x, format, ok := decimalNumber(c); ok {
			return x, format
		}
		s, _ := truncate(c.Str)
		return s, ""
	}
	return nil, ""
}

// lineHeight is the height in points of a line of the default font.
const lineHeight = 15

// wrappedLines is the number of lines the tallest wrapped cell of a row
// takes (see sentences): a spreadsheet need not size the row to it, and
// LibreOffice does not, so the row's height is set.
func (w *xlsxWriter) wrappedLines(cells []table.Cell) int {
	lines := 1
	for i, c := range cells {
		if !w.wrap[i] || c.Kind != table.Text {
			continue
		}
		n := 0
		for _, l := range strings.Split(c.Str, "\n") {
			n += wrapLines(l, int(w.widths[i]))
		}
		lines = max(lines, n)
	}
	return min(lines, maxWrappedLines)
}

// maxWrappedLines bounds the height of a row (409 points is Excel's most).
const maxWrappedLines = 20

// wrapLines is the number of lines a text takes wrapped at word breaks
// in a column width characters wide (a word longer than the width is
// broken).
func wrapLines(text string, width int) int {
	width = max(width-1, 1) // the cell's margins
	lines, col := 1, 0
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case col == 0:
			col = n
		case col+1+n <= width:
			col += 1 + n
		default:
			lines++
			col = n
		}
		for col > width {
			lines++
			col -= width
		}
	}
	return lines
}
