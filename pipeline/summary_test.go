package pipeline

import (
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// A chart title shows a bound with 4 significant digits rounded up (the
// next 4-digit decimal above it where 4 digits do not write it), and never
// one below 1 as 1 (the sample's canary-9-digit has 0.999909).
func TestSignificant(t *testing.T) {
	for x, want := range map[float64]string{
		0.9999092042625951: "0.99991", 0.99999: "0.99999", 0.9999999999: "0.9999999999", 1: "1",
		0.46211715726000976: "0.4622", 2.2026465794806748e-05: "2.203e-05", 0: "0", 1e-300: "1e-300",
	} {
		if got := significant(x, titleDigits); got != want {
			t.Errorf("significant(%v) = %q, want %q", x, got, want)
		}
	}
	if got := rankText(0); got != "#1" {
		t.Errorf("rankText(0) = %q", got)
	}
}

// The Summary lists the first topAudits audit rows in output order and
// counts them all: 25 audit rows given in order (as writeInOrder gives
// them) leave rows 0 to 19 and a count of 25.
func TestAuditSummaryKeepsFirst(t *testing.T) {
	a := auditSummary{method: 0, claim: -1, epsLB: 1, refuted: -1}
	for seq := range 25 {
		a.add(seq, []table.Cell{table.TextCell("one-run"), table.NumberCell(float64(seq))}, "")
	}
	if a.count != 25 || len(a.rows) != topAudits {
		t.Fatalf("count %d, %d rows kept: want 25 and %d", a.count, len(a.rows), topAudits)
	}
	for i, r := range a.rows {
		if r.seq != i || r.lb != strconv.Itoa(i) {
			t.Errorf("kept row %d: seq %d, lb %s; want %d and %d", i, r.seq, r.lb, i, i)
		}
	}
}
