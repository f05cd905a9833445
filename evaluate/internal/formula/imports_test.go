package formula

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The formulas read a row's inputs (resolve.Inputs) and the pure core's
// numbers: they know nothing of the registry, the evaluator or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/internal/resolve", "evaluate/release", "evaluate/dataset", "evaluate/celldata", "evaluate/curve", "evaluate/curve/pld", "evaluate/bound", "evaluate/audit", "evaluate/poibin", "evaluate/numeric", "evaluate/number",
		"evaluate/internal/enum", "evaluate/internal/memo", "internal/editdist", "internal/numtext", "internal/words", "priors", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
