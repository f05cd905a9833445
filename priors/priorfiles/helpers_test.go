package priorfiles_test

import "github.com/riskbatch/riskbatch/priors/internal/priorstest"

// penguinsPath is the sample data set of samples/PENGUINS.md.
const penguinsPath = "../../samples/penguins.csv"

// The helpers shared with the tests of priors and priors/build.
var (
	buildCSV = priorstest.BuildCSV
	entry    = priorstest.Entry
	rowPs    = priorstest.RowPs
	near     = priorstest.Near
)
