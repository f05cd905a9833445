package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// The README's table of the sample's audit rows shows what riskbatch
// computes: each lower bound (audit_eps_lb, audit_mu_lb) rounded down to
// 4 significant digits, each p-value rounded up, the claim's verdict, and
// the claimed epsilon and delta as the sample has them; empty where the
// output is empty.
func TestReadmeAuditExample(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	_, section, ok := strings.Cut(readme, "\n## Auditing a training run\n")
	if !ok {
		t.Fatal("the README has no section Auditing a training run")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var header []string // of the table whose first column is id
	var lines [][]string
	in := false // in that table
	for _, l := range strings.Split(section, "\n") {
		if !strings.HasPrefix(l, "|") {
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cells[0] == "id":
			header, in = cells, true
		case in && !strings.HasPrefix(cells[0], "---"):
			lines = append(lines, cells)
		}
	}
	if len(lines) != 5 {
		t.Fatalf("the README's audit table has %d rows, want 5", len(lines))
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	riskbatch(t, "eval", sampleReleases(t, dir), "-o", out, "-q")
	outHeader, rows := readAll(t, out)
	byID := map[string][]string{}
	for _, r := range rows {
		byID[r[0]] = r
	}
	for _, l := range lines {
		r, ok := byID[l[0]]
		if !ok {
			t.Errorf("README row %s: no such sample row", l[0])
			continue
		}
		for j, name := range header {
			round := map[string]func(float64) float64{
				"audit_eps_lb": down4, "audit_mu_lb": down4, "audit_p_value": up4,
				"audit_claim_refuted": exact, "delta": exact, "epsilon (claimed)": exact,
			}[name]
			if round == nil {
				continue
			}
			col := column(outHeader, strings.TrimSuffix(name, " (claimed)"))
			got, want := l[j], r[col]
			if got == "" || want == "" {
				if got != want {
					t.Errorf("README %s %s = %q, riskbatch writes %q", l[0], name, got, want)
				}
				continue
			}
			g, err1 := parseFloat(got)
			w, err2 := parseFloat(want)
			if err1 != nil || err2 != nil || math.Abs(g-round(w)) > 1e-12*math.Abs(w) {
				t.Errorf("README %s %s = %s, riskbatch writes %s (%.4g as the README rounds it)", l[0], name, got, want, round(w))
			}
		}
	}
}

// down4 rounds x > 0 down to 4 significant digits, up4 up; exact leaves it.
func down4(x float64) float64 { return round4(x, math.Floor) }
func up4(x float64) float64   { return round4(x, math.Ceil) }
func exact(x float64) float64 { return x }

func round4(x float64, f func(float64) float64) float64 {
	if x == 0 {
		return 0
	}
	scale := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return f(x*scale) / scale
}
