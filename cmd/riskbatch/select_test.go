package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
)

// selections are --columns values the selection tests run: names, a
// pattern, a family, papers, and a mix.
var selections = []string{
	"fdp_advantage,adp_advantage",
	"fdp_*",
	"onerun",
	"seed000",
	"seed001,seed004",
	"rero,eps_at_delta,onerun_tail_prob",
	"status",
}

// An output of a --columns selection is the full output with the other
// columns cut out, byte for byte: every input cell and every selected
// bound, on the sample and on the random table of TestOutputUnchanged
// (100 rows; 2,000 and the sample in the long run). The
// status and message differ only as the selection documents
// (evaluate.Evaluator.Select): an error row stays an error with the same
// message; a selection's partial row is partial in full; and a message
// names no output column left out.
func TestColumnsSelectionCutsFullOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(goldenTable(testenv.Count(100, 2000), 20261125)); err != nil {
		t.Fatal(err)
	}
	random := writeFile(t, filepath.Join(dir, "random.csv"), buf.String())
	registered := evaluate.New().Registered()
	inputs := []string{random}
	if testenv.Long() {
		// The sample's DP-SGD and tail rows take most of a run's time.
		inputs = append(inputs, samplePath("releases.csv"))
	}
	for _, in := range inputs {
		full := filepath.Join(dir, "full.csv")
		code, stderr := riskbatchShared(t, "eval", in, "-o", full, "-q", "--force")
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", in, code, stderr)
		}
		fullHeader, fullRows := readAll(t, full)
		status := slices.Index(fullHeader, "status")
		for _, sel := range selections {
			out := filepath.Join(dir, "sel.csv")
			if code2, stderr := riskbatchShared(t, "eval", in, "-o", out, "-q", "--force", "--columns", sel); code2 != code {
				t.Fatalf("%s --columns %s: exit %d, want %d: %s", in, sel, code2, code, stderr)
			}
			header, rows := readAll(t, out)
			at := make([]int, len(header)) // where each column is in full
			for j, h := range header {
				if at[j] = slices.Index(fullHeader, h); at[j] < 0 {
					t.Fatalf("--columns %s: column %s is not in the full output", sel, h)
				}
			}
			if len(rows) != len(fullRows) {
				t.Fatalf("--columns %s: %d rows, want %d", sel, len(rows), len(fullRows))
			}
			var left []string // output columns left out
			for _, n := range registered {
				if !slices.Contains(header, n) {
					left = append(left, n)
				}
			}
			for i, row := range rows {
				want := fullRows[i]
				for j, cell := range row {
					// The headline of a selection quotes the selected
					// columns only (it may quote another than the full
					// output's, or none).
					headline := header[j] == evaluate.HeadlineColumn || header[j] == evaluate.HeadlineSaysColumn
					if j != status && j != status+1 && !headline && cell != want[at[j]] {
						t.Errorf("%s --columns %s, row %d, %s: %q, full output has %q", filepath.Base(in), sel, i+2, header[j], cell, want[at[j]])
					}
				}
				checkSelectedStatus(t, sel, i+2, row[status:status+2], want[status:status+2], left)
			}
		}
	}
}

// checkSelectedStatus checks the status and message of a row of a
// selection against the full output's.
func checkSelectedStatus(t *testing.T, sel string, line int, got, full []string, left []string) {
	t.Helper()
	switch {
	case (got[0] == "error") != (full[0] == "error"):
		t.Errorf("--columns %s, row %d: status %s, full output %s", sel, line, got[0], full[0])
	case got[0] == "error" && got[1] != full[1]:
		t.Errorf("--columns %s, row %d: error message %q, full output %q", sel, line, got[1], full[1])
	case got[0] == "partial" && full[0] != "partial":
		t.Errorf("--columns %s, row %d: partial, full output %s", sel, line, full[0])
	}
	if got[0] == "error" {
		return
	}
	for _, n := range left {
		if containsWord(messageSubjects(got[1]), n) {
			t.Errorf("--columns %s, row %d: the message speaks of %s, which is not selected: %q", sel, line, n, got[1])
		}
	}
}

