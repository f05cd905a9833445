package testfiles

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// libreOffice returns LibreOffice's executable, or skips the test (fails
// it under CI=true; install libreoffice-calc to run it).
func libreOffice(t testing.TB) string {
	t.Helper()
	return testenv.LookPath(t, "soffice", "libreoffice")
}

// Convert runs one headless LibreOffice conversion of paths into outDir:
// to is LibreOffice's --convert-to argument ("pdf", "xlsx", or a CSV
// filter with its options), env is added to its environment, and it runs
// with a profile of its own (two instances sharing one profile refuse to
// start). Where LibreOffice is absent it skips the test (fails it under
// CI=true); it fails the test when LibreOffice fails or runs over three
// minutes.
func Convert(t testing.TB, env []string, to, outDir string, paths ...string) {
	t.Helper()
	office := libreOffice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{"--headless", "--norestore",
		"-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "profile")),
		"--convert-to", to, "--outdir", outDir}
	cmd := exec.CommandContext(ctx, office, append(args, paths...)...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice --convert-to %s: %v\n%s", to, err, out)
	}
}
