package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// Imports fails the test unless every package outside the standard library
// that the package in the test's directory depends on, directly or not
// (`go list -deps .`, test files aside), is the package itself or matches one
// of allowed: an import path, or a path ending in "/..." for it and every
// package below it. It is how each package states the floors it may import
// from (docs/layout.md): a new import that runs up or sideways fails here.
func Imports(t *testing.T, allowed ...string) {
	t.Helper()
	goTool := LookPath(t, "go")
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps .: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps . listed no package, not even this one")
	}
	self := deps[len(deps)-1] // go list -deps lists a package after its dependencies
	var bad []string
	for _, d := range deps {
		if d != self && !matchesAny(d, allowed) {
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s depends on %d packages it may not import: %s (allowed: %s)", self, len(bad), strings.Join(bad, ", "), strings.Join(allowed, ", "))
	}
}

// matchesAny reports whether an import path matches one of the patterns of
// Imports.
func matchesAny(path string, patterns []string) bool {
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "/..."); ok {
			if path == prefix || strings.HasPrefix(path, prefix+"/") {
				return true
			}
		} else if path == p {
			return true
		}
	}
	return false
}
