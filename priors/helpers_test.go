package priors_test

import "github.com/riskbatch/riskbatch/priors/internal/priorstest"

// Functions shared with the tests of priors/build and priorfiles.
var (
	near        = priorstest.Near
	bruteWindow = priorstest.BruteWindow
)
