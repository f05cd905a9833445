package main

import (
	"math"
	"strconv"
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
		want = append(want, []string{r[column(header, "audit")], r[0], strconv.Itoa(i + 1), r[column(header, "epsilon")], r[column(header, "audit_eps_lb")], refuted})
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
