package build_test

import "github.com/riskbatch/riskbatch/priors/internal/priorstest"

// Functions shared with the tests of priors and priorfiles.
var (
	openCSV     = priorstest.OpenCSV
	buildCSV    = priorstest.BuildCSV
	entry       = priorstest.Entry
	rowPs       = priorstest.RowPs
	near        = priorstest.Near
	bruteWindow = priorstest.BruteWindow
)
