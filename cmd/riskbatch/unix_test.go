//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/writers"
)

// mkfifo makes a named pipe, or skips the test where it cannot.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
}

// Ctrl-C during a run removes the temporary output, leaves an existing
// output file untouched and exits 130. The input is a named pipe that the
// test keeps open, so the run is certainly in progress when the signal
// arrives. The child is the test binary running riskbatch
// (TestHelperProcess): no build of its own.
func TestInterruptRemovesTemporaryOutput(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	out := filepath.Join(dir, "out.csv")
	old := []byte("the previous output\n")
	os.WriteFile(out, old, 0o644)

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "--", "eval", fifo, "-o", out, "-q", "--force")
	cmd.Env = append(os.Environ(), "RISKBATCH_HELPER_PROCESS=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.WriteString("epsilon,baseline\n")
	for i := 0; i < 2000; i++ {
		w.WriteString("1,0.1\n")
	}
	// Wait until the temporary output exists: the run is writing.
	deadline := time.Now().Add(20 * time.Second)
	for {
		tmps, _ := filepath.Glob(filepath.Join(dir, writers.TempPrefix+"*"))
		if len(tmps) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no temporary output appeared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want status %d", err, exitInterrupted)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, writers.TempPrefix+"*")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	if got, _ := os.ReadFile(out); string(got) != string(old) {
		t.Errorf("existing output changed: %q", got)
	}
}
