package bound

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// corePackages are the packages of the pure core: the bounds, the curves,
// the accountants and the numerics. They may import each other.
var corePackages = []string{
	"github.com/riskbatch/riskbatch/evaluate/bound",
	"github.com/riskbatch/riskbatch/evaluate/curve",
	"github.com/riskbatch/riskbatch/evaluate/curve/pld",
	"github.com/riskbatch/riskbatch/evaluate/numeric",
	"github.com/riskbatch/riskbatch/evaluate/poibin",
}

// TestCoreImportsOnlyLibraries lists the dependencies of the core with
// `go list -deps` and fails on any package that is neither the standard
// library, gonum, golang.org/x nor the core itself: the core knows nothing
// of rows, tables, files or spreadsheets (ARCHITECTURE.md, "The pure
// core").
func TestCoreImportsOnlyLibraries(t *testing.T) {
	goTool := testenv.LookPath(t, "go")
	args := []string{"list", "-deps"}
	for _, p := range corePackages {
		args = append(args, p+"/...")
	}
	out, err := exec.Command(goTool, args...).Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "math") || !slices.Contains(deps, corePackages[0]) {
		t.Fatalf("go list -deps listed %d packages, not the core's: %q", len(deps), deps)
	}
	var bad []string
	for _, d := range deps {
		first, _, _ := strings.Cut(d, "/")
		switch {
		case !strings.Contains(first, "."): // the standard library
		case strings.HasPrefix(d, "gonum.org/v1/gonum/"), strings.HasPrefix(d, "golang.org/x/"):
		case slices.ContainsFunc(corePackages, func(c string) bool { return d == c || strings.HasPrefix(d, c+"/") }):
		default:
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 {
		t.Errorf("the core depends on %d packages outside the standard library, gonum and golang.org/x: %s", len(bad), strings.Join(bad, ", "))
	}
}
