package pld

import (
	"errors"
	"fmt"
)

// ErrNoStages is returned for an empty list of stages.
var ErrNoStages = errors.New("pld: no stages to compose")

// StageError reports an invalid parameter of one stage.
type StageError struct {
	Index int     // position of the stage in the list, from 0
	Field string  // "noise multiplier", "sample rate" or "steps"
	Value float64 // the rejected value
	Rule  string  // what the value must satisfy
}

func (e *StageError) Error() string {
	return fmt.Sprintf("pld: stage %d: %s is %v; it must be %s", e.Index, e.Field, e.Value, e.Rule)
}

// OptionError reports an invalid option.
type OptionError struct {
	Field string  // "grid step" or "tail mass"
	Value float64 // the rejected value
	Rule  string  // what the value must satisfy
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("pld: %s is %v; it must be %s", e.Field, e.Value, e.Rule)
}

// SizeError reports a grid that would be too large to compose: a grid step
// too fine for the privacy loss's range.
type SizeError struct {
	GridStep float64 // the grid step asked for
	Points   int     // the grid points it would need (estimate)
	Limit    int     // the largest number of grid points allowed
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("pld: grid step %g would need about %d grid points (limit %d); use a coarser grid step", e.GridStep, e.Points, e.Limit)
}
