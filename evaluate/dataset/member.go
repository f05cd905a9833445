// Package dataset composes the rows of one dataset into a total: each
// row's releases as privacy-loss stages (Member), merged into the group's
// Total row by row in memory that grows with the distinct stages, not the
// rows, with the inputs the rows agree on; the total is then written as
// one input row (Total.Synthetic) for the evaluator to bound like any
// other. Goal seek inverts the total: for a Target on it (a worst-case
// advantage, a success at the shared baseline, an ε at δ), the one
// unknown of a member that meets it — in closed form for Gaussian-only
// datasets (SolveGaussianSigma, SolveGDPMu, GaussianNoiseScale), else by
// Solve on a callback that composes the total at a candidate value. It
// knows nothing of files or output columns.
package dataset

import (
	"github.com/riskbatch/riskbatch/evaluate/curve/pld"
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// maxTotalNames bounds the rows a total's message names (left out, or not
// composable): the count of the others is given instead, so that the
// memory of a group does not grow with its rows.
const maxTotalNames = 5

// Member is what a dataset group's total takes from one row: the group,
// the row's stages (or why it has none) and what the row says of the
// attack. The zero Member is a row in no group.
type Member struct {
	// Dataset is the row's dataset cell, trimmed; "" for a row in no group.
	Dataset string
	// Name names the row in a total's message: its id, else where it is.
	Name string
	// Failed marks a row with status error: it is not composed.
	Failed bool
	// Stages are the row's releases as stages (Release.Stages).
	Stages []pld.Stage
	// Cannot is why the row's mechanism cannot be composed ("" if it can).
	Cannot string
	// Attack is what the row says of the attack (AgreedFields).
	Attack []FieldValue
	// Targets are the dataset targets the row fills (TargetFields): at
	// most one, which every row of the dataset that fills one repeats.
	Targets []FieldValue
	// Unknown is the row's parameter to solve for (its solve cell), nil
	// for a row without one; its Stages are then empty until it is
	// solved (Total.Solve).
	Unknown *Unknown
}

// FieldValue is a row's value of one input field, as read.
type FieldValue struct {
	Field release.Field
	Num   float64
	Text  string
}

// AgreedFields are the inputs that say what the attack is, or at which δ
// an ε is reported, rather than what the mechanism is: a total row has
// each of them when every composed row has the same value, and none of
// them when the rows differ (its bounds that need it are then empty). The
// calibration target is not among them: a calibration of a total row
// would vary its first stage only, which no member asked for.
func AgreedFields() []release.Field {
	return []release.Field{release.FieldDelta, release.FieldBaseline, release.FieldCandidates, release.FieldPrior, release.FieldTargets, release.FieldSuccesses,
		release.FieldConfidence, release.FieldTolerance, release.FieldRecords, release.FieldPredicateWeight, release.FieldReportDelta}
}
