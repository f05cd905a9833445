package build_test

import (
	"github.com/riskbatch/riskbatch/priors/internal/priorstest"
	"github.com/riskbatch/riskbatch/priors/internal/priorstest/csvtest"
)

// Functions shared with the tests of priors and priorfiles.
var (
	openCSV     = csvtest.OpenCSV
	buildCSV    = csvtest.BuildCSV
	entry       = priorstest.Entry
	rowPs       = priorstest.RowPs
	near        = priorstest.Near
	bruteWindow = priorstest.BruteWindow
)
