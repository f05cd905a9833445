package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// readRepoFile reads a file at the root of the repository.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The README states the Go version go.mod asks for, exactly: a reader who
// installs the version the README names can build riskbatch.
func TestReadmeGoVersion(t *testing.T) {
	mod := regexp.MustCompile(`(?m)^go ([0-9][0-9.]*)\s*$`).FindStringSubmatch(readRepoFile(t, "go.mod"))
	if mod == nil {
		t.Fatal("go.mod has no go line")
	}
	readme := regexp.MustCompile(`You need Go ([0-9][0-9.]*[0-9]) or later`).FindStringSubmatch(readRepoFile(t, "README.md"))
	if readme == nil {
		t.Fatal(`the README does not say "You need Go X or later"`)
	}
	if readme[1] != mod[1] {
		t.Errorf("the README asks for Go %s, go.mod for %s", readme[1], mod[1])
	}
}

// Every flag of eval that --help shows is in the README's table of eval's
// flags (or its table of limits), and every command is named in the README.
func TestReadmeNamesFlagsAndCommands(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	app := newApp(nil, nil, nil)
	for _, f := range app.Command("eval").Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		if name := "`--" + f.Names()[0]; !strings.Contains(readme, name) {
			t.Errorf("the README does not document %s`", name)
		}
	}
	for _, c := range app.Commands {
		if !strings.Contains(readme, "riskbatch "+c.Name) {
			t.Errorf("the README never shows riskbatch %s", c.Name)
		}
	}
}
