package pipeline

import (
	"strconv"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/table"
	"github.com/riskbatch/riskbatch/writers"
)

// auditSummary gathers the audit rows for the Summary sheet: each one's
// claimed ε beside the lower bound its audit certifies. It keeps the first
// topAudits of them in output order, so that its memory is bounded.
type auditSummary struct {
	method, claim  int // input indexes of audit and epsilon, or -1
	epsLB, refuted int // output indexes of audit_eps_lb and audit_claim_refuted, or -1
	count          int // the audit rows with a certified bound
	rows           []audited
}

// topAudits is how many audit rows the Summary lists.
const topAudits = 20

// audited is one audit row as the Summary lists it.
type audited struct {
	seq                             int
	label, method, claim, lb, refut string
}

// newAuditSummary finds the columns of the audit table in an output laid
// out as lay, whose input columns are in.
func newAuditSummary(lay *layout.Layout, in inputColumns) auditSummary {
	return auditSummary{
		method:  in.of(release.FieldAudit),
		claim:   in.of(release.FieldEpsilon),
		epsLB:   outputColumn(lay, "audit_eps_lb"),
		refuted: outputColumn(lay, "audit_claim_refuted"),
	}
}

// add records a written row if it is an audit row with a certified bound
// (the caller holds the summary's lock). Rows come in output order (seq
// increasing), so the first topAudits are kept as they come.
func (a *auditSummary) add(seq int, cells []table.Cell, label string) {
	if a.method < 0 || a.epsLB < 0 || cells[a.method].IsEmpty() || cells[a.epsLB].Kind != table.Number {
		return
	}
	a.count++
	if len(a.rows) >= topAudits {
		return
	}
	r := audited{seq: seq, label: label, method: cells[a.method].String(), lb: strconv.FormatFloat(cells[a.epsLB].Num, 'g', -1, 64)}
	if a.claim >= 0 && !cells[a.claim].IsEmpty() {
		r.claim = cells[a.claim].String()
	}
	if a.refuted >= 0 && cells[a.refuted].Kind == table.Number {
		r.refut = "no"
		if cells[a.refuted].Num == 1 {
			r.refut = "yes"
		}
	}
	a.rows = append(a.rows, r)
}

// lines is the audit table of the Summary sheet: none without audit rows.
func (a *auditSummary) lines() [][]string {
	if a.count == 0 {
		return nil
	}
	title := "Audits: the claimed epsilon beside the lower bound the audit certifies (audit_eps_lb);"
	if a.count > len(a.rows) {
		title = "Audits (the first " + strconv.Itoa(len(a.rows)) + " of " + strconv.Itoa(a.count) + "): the claimed epsilon beside the lower bound the audit certifies (audit_eps_lb);"
	}
	out := [][]string{{""}, {title},
		{"a claim below the bound is refuted at the row's confidence (audit_claim_refuted)."},
		{"audit", "id", "row", "claimed epsilon", "audit_eps_lb", "refuted"}}
	for _, r := range a.rows {
		out = append(out, []string{r.method, r.label, strconv.Itoa(sheetRow(r.seq)), r.claim, r.lb, r.refut})
	}
	return out
}

// Columns of the audit table on the Summary sheet (1-based).
const (
	auditIDColumn    = 2
	auditRowColumn   = 3
	auditClaimColumn = 4
	auditLBColumn    = 5
)

// bars is the Summary's chart of the audit table found in sheet (the
// Summary's lines): for every audit row listed, the claimed ε beside
// audit_eps_lb, labelled by the row's id (by its row number when a listed
// row has no id). None without audit rows.
func (a *auditSummary) bars(sheet [][]string) []writers.Bars {
	if a.count == 0 || len(a.rows) == 0 {
		return nil
	}
	for i, r := range sheet {
		if len(r) > auditLBColumn-1 && r[0] == "audit" && r[auditLBColumn-1] == "audit_eps_lb" {
			labels := auditIDColumn
			for _, ar := range a.rows {
				if ar.label == "" {
					labels = auditRowColumn
				}
			}
			return []writers.Bars{{
				Title:  "Audits: claimed epsilon and the certified lower bound audit_eps_lb",
				YTitle: "epsilon",
				First:  i + 2, // the sheet's rows count from 1, the header is row i+1
				Last:   i + 1 + len(a.rows),
				Labels: labels,
				Series: []int{auditClaimColumn, auditLBColumn},
			}}
		}
	}
	return nil
}
