package release

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The floor of a row stands on the pure core (the PLD accountant's stages
// and its numerics) and the number reader: it knows nothing of output
// columns, bounds, priors or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/curve/pld", "evaluate/numeric", "evaluate/number", "internal/editdist")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
