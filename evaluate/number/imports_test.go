package number

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The number package stands on the standard library alone: the cells, the
// evaluator and the command line all read numbers with it.
func TestImports(t *testing.T) {
	testenv.Imports(t)
	testenv.NoImports(t, "github.com/", "golang.org/", "gonum.org/")
}
