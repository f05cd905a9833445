package evaluate

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the column tables of README.md from ColumnsMarkdown and InputColumnsMarkdown")

// readmePath is the README whose tables of columns ColumnsMarkdown and
// InputColumnsMarkdown make.
const readmePath = "../README.md"

// readmeTable finds a table of the README: the lines from its header row,
// under the heading, to the first line that is not a table row. It
// returns the text before, the table and the text after.
func readmeTable(t *testing.T, readme, heading, header string) (before, table, after string) {
	t.Helper()
	h := strings.Index(readme, "\n"+heading+"\n")
	if h < 0 {
		t.Fatalf("%s has no %q heading", readmePath, heading)
	}
	start := strings.Index(readme[h:], "\n"+header+"\n")
	if start < 0 {
		t.Fatalf("%s has no table %q under its %q heading", readmePath, header, heading)
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

// The README's tables of input and output columns are the ones the
// vocabulary and the registry make (InputColumnsMarkdown, ColumnsMarkdown),
// so that they list every column, in order.
func TestREADMEColumns(t *testing.T) {
	for _, c := range []struct{ heading, header, want string }{
		{"## Input columns", "| column | meaning |", InputColumnsMarkdown()},
		{"## Output columns", "| column | meaning | source |", ColumnsMarkdown()},
	} {
		data, err := os.ReadFile(readmePath)
		if err != nil {
			t.Fatal(err)
		}
		before, table, after := readmeTable(t, string(data), c.heading, c.header)
		if table == c.want {
			continue
		}
		if *updateREADME {
			if err := os.WriteFile(readmePath, []byte(before+c.want+after), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, want := strings.Split(table, "\n"), strings.Split(c.want, "\n")
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("README.md's table under %q differs at its line %d:\n got %s\nwant %s", c.heading, i+1, got[i], want[i])
				break
			}
		}
		t.Errorf("README.md's table under %q (%d lines) is not the one riskbatch makes (%d lines): run go test ./evaluate -run TestREADMEColumns -update-readme", c.heading, len(got), len(want))
	}
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
	want := []string{"status", "message", HeadlineColumn, HeadlineSaysColumn}
	for _, o := range outputColumns([]float64{DefaultConfidence}) {
		want = append(want, o.Name)
	}
	if strings.Join(named, " ") != strings.Join(want, " ") {
		t.Errorf("ColumnsMarkdown names\n%v\nwant\n%v", named, want)
	}
}
