package writers

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/internal/xlformula"
	"github.com/riskbatch/riskbatch/table"
)

// RowOrigin says where the input side of an output row was read.
type RowOrigin struct {
	// Row is the sheet row the input row was read from; 0 when unknown.
	Row int
	// Columns gives, for each output column, the 0-based input column its
	// cell was read from, or -1 (an output column, or one the row's table
	// does not have). nil when unknown. The writer does not modify it, and
	// the caller may share one slice between the rows of a table.
	Columns []int
}

// OriginWriter is implemented by writers that keep the formulas of input
// cells (table.Cell.Formula) live: the XLSX writer. WriteFrom is Write for
// a row read at origin. A formula moves with its row as a spreadsheet
// moves a cut-and-pasted row: its references to cells of its own input
// row are rewritten to where those cells land in the output; a formula
// without references (=2*5) is written as it is. A formula that refers to
// another row, another sheet or a defined name, or that depends on where
// it stands (ROW(), COLUMN(), INDIRECT, OFFSET, CELL), cannot be known to
// mean the same in the output: it is written as its value alone, and
// counted (FormulaReporter). Write is WriteFrom with an unknown origin, so
// that only formulas without references are kept.
type OriginWriter interface {
	WriteFrom(cells []table.Cell, origin RowOrigin) error
}

// FormulaReporter is implemented by writers that write an input formula
// as its value alone when they cannot keep it (see OriginWriter);
// FormulasAsValues returns how many so far. A caller should say so when it
// is not zero.
type FormulaReporter interface {
	FormulasAsValues() int64
}

// positional functions give a value that depends on where the formula
// stands, or references that cannot be rewritten.
var positional = []string{"ROW", "COLUMN", "INDIRECT", "OFFSET", "CELL", "ROWS", "COLUMNS"}

// inputFormula returns the formula of the input cell of output column col
// (on output row w.row+1) as it must be written there, or false when it
// cannot be kept.
func (w *xlsxWriter) inputFormula(formula string, col int) (string, bool) {
	if len(formula) > maxFormulaChars {
		return "", false
	}
	f := xlformula.Parse(formula)
	if len(f.Unsupported) > 0 || len(f.Names) > 0 {
		return "", false
	}
	for _, fn := range f.Funcs {
		if slices.Contains(positional, fn) {
			return "", false
		}
	}
	if len(f.Refs) == 0 {
		return formula, true
	}
	o := w.origin
	if o.Row <= 0 || len(o.Columns) != len(w.cols) {
		return "", false
	}
	outRow := w.row + 1
	return xlformula.Rewrite(f, func(r xlformula.Ref) (string, bool) {
		if r.HasSheet || r.Kind != xlformula.CellRef || r.Row1 != o.Row || r.Row2 != o.Row {
			return "", false
		}
		first := slices.Index(o.Columns, r.Col1-1)
		if first < 0 || !w.inputCols[first] {
			return "", false
		}
		// A range keeps its cells side by side, in order.
		for c := r.Col1; c <= r.Col2; c++ {
			k := first + c - r.Col1
			if k >= len(o.Columns) || o.Columns[k] != c-1 || !w.inputCols[k] {
				return "", false
			}
		}
		r.Col2 = first + 1 + r.Col2 - r.Col1
		r.Col1 = first + 1
		r.Row1, r.Row2 = outRow, outRow
		return r.BodyText(), true
	})
}

// Excel's 1900 date system: serial 1 is 1900-01-01, serial 60 the
// 1900-02-29 that did not exist, so that from 1900-03-01 on (serial 61) a
// serial counts days from 1899-12-30.
const (
	unixToSerial     = 25569 // serial of 1970-01-01
	unixToSerialLow  = 25568 // for dates before 1900-03-01
	firstLateSerial  = 61    // 1900-03-01
	lastSerial       = 2958465
	millisecondsADay = 86_400_000
)

// Number formats of dates and times in the output.
const (
	dateFormat      = "yyyy-mm-dd"
	timestampFormat = "yyyy-mm-dd hh:mm:ss"
	timeFormat      = "hh:mm:ss"
	millisFormat    = ".000"
)

// serialOf returns a Date, Timestamp or TimeOfDay cell as a serial number
// of the 1900 date system with its number format, or false when the
// serial cannot hold it exactly (before 1900-01-01 or after 9999-12-31,
// or a time with a part finer than a millisecond, which a serial number
// does not resolve): the writer then writes its ISO 8601 text. A
// timestamp in UTC is written as its UTC date and time (a spreadsheet has
// no time zones). The format shows milliseconds when the unit has them.
func serialOf(c table.Cell) (float64, string, bool) {
	t, ok := c.Time()
	if !ok {
		return 0, "", false
	}
	days := t.Unix() / 86400
	if t.Unix()%86400 < 0 {
		days--
	}
	if c.Kind == table.TimeOfDay {
		days = 0
	}
	clock := (t.Unix()-days*86400)*1000 + int64(t.Nanosecond()/1e6)
	if t.Nanosecond()%1e6 != 0 {
		return 0, "", false
	}
	fine := c.Unit.Resolution() != table.Second && c.Kind != table.Date
	frac := ""
	if fine {
		frac = millisFormat
	}
	var serial int64
	switch c.Kind {
	case table.TimeOfDay:
		if clock < 0 || clock >= millisecondsADay {
			return 0, "", false
		}
		x := float64(clock) / millisecondsADay
		return x, timeFormat + frac, roundTrips(x, clock)
	default:
		serial = days + unixToSerial
		if serial < firstLateSerial {
			serial = days + unixToSerialLow
		}
		if serial < 1 || serial > lastSerial {
			return 0, "", false
		}
	}
	if c.Kind == table.Date {
		return float64(serial), dateFormat, true
	}
	x := float64(serial) + float64(clock)/millisecondsADay
	return x, timestampFormat + frac, roundTrips(x, serial*millisecondsADay+clock)
}

// roundTrips reports whether a reader that rounds serial x to the
// millisecond gets ms back.
func roundTrips(x float64, ms int64) bool {
	return int64(math.Round(x*millisecondsADay)) == ms
}

// decimalNumber returns a Decimal cell as a number when the number is
// exactly the decimal (its shortest decimal form is the same value, so a
// spreadsheet shows and gives back the same digits), with a number format
// that shows as many decimals as the decimal's text has ("12.340": 0.000).
// Otherwise (more digits than a double holds) it is false, and the writer
// writes the decimal as text, which keeps every digit.
func decimalNumber(c table.Cell) (float64, string, bool) {
	want, ok := new(big.Rat).SetString(strings.TrimSpace(c.Str))
	if !ok || math.IsInf(c.Num, 0) || math.IsNaN(c.Num) {
		return 0, "", false
	}
	got, ok := new(big.Rat).SetString(strconv.FormatFloat(c.Num, 'g', -1, 64))
	if !ok || got.Cmp(want) != 0 {
		return 0, "", false
	}
	format := ""
	if _, frac, ok := strings.Cut(strings.TrimSpace(c.Str), "."); ok && len(frac) > 0 && len(frac) <= 30 && strings.Trim(frac, "0123456789") == "" {
		format = "0." + strings.Repeat("0", len(frac))
	}
	return c.Num, format, true
}
