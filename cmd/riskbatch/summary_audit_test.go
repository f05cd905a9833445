package main

import (
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// The Summary sheet lists every audit row of the sample with a certified
// bound: its method, id and row, the claimed epsilon and audit_eps_lb as
// the data sheet has them, and whether the claim is refuted.
func TestSummaryAudits(t *testing.T) {
	out := sampleWorkbook(t)
	header, rows := readAll(t, out)
	sum := sheetRows(t, testfiles.OpenXLSX(t, out), "Summary")
	start := -1
	for i, r := range sum {
		if len(r) > 0 && r[0] == "audit" {
			start = i + 1
		}
	}
	if start < 0 {
		t.Fatal("the Summary has no audit table")
	}
	var want [][]string
	for i, r := range rows {
		if r[column(header, "audit")] == "" || r[column(header, "audit_eps_lb")] == "" {
			continue
		}
		refuted := map[string]string{"1": "yes", "0": "no", "": ""}[r[column(header, "audit_claim_refuted")]]
		// The row column is the spreadsheet's row: the header is row 1.
		want = append(want, []string{r[column(header, "audit")], r[0], strconv.Itoa(i + 2), r[column(header, "epsilon")], r[column(header, "audit_eps_lb")], refuted})
	}
	if len(want) != 5 {
		t.Fatalf("%d audit rows with a bound in the sample, want 5", len(want))
	}
	for k, w := range want {
		got := sum[start+k]
		for len(got) < len(w) {
			got = append(got, "")
		}
		for j := range w {
			// The sheet shows numbers in its own format: compare values.
			g, gerr := parseFloat(got[j])
			v, werr := parseFloat(w[j])
			if same := gerr == nil && werr == nil && math.Abs(g-v) <= 1e-9*math.Abs(v); !same && got[j] != w[j] {
				t.Errorf("Summary audit line %d: %q, want %q", k+1, got, w)
				break
			}
		}
	}
}

// The Summary has one clustered bar chart of the audits: one cluster per
// listed audit row, labelled by its id, the claimed epsilon and
// audit_eps_lb side by side, read from the Summary's audit table (named by
// its header cells).
func TestSummaryAuditChart(t *testing.T) {
	out := sampleWorkbook(t)
	sum := sheetRows(t, testfiles.OpenXLSX(t, out), "Summary")
	header := -1
	for i, r := range sum {
		if len(r) > 4 && r[0] == "audit" && r[4] == "audit_eps_lb" {
			header = i + 1 // a sheet row
		}
	}
	if header < 0 {
		t.Fatal("the Summary has no audit table")
	}
	first, last := strconv.Itoa(header+1), strconv.Itoa(header+5) // the sample's 5 audit rows with a bound
	var bars []string
	for _, name := range zipParts(t, out, "xl/charts/chart") {
		if x := string(testfiles.ZipPart(t, out, name)); strings.Contains(x, "<barChart>") {
			bars = append(bars, x)
		}
	}
	if len(bars) != 1 {
		t.Fatalf("%d bar charts on the Summary, want 1", len(bars))
	}
	refs := regexp.MustCompile(`<f>([^<]*)</f>`).FindAllStringSubmatch(bars[0], -1)
	var got []string
	for _, m := range refs {
		got = append(got, html.UnescapeString(m[1]))
	}
	s := "'Summary'!"
	want := []string{
		s + "$D$" + strconv.Itoa(header), s + "$B$" + first + ":$B$" + last, s + "$D$" + first + ":$D$" + last,
		s + "$E$" + strconv.Itoa(header), s + "$B$" + first + ":$B$" + last, s + "$E$" + first + ":$E$" + last,
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the audit chart's series read %q, want %q", got, want)
	}
	if !strings.Contains(bars[0], `<barDir val="col">`) || !strings.Contains(bars[0], `<grouping val="clustered">`) {
		t.Error("the audit chart is not a clustered column chart")
	}
	// The cells it reads: the header names and the ids of the audit rows.
	if sum[header-1][3] != "claimed epsilon" || sum[header][1] == "" {
		t.Errorf("the audit table's header %q, first row %q", sum[header-1], sum[header])
	}
}
