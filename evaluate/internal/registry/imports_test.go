package registry

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The registry's entries read a Release (resolve) and write their live
// formulas (formula); they know nothing of the evaluator that runs them,
// of datasets' totals or of files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/internal/formula", "evaluate/internal/resolve", "evaluate/release", "evaluate/dataset", "evaluate/celldata", "evaluate/curve", "evaluate/curve/pld", "evaluate/bound", "evaluate/audit", "evaluate/poibin", "evaluate/numeric", "evaluate/number",
		"evaluate/internal/enum", "evaluate/internal/memo", "internal/editdist", "internal/numtext", "internal/words", "priors", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
