package evaluate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/riskbatch/riskbatch/table"
)

// ParseNumber reads a number the way a person types it into a spreadsheet
// cell: "0.5", "1e-5", "1E-05", "5%", "1,000,000", "1 000", "1/1000",
// "−3" (with a Unicode minus), surrounded by spaces. It refuses anything that
// is not a finite real number, including "inf", "NaN" and hexadecimal forms
// that strconv would accept, and a text whose reading depends on the
// decimal mark ("2,500", "1,5"): it is NumberFormat{Percent: true}.Parse,
// which documents the rules.
func ParseNumber(s string) (float64, error) {
	return NumberFormat{Percent: true}.Parse(s)
}

// normalizeRune maps typographic look-alikes to ASCII: minus signs and
// dashes to '-', non-breaking and thin spaces to ' '.
func normalizeRune(r rune) rune {
	switch r {
	case '\u2212', '\u2012', '\u2013', '\uFE63', '\uFF0D':
		return '-'
	case '\u00A0', '\u2007', '\u2009', '\u202F':
		return ' '
	}
	return r
}

// isUnderflow reports a ParseFloat range error that rounded to zero: "1e-400"
// is a valid way to write a probability too small for float64, and zero is
// its nearest value.
func isUnderflow(err error, v float64) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange && v == 0
}

// cellNumber reads a cell as a finite number: a typed number as it is, a
// text by the rules of f.
func cellNumber(c table.Cell, f NumberFormat) (float64, error) {
	switch c.Kind {
	case table.Number:
		if math.IsNaN(c.Num) || math.IsInf(c.Num, 0) {
			return 0, fmt.Errorf("%v is not a finite number", c.Num)
		}
		return c.Num, nil
	case table.Integer:
		return float64(c.Int), nil
	case table.Text:
		return f.Parse(c.Str)
	case table.Bool:
		return 0, fmt.Errorf("%v is a truth value, not a number", c.Bool)
	case table.Decimal:
		// An exact decimal of a typed column, in plain notation: no
		// grouping, no decimal comma, no percent sign to read.
		return NumberFormat{Mark: DecimalPoint, Settled: true}.Parse(c.Str)
	case table.Date, table.Timestamp, table.TimeOfDay:
		return 0, fmt.Errorf("%s is a %s, not a number", c.String(), c.Kind)
	case table.Nested:
		return 0, fmt.Errorf("%s is a %s value, not a number", clipText(c.Str), c.Kind)
	}
	return 0, fmt.Errorf("empty")
}

// clipText shortens a long text for a message.
func clipText(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
