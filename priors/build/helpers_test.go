package build_test

import (
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
)

// Functions shared with the tests of priors and priorfiles. The tests
// here build priors from tables in memory, read row by row; the tests of
// priorfiles build the same inputs from files, column by column, and
// check that they get the same (TestBuildInputsFromFiles).
var (
	openCSV     = priorstest.OpenCSV
	buildCSV    = priorstest.BuildCSV
	entry       = priorstest.Entry
	rowPs       = priorstest.RowPs
	near        = priorstest.Near
	bruteWindow = priorstest.BruteWindow
)
