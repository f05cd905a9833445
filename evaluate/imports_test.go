package evaluate

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// forbiddenDeps are the packages the math must not depend on: the file
// formats and the command line are the business of the programs around
// it (see ARCHITECTURE.md, "Rules that keep it so").
var forbiddenDeps = []string{
	"github.com/riskbatch/riskbatch/readers",
	"github.com/riskbatch/riskbatch/writers",
	"github.com/riskbatch/riskbatch/priors/priorfiles",
	"github.com/apache/arrow", // arrow-go, all versions
	"github.com/xuri/excelize",
	"github.com/urfave/cli",
}

// TestImportsNoFiles lists the dependencies of this package and the ones
// below it with `go list -deps ./...` and fails on any package that reads
// or writes files of a format, or parses a command line.
func TestImportsNoFiles(t *testing.T) {
	goTool := testenv.LookPath(t, "go")
	out, err := exec.Command(goTool, "list", "-deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list -deps ./...: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "github.com/riskbatch/riskbatch/evaluate") {
		t.Fatalf("go list -deps ./... listed %d packages, not evaluate's: %q", len(deps), deps)
	}
	var bad []string
	for _, d := range deps {
		for _, f := range forbiddenDeps {
			if strings.HasPrefix(d, f) { // github.com/apache/arrow-go/v18/… too
				bad = append(bad, d)
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("evaluate depends on %d packages of files or command lines: %s", len(bad), strings.Join(bad, ", "))
	}
}

// TestImports: the façade stands on the row machinery below it (registry,
// formula, resolve), the floors of a row and the pure core; nothing it
// imports knows of it.
func TestImports(t *testing.T) {
	testenv.Imports(t, "evaluate/internal/registry", "evaluate/internal/formula", "evaluate/internal/resolve", "evaluate/release", "evaluate/dataset", "evaluate/celldata", "evaluate/curve", "evaluate/curve/pld", "evaluate/bound", "evaluate/audit", "evaluate/poibin", "evaluate/numeric", "evaluate/number",
		"evaluate/internal/enum", "evaluate/internal/memo", "internal/editdist", "internal/numtext", "internal/words", "internal/xlformula", "priors", "table")
}
