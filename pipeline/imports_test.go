package pipeline

import (
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The pipeline stands on the files at the edges (readers, writers, the
// layout) and the evaluator; the command line, the progress bar and the
// terminal are the command's (docs/layout.md).
func TestImports(t *testing.T) {
	testenv.Imports(t,
		"evaluate/...", "layout", "readers", "writers", "table", "priors",
		"internal/editdist", "internal/numtext", "internal/xlformula", "internal/words", "internal/arrowcell", "internal/compression")
	testenv.NoImports(t, "github.com/urfave/cli", "github.com/schollz/progressbar", "golang.org/x/term",
		testenv.Module+"/cmd", testenv.Module+"/cellfiles", testenv.Module+"/priors/priorfiles")
}
