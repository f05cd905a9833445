package resolve

import (
	"fmt"
	"math"

	"github.com/riskbatch/riskbatch/evaluate/number"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/table"
)

// cellNumber reads a cell as a finite number: a typed number as it is, a
// text by the rules of f.
func cellNumber(c table.Cell, f number.Format) (float64, error) {
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
		return number.Format{Mark: number.DecimalPoint, Settled: true}.Parse(c.Str)
	case table.Date, table.Timestamp, table.TimeOfDay:
		return 0, fmt.Errorf("%s is a %s, not a number", c.String(), c.Kind)
	case table.Nested:
		return 0, fmt.Errorf("%s is a %s value, not a number", release.ClipText(c.Str), c.Kind)
	}
	return 0, fmt.Errorf("empty")
}
