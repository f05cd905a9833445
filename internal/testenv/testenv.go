// Package testenv says how much the tests do and finds the outside programs
// some of them run, in one place for every package of the module.
//
// By default `go test ./...` runs a reduced sample of the long property and
// recalculation tests: each is still a real test that can fail, but the
// whole suite stays quick. With RISKBATCH_LONG_TESTS=1 in the environment
// (continuous integration sets it) the full runs happen.
//
// A test that needs an outside program (LibreOffice, Gnumeric, python3
// with openpyxl, DuckDB) skips with a message where the program is absent,
// and fails instead when CI=true, where the program must be installed.
package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// LongEnv is the environment variable that asks for the long test runs.
const LongEnv = "RISKBATCH_LONG_TESTS"

// Long reports whether the long test runs are asked for: LongEnv set to a
// value other than "" or "0".
func Long() bool {
	v := os.Getenv(LongEnv)
	return v != "" && v != "0"
}

// Count returns long when the long runs are asked for, short otherwise:
// the number of random cases, rows or iterations a test runs.
func Count(short, long int) int {
	if Long() {
		return long
	}
	return short
}

// SkipUnlessLong skips the test unless the long runs are asked for; what
// says what the test does that takes long.
func SkipUnlessLong(t testing.TB, what string) {
	t.Helper()
	if !Long() {
		t.Skipf("%s: runs with %s=1", what, LongEnv)
	}
}

// CI reports whether the tests run in continuous integration (CI=true),
// where every outside program a test needs is installed.
func CI() bool { return os.Getenv("CI") == "true" }

// Absent skips the test with why, or fails it under CI=true: the outside
// program or package it needs is not installed.
func Absent(t testing.TB, why string) {
	t.Helper()
	if CI() {
		t.Fatalf("%s (CI=true: it must be installed)", why)
	}
	t.Skip(why)
}

// LookPath returns the path of the first of names found on PATH; where
// none is, it skips the test, or fails it under CI=true.
func LookPath(t testing.TB, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Absent(t, "none of "+quoteList(names)+" is on PATH")
	return ""
}

func quoteList(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += "`" + n + "`"
	}
	return s
}

// Python returns a python3 that imports every one of modules: PATH's
// python3, else the system's (a version manager's python3 may lack the
// system's packages). Where none does, it skips the test, or fails it
// under CI=true.
func Python(t testing.TB, modules ...string) string {
	t.Helper()
	var candidates []string
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	candidates = append(candidates, "/usr/bin/python3", "/usr/local/bin/python3")
	imports := "import " + strings.Join(modules, ", ")
	for _, p := range candidates {
		if exec.Command(p, "-c", imports).Run() == nil {
			return p
		}
	}
	Absent(t, "no python3 that can "+imports+" (pip install "+strings.Join(modules, " ")+")")
	return ""
}

// LiveAndDeadPIDs returns the process numbers of a process that runs until
// the test ends (`sleep 60`, killed then) and of one that has ended: a
// running and a killed writer, for the tests of what is done with the
// temporary files each leaves. Where there is no sleep program it skips
// the test, or fails it under CI=true.
func LiveAndDeadPIDs(t testing.TB) (live, dead int) {
	t.Helper()
	sleep := LookPath(t, "sleep")
	running := exec.Command(sleep, "60")
	if err := running.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = running.Process.Kill()
		_ = running.Wait()
	})
	ended := exec.Command(sleep, "0")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	return running.Process.Pid, ended.Process.Pid
}
