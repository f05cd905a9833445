package resolve

import (
	"fmt"
	"math"

	num "github.com/riskbatch/riskbatch/evaluate/number"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// ParseNumber reads a number the way a person types it into a spreadsheet
// cell: "0.5", "1e-5", "5%", "1,000,000", "1/1000", "−3". It is
// number.Parse, which documents the rules; it stays here for the callers
// of evaluate.
func ParseNumber(s string) (float64, error) { return num.Parse(s) }

// DecimalMark is the character that separates the whole part of a number
// written as text from its fraction (number.DecimalMark).
type DecimalMark = num.DecimalMark

// The decimal marks (see number.DecimalMark).
const (
	DecimalUnknown = num.DecimalUnknown
	DecimalPoint   = num.DecimalPoint
	DecimalComma   = num.DecimalComma
)

// NumberFormat is how numbers written as text are read (number.Format).
type NumberFormat = num.Format

// isLocaleError reports whether err is a text whose reading depends on the
// decimal mark, whose message says what to do (number.IsLocaleError).
func isLocaleError(err error) bool { return num.IsLocaleError(err) }

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

// clipText shortens a long text for a message (release.ClipText).
func clipText(s string) string { return release.ClipText(s) }
