package dataset

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The composition of a dataset stands on the floor of a row and the pure
// core (goal seek inverts the bounds of evaluate/bound and evaluate/curve,
// and bound's tails need evaluate/poibin): it knows nothing of the
// registry, the evaluator or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/release", "evaluate/curve", "evaluate/curve/pld", "evaluate/bound", "evaluate/poibin", "evaluate/numeric", "evaluate/number", "evaluate/internal/enum", "internal/editdist", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
