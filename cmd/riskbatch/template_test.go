package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/evaluate"
)

// riskbatch template writes a sheet with every contract column, a note on
// each header, data validation (a mechanism drop-down, numeric ranges),
// and one example row per mechanism; evaluating it gives ok on every row.
func TestTemplate(t *testing.T) {
	dir := t.TempDir()
	tpl := filepath.Join(dir, "releases.xlsx")
	if code, stderr := riskbatch(t, "template", "-o", tpl, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := excelize.OpenFile(tpl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Releases")
	if err != nil {
		t.Fatal(err)
	}
	vocab := evaluate.NewVocabulary()
	if len(rows[0]) != len(vocab.Columns())+1 {
		t.Errorf("%d columns, want the %d of the contract and a note", len(rows[0]), len(vocab.Columns()))
	}
	comments, _ := f.GetComments("Releases")
	if len(comments) != len(rows[0]) {
		t.Errorf("%d header notes for %d columns", len(comments), len(rows[0]))
	}
	dvs, err := f.GetDataValidations("Releases")
	if err != nil {
		t.Fatal(err)
	}
	var dropDown, epsilonRange bool
	for _, dv := range dvs {
		if strings.HasPrefix(dv.Sqref, "B2") && dv.Type == "list" && strings.Contains(dv.Formula1, "gaussian") {
			dropDown = true
		}
		if strings.HasPrefix(dv.Sqref, "C2") && dv.Type == "decimal" {
			epsilonRange = true
		}
	}
	if !dropDown || !epsilonRange {
		t.Errorf("data validation: mechanism drop-down %v, epsilon range %v (%d rules)", dropDown, epsilonRange, len(dvs))
	}
	out := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatch(t, "eval", tpl, "-o", out, "-q"); code != exitOK {
		t.Fatalf("eval of the template: exit %d: %s", code, stderr)
	}
	header, evaluated := readAll(t, out)
	mechs := map[string]bool{}
	for _, r := range evaluated {
		mechs[r[column(header, "mechanism")]] = true
		if st := r[column(header, "status")]; st != "ok" {
			t.Errorf("example %s: %s %s", r[0], st, r[column(header, "message")])
		}
	}
	if len(mechs) != len(evaluate.MechanismNames()) {
		t.Errorf("examples cover %d mechanisms, want %d", len(mechs), len(evaluate.MechanismNames()))
	}
}

// The workbook's Summary sheet counts the rows by status and ranks the
// riskiest releases by fdp_worst_advantage, as the data sheet shows them.
func TestSummarySheet(t *testing.T) {
	out := sampleWorkbook(t)
	header, rows := readAll(t, out)
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	best, bestID := -1.0, ""
	for _, r := range rows {
		counts[r[column(header, "status")]]++
		if v, err := parseFloat(r[column(header, "fdp_worst_advantage")]); err == nil && v > best {
			best, bestID = v, r[0]
		}
	}
	want := map[string]string{"rows": itoa(len(rows)), "ok": itoa(counts["ok"])}
	for _, r := range sum {
		if len(r) > 1 && want[r[0]] != "" && r[1] != want[r[0]] {
			t.Errorf("Summary %s = %s, want %s", r[0], r[1], want[r[0]])
		}
	}
	var first []string
	for i, r := range sum {
		if len(r) > 0 && r[0] == "rank" && i+1 < len(sum) {
			first = sum[i+1]
		}
	}
	if len(first) < 4 || first[1] != bestID {
		t.Errorf("riskiest release %v, want %s (fdp_worst_advantage %v)", first, bestID, best)
	}
}
