package resolve

import (
	"math"

	"github.com/riskbatch/riskbatch/evaluate/numeric"
	"github.com/riskbatch/riskbatch/table"
)

// Rounding is the direction in which an output column's values are
// rounded, where it is the same for every row (OutputColumn.Round).
type Rounding uint8

// The rounding directions.
const (
	// RoundAsComputed: the column's function rounds, if at all (its bounds
	// depend on the row, such as a success at least the baseline).
	RoundAsComputed Rounding = iota
	// RoundUp: an upper bound on risk, moved towards +∞ (numeric.RoundUp) within
	// the column's range.
	RoundUp
	// RoundDown: the largest parameter that keeps risk within a target,
	// moved towards −∞ (numeric.RoundDown) within the column's range.
	RoundDown
)

// Apply rounds v in the direction, clamped to the range of the column's
// format: [0, 1] for a probability, [0, +∞] for a real.
func (d Rounding) Apply(v float64, f table.Format) float64 {
	hi := math.Inf(1)
	if f == table.Probability {
		hi = 1
	}
	switch d {
	case RoundUp:
		return numeric.RoundUp(v, 0, hi)
	case RoundDown:
		return numeric.RoundDown(v, 0, hi)
	}
	return v
}
