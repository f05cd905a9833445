package confidence

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The flag parser shared by the two commands stands on the number reader
// alone, below the evaluator.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/number")
}
