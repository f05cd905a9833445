package main

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// docTable returns the table of a page of the documentation (a file named
// relative to the repository's root) whose header starts with "| id |" and
// names the column first: its header cells and its rows' cells, trimmed.
func docTable(t *testing.T, page, first string) (header []string, lines [][]string) {
	t.Helper()
	in := false // in that table
	for _, l := range strings.Split(readRepoFile(t, page), "\n") {
		if !strings.HasPrefix(l, "|") {
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cells[0] == "id" && len(cells) > 1 && cells[1] == first:
			header, in = cells, true
		case in && !strings.HasPrefix(cells[0], "---"):
			lines = append(lines, cells)
		}
	}
	if header == nil {
		t.Fatalf("%s has no table of the sample's rows whose header starts | id | %s |", page, first)
	}
	return header, lines
}

// sampleRowsByID evaluates the sample release table with the extra flags and
// returns the output's header and its rows by id.
func sampleRowsByID(t *testing.T, flags ...string) ([]string, map[string][]string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	riskbatch(t, append([]string{"eval", sampleReleases(t, dir), "-o", out, "-q"}, flags...)...)
	header, rows := readAll(t, out)
	byID := map[string][]string{}
	for _, r := range rows {
		byID[r[0]] = r
	}
	return header, byID
}

// The README's worked example and the example tables of the manual show
// what riskbatch writes for the sample: each number rounded to nearest at
// as many significant digits as it is printed with (0.01300 is 0.012995…
// to four), each text (status) as written, and an empty cell where the
// output is empty. A header names the output column, with a note in
// brackets after it: "fdp_success (b = 0.01)".
func TestDocsExampleTables(t *testing.T) {
	for _, c := range []struct {
		page, first string
		rows        int
		flags       []string
	}{
		{"README.md", "status", 10, nil},
		{"docs/datasets.md", "status", 4, nil},
		{"docs/outputs.md", "onerun_successes_ub_5", 2, []string{"--confidence", "0.05,0.5,0.95"}},
	} {
		header, lines := docTable(t, c.page, c.first)
		if len(lines) != c.rows {
			t.Errorf("%s: the table %s has %d rows, want %d", c.page, c.first, len(lines), c.rows)
		}
		outHeader, byID := sampleRowsByID(t, c.flags...)
		for _, l := range lines {
			r, ok := byID[l[0]]
			if !ok {
				t.Errorf("%s: row %s: no such sample row", c.page, l[0])
				continue
			}
			for j, name := range header[1:] {
				name, _, _ = strings.Cut(name, " (")
				col := column(outHeader, name)
				if col < 0 {
					t.Errorf("%s: riskbatch writes no column %s", c.page, name)
					continue
				}
				got, want := l[j+1], r[col]
				if g, err := parseFloat(got); err == nil && want != "" {
					w, err := parseFloat(want)
					rounded := roundSignificant(w, significantDigits(got))
					if err != nil || math.Abs(g-rounded) > 1e-9*math.Abs(rounded) {
						t.Errorf("%s: %s %s = %s, riskbatch writes %s (%s as printed)", c.page, l[0], name, got, want, strconv.FormatFloat(rounded, 'g', -1, 64))
					}
					continue
				}
				if got != want {
					t.Errorf("%s: %s %s = %q, riskbatch writes %q", c.page, l[0], name, got, want)
				}
			}
		}
	}
}

// significantDigits counts the significant digits of a number as printed:
// those of its mantissa from the first that is not 0 (0.01300 has four,
// 2.203e-05 four, 84 two).
func significantDigits(s string) int {
	s, _, _ = strings.Cut(strings.ToLower(s), "e")
	s = strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	return max(len(s), 1)
}

// roundSignificant rounds x to nearest at n significant digits.
func roundSignificant(x float64, n int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', n-1, 64), 64)
	return r
}

// The manual's table of the sample's audit rows shows what riskbatch
// computes: each lower bound (audit_eps_lb, audit_mu_lb) rounded down to
// 4 significant digits, each p-value rounded up, the claim's verdict, and
// the claimed epsilon and delta as the sample has them; empty where the
// output is empty.
func TestDocsAuditExample(t *testing.T) {
	const page = "docs/auditing.md"
	header, lines := docTable(t, page, "audit")
	if len(lines) != 5 {
		t.Fatalf("%s: the audit table has %d rows, want 5", page, len(lines))
	}
	outHeader, byID := sampleRowsByID(t)
	for _, l := range lines {
		r, ok := byID[l[0]]
		if !ok {
			t.Errorf("%s: row %s: no such sample row", page, l[0])
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
					t.Errorf("%s: %s %s = %q, riskbatch writes %q", page, l[0], name, got, want)
				}
				continue
			}
			g, err1 := parseFloat(got)
			w, err2 := parseFloat(want)
			if err1 != nil || err2 != nil || math.Abs(g-round(w)) > 1e-12*math.Abs(w) {
				t.Errorf("%s: %s %s = %s, riskbatch writes %s (%.4g as the page rounds it)", page, l[0], name, got, want, round(w))
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

// The messages the README and the manual quote for rows of the sample are
// the messages riskbatch writes for those rows (a quote may run over a
// line end).
func TestDocsQuoteMessages(t *testing.T) {
	header, byID := sampleRowsByID(t)
	msg := column(header, "message")
	space := strings.NewReplacer("\n", " ", "  ", " ")
	for _, c := range []struct {
		page string
		ids  []string
	}{
		{"README.md", []string{"gdp-no-baseline", "bad-delta"}},
		{"docs/outputs.md", []string{"gdp-no-baseline", "bad-delta", "contradictory"}},
	} {
		page := readRepoFile(t, c.page)
		for range 4 {
			page = space.Replace(page)
		}
		for _, id := range c.ids {
			r, ok := byID[id]
			if !ok {
				t.Fatalf("the sample has no row %s", id)
			}
			if !strings.Contains(page, "`"+r[msg]+"`") {
				t.Errorf("%s does not quote %s's message as riskbatch writes it: %q", c.page, id, r[msg])
			}
		}
	}
	const stages = "gaussian(8)x12; gaussian(5)x1; gaussian(3.3333333333333335)x1"
	if total := byID["census-2030"][msg]; !strings.HasSuffix(total, "stages "+stages) {
		t.Errorf("census-2030's message is %q; docs/datasets.md quotes its stages as %s", total, stages)
	}
	if !strings.Contains(readRepoFile(t, "docs/datasets.md"), "`"+stages+"`") {
		t.Errorf("docs/datasets.md does not quote the census-2030 total's stages, %s", stages)
	}
}
