package main

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// The pipeline runs on Beam's local runner, prism, in this process; the
// riskbatch binary it is compared with is built once into fixtures.
func TestMain(m *testing.M) {
	testenv.RunWithFixtures(func(dir string) int { fixtures = dir; return ptest.MainRetWithDefault(m, "prism") })
}

var fixtures string

// buildRiskbatch builds the riskbatch command of the enclosing module into
// fixtures, once for all the tests.
var buildRiskbatch = sync.OnceValues(func() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", errNoGo
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(fixtures, "riskbatch")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/riskbatch")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building riskbatch: %w\n%s", err, out)
	}
	return bin, nil
})

// errNoGo is buildRiskbatch's error where the go command is absent.
var errNoGo = errors.New("the go command is not on PATH: cannot build riskbatch to compare with")

// riskbatchBinary returns the riskbatch command of the enclosing module,
// the reference the pipeline's output is compared with (built once).
func riskbatchBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildRiskbatch()
	if errors.Is(err, errNoGo) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// eval runs `riskbatch eval` in the current directory; exit status 1 (rows
// with errors) is expected of the test data.
func eval(t *testing.T, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"eval", "-q"}, args...)...)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
		t.Fatalf("riskbatch eval %q: %v\n%s", args, err, out)
	}
}

// prepare returns the riskbatch binary and the inputs writeInputs writes
// into a new folder, which becomes the working folder of the test.
func prepare(t *testing.T) (bin string, inputs []string) {
	t.Helper()
	bin = riskbatchBinary(t)
	dir := t.TempDir()
	inputs = writeInputs(t, dir)
	t.Chdir(dir)
	return bin, inputs
}
