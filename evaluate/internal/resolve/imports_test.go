package resolve

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// Reading a row into a Release stands on the floor of a row (the input
// vocabulary), the tables cells name, a dataset's stages, the priors and
// the pure core: it knows nothing of the registry of output columns, the
// spreadsheet formulas, the evaluator or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/release", "evaluate/dataset", "evaluate/celldata", "evaluate/curve", "evaluate/curve/pld", "evaluate/bound", "evaluate/audit", "evaluate/poibin", "evaluate/numeric", "evaluate/number",
		"evaluate/internal/enum", "evaluate/internal/memo", "internal/editdist", "internal/words", "priors", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
