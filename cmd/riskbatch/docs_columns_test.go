package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/columns.md from the registry")

// columnsPagePath is the column reference of the manual, relative to this
// package.
const columnsPagePath = "../../docs/columns.md"

// regenerateDocs is the command that rewrites every page made from the
// registry: docs/columns.md (this package) and the column tables of
// docs/inputs.md and docs/outputs.md (package evaluate).
const regenerateDocs = "go test ./evaluate ./cmd/riskbatch -run TestDocs -update-docs"

// columnsPage returns docs/columns.md: the column reference made from the
// registry, as `riskbatch columns` prints it (evaluate's Docs and Groups):
// the input columns in a table, each output column under its own heading
// (so that other pages can link to it), and the groups --columns takes.
func columnsPage() string {
	ev := evaluate.New()
	docs := ev.Docs()
	label := docs[0]
	var b strings.Builder
	b.WriteString(`# Column reference

<!-- Generated from the registry: do not edit. ` + regenerateDocs + ` rewrites it. -->

Every column riskbatch reads or writes, made from the registry the evaluator uses: the same entries
that ` + "`riskbatch columns`" + ` prints in a terminal and the workbook's Columns sheet holds. How to fill the
input columns is explained in [Inputs](inputs.md), how to read the output columns in
[Output columns](outputs.md). A paper named ` + "`seed000`" + ` … ` + "`seed004`" + ` is one of
[the five papers](README.md#the-five-papers).

## Input columns

Header names match ignoring case, with space, ` + "`-`" + ` and ` + "`_`" + ` alike; an alias is as good as the name.

| column | meaning | values |
|---|---|---|
`)
	var outputs [][]string
	for _, r := range docs[1:] {
		if r[1] != "input" {
			outputs = append(outputs, r)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", referenceInputName(r[0]), markdownText(r[2]), markdownText(r[5]))
	}
	b.WriteString("\n## Output columns\n\nIn output order, after the input's own columns.\n")
	for _, r := range outputs {
		fmt.Fprintf(&b, "\n### %s\n\n_%s_. %s\n\n", r[0], r[1], markdownText(r[2]))
		for i := 3; i < len(r); i++ {
			if r[i] != "" {
				fmt.Fprintf(&b, "- %s: %s\n", label[i], markdownText(r[i]))
			}
		}
	}
	b.WriteString("\n## Groups\n\n`--columns` and `riskbatch columns` select columns by name, by a pattern such as `fdp_*`, by\nan author's surname as cited (`balle`), or by one of these groups:\n\n| group | kind | columns |\n|---|---|---|\n")
	authors := map[string]string{}
	for _, p := range evaluate.Papers() {
		authors[p.ID] = p.Author
	}
	for _, g := range ev.Groups() {
		kind := g.Kind
		if a, ok := authors[g.Name]; ok && g.Kind == "paper" {
			kind = "paper: " + a + " et al."
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", g.Name, kind, strings.Join(g.Columns, ", "))
	}
	return b.String()
}

// referenceInputName writes the name of an input column of the reference, such as
// "epsilon (also eps)", with each name as code.
func referenceInputName(name string) string {
	name, aliases, ok := strings.Cut(name, " (also ")
	if !ok {
		return "`" + name + "`"
	}
	as := strings.Split(strings.TrimSuffix(aliases, ")"), ", ")
	return "`" + name + "` (also `" + strings.Join(as, "`, `") + "`)"
}

// markdownText escapes a registry text for Markdown: a table cell's bar, a
// line break, and the asterisk of a pattern such as fdp_*.
func markdownText(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ", "*", "\\*").Replace(s)
}

// docs/columns.md is the column reference the registry makes, so that the
// manual lists every column with the formula, source and assumptions that
// riskbatch columns prints.
func TestDocsColumnsPage(t *testing.T) {
	want := columnsPage()
	got, err := os.ReadFile(columnsPagePath)
	if *updateDocs {
		if err := os.WriteFile(columnsPagePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v: run %s", err, regenerateDocs)
	}
	if string(got) == want {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Errorf("%s differs at its line %d:\n got %s\nwant %s", filepath.Base(columnsPagePath), i+1, g[i], w[i])
			break
		}
	}
	t.Errorf("docs/columns.md (%d lines) is not the column reference the registry makes (%d lines): run %s", len(g), len(w), regenerateDocs)
}

// The column reference names every column riskbatch columns lists, each
// once, and every output column has its own heading.
func TestDocsColumnsPageNamesEveryColumn(t *testing.T) {
	page, _, _ := strings.Cut(columnsPage(), "\n## Groups\n")
	for _, r := range evaluate.New().Docs()[1:] {
		name := "\n| " + referenceInputName(r[0]) + " |"
		if r[1] != "input" {
			name = "\n### " + r[0] + "\n"
		}
		if n := strings.Count(page, name); n != 1 {
			t.Errorf("the column reference names %s %d times, want once", strings.TrimSpace(name), n)
		}
	}
}