// messageSubjects returns what the clauses of a row's message are about:
// the text before each clause's first colon ("fdp_success, fdp_advantage
// empty: …", "sigma: …"). A clause may still point to another column as
// the way out ("…; fdp_mu_for_target calibrates its per-step μ").
func messageSubjects(msg string) string {
	var subjects []string
	for _, clause := range strings.Split(msg, "; ") {
		if i := strings.Index(clause, ":"); i >= 0 {
			subjects = append(subjects, clause[:i])
		}
	}
	return strings.Join(subjects, "; ")
}

// containsWord reports whether name stands in text as a word of its own
// (fdp_success is not in fdp_success_opt).
func containsWord(text, name string) bool {
	word := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !word(text[j-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = j + 1
	}
}

// A row that lacks an input only a column left out needs is ok on a
// selection: adp_advantage needs no baseline, and fdp_advantage does.
func TestColumnsSelectionStatus(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "in.csv"), "mechanism,epsilon\npure,1\n")
	out := filepath.Join(dir, "out.csv")
	header, rows := evalRows(t, 0, out, 1, "eval", in, "-o", out, "-q", "--columns", "adp_advantage")
	if want := []string{"mechanism", "epsilon", "status", "message", "headline", "headline_says", "adp_advantage"}; !slices.Equal(header, want) {
		t.Fatalf("header %q, want %q", header, want)
	}
	// (e^1 − 1)/(e^1 + 1) = tanh(1/2) = 0.46211715726000974, rounded up
	// as the full output writes it.
	if want := []string{"pure", "1", "ok", "", "", "", "0.4621171572600102"}; !slices.Equal(rows[0], want) {
		t.Errorf("row %q, want %q", rows[0], want)
	}
	_, rows = evalRows(t, 0, out, 1, "eval", in, "-o", out, "-q", "--force", "--columns", "adp_advantage,fdp_advantage")
	if rows[0][2] != "partial" || !strings.Contains(rows[0][3], "to get fdp_advantage") || strings.Contains(rows[0][3], "fdp_success") {
		t.Errorf("status %q, message %q: want partial, asking for a baseline to get fdp_advantage only", rows[0][2], rows[0][3])
	}
}

// A --columns selector that matches no output column is a usage error
// (exit 2, nothing written) that names the closest names.
func TestColumnsSelectionUnknown(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "in.csv"), "mechanism,epsilon\npure,1\n")
	out := filepath.Join(dir, "out.csv")
	for _, tc := range []struct{ sel, want string }{
		{"fdp_advantge", `riskbatch: --columns: no output column, group or paper matches "fdp_advantge"; did you mean fdp_advantage, adp_advantage or fdp?`},
		{"onerunn,adp_advantage", `riskbatch: --columns: no output column, group or paper matches "onerunn"; did you mean onerun?`},
		{"ε", `riskbatch: --columns: epsilon is an input column; --columns selects the output columns to compute (see riskbatch columns output)`},
		{"seed007", `riskbatch: --columns: no output column, group or paper matches "seed007"; did you mean seed000, seed001 or seed002?`},
		{"", `riskbatch: --columns: no column named; give output columns, patterns such as fdp_*, groups such as onerun or papers such as seed003 (see riskbatch columns)`},
	} {
		code, stderr := riskbatch(t, "eval", in, "-o", out, "--columns", tc.sel)
		if code != exitUsage || !strings.HasPrefix(stderr, tc.want+"\n") {
			t.Errorf("--columns %q: exit %d, stderr %q; want exit %d, %q", tc.sel, code, stderr, exitUsage, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("--columns %q: an output was written", tc.sel)
		}
	}
}

// riskbatch columns lists the groups --columns takes, with their columns,
// and takes the same selectors.
func TestColumnsGroups(t *testing.T) {
	var stdout bytes.Buffer
	if code, stderr := riskbatchTo(t, &stdout, "columns", "seed004"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := stdout.String()
	for _, want := range []string{"\nGROUPS ", "\n  fano     family             fano_adv_alpha1, fano_adv_opt, fano_success_opt\n", "\n  seed004  paper: Guo et al.  fano_adv_alpha1, fano_adv_opt, fano_success_opt\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("riskbatch columns seed004 lacks %q:\n%s", want, out)
		}
	}
}
