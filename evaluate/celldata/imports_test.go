package celldata

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The tables cells name are read through the Loader a program hands in:
// it stands on the floor of a row.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/release", "evaluate/number", "evaluate/internal/memo", "evaluate/curve/pld", "evaluate/numeric", "internal/editdist", "table")
	testenv.NoImports(t, "github.com/apache/", "github.com/xuri/", "github.com/urfave/")
}
