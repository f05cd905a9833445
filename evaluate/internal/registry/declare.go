// Helpers the column declarations of the columns_*.go files share.

package registry

import "github.com/riskbatch/riskbatch/evaluate/internal/resolve"

// alwaysDefined makes a column's Compute of a bound that is defined on
// every row the column's Applies admits: f's value is the cell (rounded as
// the column's Round says), never skipped with a reason of its own.
func alwaysDefined(f func(r *resolve.Release) float64) func(*resolve.Release) (float64, resolve.Skip) {
	return func(r *resolve.Release) (float64, resolve.Skip) {
		return f(r), resolve.Skip{}
	}
}

// alwaysDefinedFromEps is alwaysDefined for a column of the row's (ε, δ)
// view (OutputColumn.fromEps): the view itself may be missing, and the
// evaluator says why, but a row that has it always has the column.
func alwaysDefinedFromEps(f func(r *resolve.Release, eps, delta float64) float64) func(*resolve.Release, float64, float64) (float64, resolve.Skip) {
	return func(r *resolve.Release, eps, delta float64) (float64, resolve.Skip) {
		return f(r, eps, delta), resolve.Skip{}
	}
}

// inFamily gives cols the Family they share: the paper family a function of
// this package declares, one column after another.
func inFamily(family string, cols []OutputColumn) []OutputColumn {
	for i := range cols {
		cols[i].Family = family
	}
	return cols
}
