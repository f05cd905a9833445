package serve

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// TestImports: serve holds no evaluation pipeline of its own and reaches
// none of the command's: it imports evaluate (one row, the registry), the
// input vocabulary evaluate's rows are read in (evaluate/release) and
// the readers only for sizes, never a writer, the command or a reader of
// files named in cells.
func TestImports(t *testing.T) {
	goTool := testenv.LookPath(t, "go")
	out, err := exec.Command(goTool, "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(out), "net/http") {
		t.Fatalf("go list listed %q, not serve's imports", out)
	}
	for _, imp := range strings.Fields(string(out)) {
		if !strings.HasPrefix(imp, "github.com/riskbatch/riskbatch/") {
			continue
		}
		switch strings.TrimPrefix(imp, "github.com/riskbatch/riskbatch/") {
		case "evaluate", "evaluate/release", "readers", "table":
		default:
			t.Errorf("serve imports %s", imp)
		}
	}
}
