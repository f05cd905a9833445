package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RunWithFixtures runs a package's tests with a folder for what they build
// once and share, read only (a workbook, a binary): run gets the folder
// and returns the tests' exit status (m.Run, or Beam's ptest.MainRet);
// the folder is removed before the process exits with that status. Call
// it from TestMain.
func RunWithFixtures(run func(dir string) int) {
	dir, err := os.MkdirTemp("", "riskbatch-fixtures")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv: a folder for the fixtures:", err)
		os.Exit(2)
	}
	code := run(dir)
	os.RemoveAll(dir)
	os.Exit(code)
}

// NodeModulesEnv names the node_modules folder where DuckDB's Node.js
// package (@duckdb/node-api) is installed; .ci/run installs it and sets it.
const NodeModulesEnv = "RISKBATCH_NODE_MODULES"

// DuckDB returns node's path and the node_modules folder that holds
// DuckDB's Node.js package (NodeModulesEnv); where either is absent it
// skips the test, or fails it under CI=true.
func DuckDB(t testing.TB) (node, modules string) {
	t.Helper()
	modules = os.Getenv(NodeModulesEnv)
	node, err := exec.LookPath("node")
	if err == nil && modules != "" {
		_, err = os.Stat(filepath.Join(modules, "@duckdb", "node-api"))
	}
	if err != nil || modules == "" {
		Absent(t, "DuckDB for Node.js is absent: run `npm install @duckdb/node-api` in a folder and set "+NodeModulesEnv+" to its node_modules")
	}
	return node, modules
}
