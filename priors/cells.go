package priors

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskbatch/riskbatch/table"
)

// CellAt returns cell i of a row, or an empty cell beyond its end.
func CellAt(row table.Row, i int) table.Cell {
	if i < len(row.Cells) {
		return row.Cells[i]
	}
	return table.Cell{}
}

// CountOf reads a count cell: a whole number ≥ 0 (a prior table's targets,
// the count column of pre-aggregated data).
func CountOf(c table.Cell) (int64, error) {
	switch c.Kind {
	case table.Integer:
		if c.Int < 0 {
			return 0, fmt.Errorf("the count %d is negative", c.Int)
		}
		return c.Int, nil
	case table.Number:
		return countFromFloat(c.Num, c.String())
	case table.Text:
		s := strings.TrimSpace(c.Str)
		if s == "" {
			return 0, errors.New("the count is empty")
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			if n < 0 {
				return 0, fmt.Errorf("the count %d is negative", n)
			}
			return n, nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("the count %q is not a number", s)
		}
		return countFromFloat(x, s)
	case table.Bool:
		return 0, fmt.Errorf("the count is the boolean %v, not a number", c.Bool)
	}
	return 0, errors.New("the count is empty")
}

func countFromFloat(x float64, text string) (int64, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x != math.Floor(x) || x > 1<<53 {
		return 0, fmt.Errorf("the count %s is not a whole number from 0 to 2^53", text)
	}
	return int64(x), nil
}
