package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Module is the import path of riskbatch's module, which the patterns of
// Imports are relative to.
const Module = "github.com/riskbatch/riskbatch"

// Imports fails the test unless every package of the module that the
// package in the test's directory depends on, directly or not (`go list
// -deps .`, test files aside), is the package itself or matches one of
// allowed: a path relative to the module ("layout"), or such a path ending
// in "/..." for it and every package below it ("evaluate/..."). It is how
// each package states the floors it may import from (docs/layout.md): a
// new import that runs up or sideways fails here. The package's row of
// the table in docs/layout.md must name the same patterns, so that the
// page says what the tests enforce. Packages outside the module are
// checked by NoImports.
func Imports(t *testing.T, allowed ...string) {
	t.Helper()
	self, deps := listDeps(t)
	checkLayoutPage(t, strings.TrimPrefix(self, Module+"/"), allowed)
	var bad []string
	for _, d := range deps {
		rel, ok := strings.CutPrefix(d, Module+"/")
		if d == self || !ok {
			continue
		}
		if !matchesAny(rel, allowed) {
			bad = append(bad, rel)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s depends on %d packages of the module it may not import: %s (allowed: %s)", self, len(bad), strings.Join(bad, ", "), strings.Join(allowed, ", "))
	}
}

// NoImports fails the test when the package in the test's directory
// depends, directly or not, on a package other than itself whose import
// path starts with one of prefixes ("github.com/urfave/cli", or
// "github.com/" for every package hosted there).
func NoImports(t *testing.T, prefixes ...string) {
	t.Helper()
	self, deps := listDeps(t)
	var bad []string
	for _, d := range deps {
		if d == self {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(d, p) {
				bad = append(bad, d)
				break
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s depends on %d packages it must not: %s", self, len(bad), strings.Join(bad, ", "))
	}
}

// listDeps lists the package in the test's directory and the packages
// outside the standard library it depends on.
func listDeps(t *testing.T) (self string, deps []string) {
	t.Helper()
	goTool := LookPath(t, "go")
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps .: %v", err)
	}
	deps = strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps . listed no package, not even this one")
	}
	return deps[len(deps)-1], deps // go list -deps lists a package after its dependencies
}

// matchesAny reports whether a path matches one of the patterns of Imports.
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

// layoutPage is the page that says what each package may import.
const layoutPage = "docs/layout.md"

// codeSpan is a `code span` of the page's table.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// checkLayoutPage fails the test unless the table of docs/layout.md has a
// row for pkg (a path relative to the module) whose second cell names, as
// code spans, exactly the patterns allowed (in any order; "nothing" for
// none).
func checkLayoutPage(t *testing.T, pkg string, allowed []string) {
	t.Helper()
	out, err := exec.Command(LookPath(t, "go"), "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), layoutPage))
	if err != nil {
		t.Fatalf("the imports of %s are listed in %s: %v", pkg, layoutPage, err)
	}
	for _, line := range strings.Split(string(page), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) != "`"+pkg+"`" {
			continue
		}
		var listed []string
		for _, m := range codeSpan.FindAllStringSubmatch(cells[2], -1) {
			listed = append(listed, m[1])
		}
		want := slices.Clone(allowed)
		slices.Sort(listed)
		slices.Sort(want)
		if !slices.Equal(listed, want) {
			t.Errorf("%s's row for %s lists %q; its imports test allows %q", layoutPage, pkg, listed, want)
		}
		return
	}
	t.Errorf("%s has no row for %s in its table of what each package may import; its imports test allows %q", layoutPage, pkg, allowed)
}
