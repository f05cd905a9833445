package release

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The input vocabulary stands below the evaluator: it knows nothing of
// output columns, bounds, priors or files.
func TestImports(t *testing.T) {
	testenv.Imports(t, "internal/editdist")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/", "gonum.org/")
}
