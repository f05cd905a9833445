package evaluate

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/internal/registry"
	"github.com/riskbatch/riskbatch/evaluate/internal/resolve"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the column tables of docs/inputs.md and docs/outputs.md from InputColumnsMarkdown, ColumnsMarkdown and QuestionsMarkdown")

// regenerateDocs is the command that rewrites every page made from the
// registry: the column tables of docs/inputs.md and docs/outputs.md (this
// package) and docs/columns.md (package main of cmd/riskbatch).
const regenerateDocs = "go test ./evaluate ./cmd/riskbatch -run TestDocs -update-docs"

// docTable finds a table of a page of the manual: the lines from its
// header row, under the heading, to the first line that is not a table
// row. It returns the text before, the table and the text after.
func docTable(t *testing.T, path, page, heading, header string) (before, table, after string) {
	t.Helper()
	h := strings.Index(page, "\n"+heading+"\n")
	if h < 0 {
		t.Fatalf("%s has no %q heading", path, heading)
	}
	start := strings.Index(page[h:], "\n"+header+"\n")
	if start < 0 {
		t.Fatalf("%s has no table %q under its %q heading", path, header, heading)
	}
	start += h + 1
	end := start
	for end < len(page) && page[end] == '|' {
		nl := strings.IndexByte(page[end:], '\n')
		if nl < 0 {
			end = len(page)
			break
		}
		end += nl + 1
	}
	return page[:start], page[start:end], page[end:]
}

// The manual's tables of input and output columns, and of the questions
// several columns answer, are the ones the vocabulary and the registry
// make (InputColumnsMarkdown, ColumnsMarkdown, QuestionsMarkdown), so that
// they list every column, in order.
func TestDocsColumnTables(t *testing.T) {
	for _, c := range []struct{ path, heading, header, want string }{
		{"../docs/inputs.md", "## Input columns", "| column | meaning |", registry.InputColumnsMarkdown()},
		{"../docs/outputs.md", "## The columns in order", "| column | meaning | source |", registry.ColumnsMarkdown()},
		{"../docs/outputs.md", "## The headline and which column to quote", "| question | the answer to quote | comparisons |", registry.QuestionsMarkdown()},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		before, table, after := docTable(t, c.path, string(data), c.heading, c.header)
		if table == c.want {
			continue
		}
		if *updateDocs {
			if err := os.WriteFile(c.path, []byte(before+c.want+after), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, want := strings.Split(table, "\n"), strings.Split(c.want, "\n")
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("%s: the table under %q differs at its line %d:\n got %s\nwant %s", c.path, c.heading, i+1, got[i], want[i])
				break
			}
		}
		t.Errorf("%s: the table under %q (%d lines) is not the one riskbatch makes (%d lines): run %s", c.path, c.heading, len(got), len(want), regenerateDocs)
	}
}

// ColumnsMarkdown names every output column once, in output order, in
// the first cell of its rows.
func TestColumnsMarkdownNamesEveryColumn(t *testing.T) {
	var named []string
	for _, line := range strings.Split(registry.ColumnsMarkdown(), "\n")[2:] {
		if line == "" {
			continue
		}
		first := strings.Split(line, " | ")[0]
		for _, n := range strings.Split(strings.TrimPrefix(first, "| "), ", ") {
			named = append(named, strings.Trim(n, "`"))
		}
	}
	want := []string{"status", "message", registry.HeadlineColumn, registry.HeadlineSaysColumn}
	for _, o := range registry.OutputColumns([]float64{resolve.DefaultConfidence}) {
		want = append(want, o.Name)
	}
	if strings.Join(named, " ") != strings.Join(want, " ") {
		t.Errorf("ColumnsMarkdown names\n%v\nwant\n%v", named, want)
	}
}
