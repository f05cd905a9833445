package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// Every flag of eval that --help shows is in the manual's table of eval's
// flags (docs/command-line.md) or its table of limits (docs/files.md), and
// every command is shown in docs/command-line.md.
func TestDocsNameFlagsAndCommands(t *testing.T) {
	commandLine := readRepoFile(t, "docs/command-line.md")
	flags := commandLine + readRepoFile(t, "docs/files.md")
	app := newApp(nil, nil, nil)
	for _, f := range app.Command("eval").Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		if name := "`--" + f.Names()[0]; !strings.Contains(flags, name) {
			t.Errorf("docs/command-line.md and docs/files.md do not document %s`", name)
		}
	}
	for _, c := range app.Commands {
		if !strings.Contains(commandLine, "riskbatch "+c.Name) {
			t.Errorf("docs/command-line.md never shows riskbatch %s", c.Name)
		}
	}
}

// The README fits on a few screens and keeps the two set-up commands: run
// the main job (evaluate the embedded sample), run the tests; and it shows
// the three commands a newcomer needs.
func TestReadmeFitsAndSetsUp(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	if n := strings.Count(strings.TrimSuffix(readme, "\n"), "\n") + 1; n > 250 {
		t.Errorf("README.md has %d lines, want at most 250: move the detail to a page of docs/", n)
	}
	for _, cmd := range []string{"go run ./cmd/riskbatch", "go test ./..."} {
		if !regexp.MustCompile(`(?m)^    ` + regexp.QuoteMeta(cmd) + `(\s|$)`).MatchString(readme) {
			t.Errorf("README.md does not show the set-up command %q as a command line", cmd)
		}
	}
	for _, cmd := range []string{"riskbatch eval ", "riskbatch template ", "riskbatch sample"} {
		if !strings.Contains(readme, cmd) {
			t.Errorf("README.md never shows %s", strings.TrimSpace(cmd))
		}
	}
}

// The README says how many rows of the sample are invalid on purpose: the
// rows riskbatch rejects (status error) when it evaluates the sample.
func TestReadmeInvalidSampleRows(t *testing.T) {
	m := regexp.MustCompile(`The sample includes (\w+) rows that are invalid\s+on purpose`).FindStringSubmatch(readRepoFile(t, "README.md"))
	if m == nil {
		t.Fatal(`the README does not say "The sample includes N rows that are invalid on purpose"`)
	}
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	said := slices.Index(words, m[1])
	if said < 0 {
		t.Fatalf("the README's count of invalid sample rows, %q, is not a number from one to twelve", m[1])
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	riskbatch(t, "eval", sampleReleases(t, dir), "-o", out, "-q")
	header, rows := readAll(t, out)
	status := column(header, "status")
	errors := 0
	for _, r := range rows {
		if r[status] == "error" {
			errors++
		}
	}
	if said != errors {
		t.Errorf("the README says the sample has %s invalid rows; riskbatch rejects %d", m[1], errors)
	}
}
