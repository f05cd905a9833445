package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate"
)

// `riskbatch columns` prints, for every output column, its meaning and
// when it applies exactly as the registry declares them (the text is made
// from the registry, so the two cannot disagree; this checks the printing).
func TestColumnsShowApplies(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"riskbatch", "columns"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, o := range evaluate.New().Outputs() {
		i := strings.Index(out, "\n"+o.Name+"  [")
		if i < 0 {
			t.Errorf("columns does not list %s", o.Name)
			continue
		}
		block := out[i+1:]
		if j := strings.Index(block, "\n\n"); j >= 0 {
			block = block[:j]
		}
		for _, want := range []string{"  " + o.Meaning + "\n", "  applies: " + o.Applies.Text()} {
			if !strings.Contains(block, want) {
				t.Errorf("%s: the columns text lacks %q:\n%s", o.Name, want, block)
			}
		}
	}
	// fano_success_opt is a success probability, not an advantage.
	if i := strings.Index(out, "\nfano_success_opt  ["); i < 0 || !strings.HasPrefix(out[i+1:], "fano_success_opt  [output (fano)]\n  bound on the success probability P(correct)") {
		t.Errorf("fano_success_opt is not described as a success probability")
	}
}
