package dataset

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The composition of a dataset stands on the floor of a row and the pure
// core: it knows nothing of the registry, the evaluator or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/release", "evaluate/curve/pld", "evaluate/numeric", "evaluate/number", "internal/editdist", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
