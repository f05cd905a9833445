package evaluate

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the output-column table of README.md from ColumnsMarkdown")

// readmePath is the README whose table of output columns ColumnsMarkdown
// makes.
const readmePath = "../README.md"

// outputTable finds the table of output columns in the README: the lines
// from its header row, under the "## Output columns" heading, to the first
// line that is not a table row. It returns the text before, the table and
// the text after.
func outputTable(t *testing.T, readme string) (before, table, after string) {
	t.Helper()
	h := strings.Index(readme, "\n## Output columns\n")
	if h < 0 {
		t.Fatalf("%s has no \"## Output columns\" heading", readmePath)
	}
	start := strings.Index(readme[h:], "\n| column | meaning | source |\n")
	if start < 0 {
		t.Fatalf("%s has no table of output columns under its \"## Output columns\" heading", readmePath)
	}
	start += h + 1
	end := start
	for end < len(readme) && readme[end] == '|' {
		nl := strings.IndexByte(readme[end:], '\n')
		if nl < 0 {
			end = len(readme)
			break
		}
		end += nl + 1
	}
	return readme[:start], readme[start:end], readme[end:]
}

// The README's table of output columns is the one the registry makes
// (ColumnsMarkdown), so that it lists every column, in output order.
func TestREADMEColumns(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	before, table, after := outputTable(t, string(data))
	want := ColumnsMarkdown()
	if table == want {
		return
	}
	if *updateREADME {
		if err := os.WriteFile(readmePath, []byte(before+want+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, wantLines := strings.Split(table, "\n"), strings.Split(want, "\n")
	for i := range min(len(got), len(wantLines)) {
		if got[i] != wantLines[i] {
			t.Errorf("README.md's output-column table differs from the registry at its line %d:\n got %s\nwant %s", i+1, got[i], wantLines[i])
			break
		}
	}
	t.Errorf("README.md's output-column table (%d lines) is not the registry's (%d lines): run go test ./evaluate -run TestREADMEColumns -update-readme", len(got), len(wantLines))
}

// ColumnsMarkdown names every output column once, in output order, in
// the first cell of its rows.
func TestColumnsMarkdownNamesEveryColumn(t *testing.T) {
	var named []string
	for _, line := range strings.Split(ColumnsMarkdown(), "\n")[2:] {
		if line == "" {
			continue
		}
		first := strings.Split(line, " | ")[0]
		for _, n := range strings.Split(strings.TrimPrefix(first, "| "), ", ") {
			named = append(named, strings.Trim(n, "`"))
		}
	}
	want := []string{"status", "message"}
	for _, o := range outputColumns([]float64{DefaultConfidence}) {
		want = append(want, o.Name)
	}
	if strings.Join(named, " ") != strings.Join(want, " ") {
		t.Errorf("ColumnsMarkdown names\n%v\nwant\n%v", named, want)
	}
}
