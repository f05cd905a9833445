package priorfiles_test

import (
	"testing"

	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
)

// penguinsPath is the sample data set of samples/PENGUINS.md.
const penguinsPath = "../../samples/penguins.csv"

// mustLoad is priorfiles.Load of paths, failing the test on an error.
func mustLoad(t testing.TB, paths []string) *priors.Tables {
	t.Helper()
	ts, _, err := priorfiles.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// writeAndLoad writes res as the prior table at path (and the tables
// beside it) and loads it back.
func writeAndLoad(t testing.TB, path string, res *build.Result) *priors.Tables {
	t.Helper()
	if err := priorfiles.WriteResult(path, res, ""); err != nil {
		t.Fatal(err)
	}
	return mustLoad(t, []string{path})
}
