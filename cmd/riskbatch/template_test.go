package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/xuri/excelize/v2"
)

// The template (riskbatch template): an empty workbook to fill in.

// templateState is what a filled-in template must keep: its header, the
// note on each header cell and its data validation rules.
type templateState struct {
	header      []string
	notes       map[string]string // cell → note text
	validations []string          // sqref|type|formula1, sorted
}

func readTemplateState(t *testing.T, path string) templateState {
	t.Helper()
	f := testfiles.OpenXLSX(t, path)
	rows, err := f.GetRows("Releases")
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: sheet Releases: %v", path, err)
	}
	s := templateState{header: rows[0], notes: map[string]string{}}
	comments, err := f.GetComments("Releases")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comments {
		text := c.Text
		for _, p := range c.Paragraph {
			text += p.Text
		}
		s.notes[c.Cell] = text
	}
	dvs, err := f.GetDataValidations("Releases")
	if err != nil {
		t.Fatal(err)
	}
	for _, dv := range dvs {
		s.validations = append(s.validations, dv.Sqref+"|"+dv.Type+"|"+dv.Formula1)
	}
	sort.Strings(s.validations)
	return s
}

// compareTemplates reports what `got` lost of `want`.
func compareTemplates(t *testing.T, what string, want, got templateState, sameFormulas bool) {
	t.Helper()
	if len(got.header) < len(want.header) {
		t.Fatalf("%s: %d header cells, the template has %d", what, len(got.header), len(want.header))
	}
	for i, h := range want.header {
		if got.header[i] != h {
			t.Errorf("%s: header %d is %q, template %q", what, i+1, got.header[i], h)
		}
	}
	if len(got.notes) != len(want.notes) {
		t.Errorf("%s: %d header notes, template %d", what, len(got.notes), len(want.notes))
	}
	for cell, note := range want.notes {
		if got.notes[cell] == "" || (sameFormulas && got.notes[cell] != note) {
			t.Errorf("%s: note on %s lost or changed: %.80q", what, cell, got.notes[cell])
		}
	}
	if len(got.validations) != len(want.validations) {
		t.Errorf("%s: %d validation rules, template %d", what, len(got.validations), len(want.validations))
	}
	if sameFormulas {
		for i := range want.validations {
			if i < len(got.validations) && got.validations[i] != want.validations[i] {
				t.Errorf("%s: validation %q, template %q", what, got.validations[i], want.validations[i])
			}
		}
	}
}

// The template round-trips: written by riskbatch template, filled in by a
// script (rows appended under the examples), saved, it keeps every header,
// note and validation rule; and riskbatch evaluates it, every row ok, the
// script's values read back as written. With RISKBATCH_LONG_TESTS=1 the
// filled template is also saved again by LibreOffice (an analyst filling
// it in Calc) and must keep the same header, notes and validation rules.
func TestTemplateFilledByScript(t *testing.T) {
	dir := t.TempDir()
	tpl := writeTemplate(t, dir)
	before := readTemplateState(t, tpl)
	if len(before.validations) == 0 || len(before.notes) != len(before.header) {
		t.Fatalf("template: %d validations, %d notes for %d columns", len(before.validations), len(before.notes), len(before.header))
	}

	// The script: append releases under the example rows, by header name.
	f := testfiles.OpenXLSX(t, tpl)
	rows, _ := f.GetRows("Releases")
	examples := len(rows) - 1
	added := []map[string]any{
		{"id": "script-pure", "mechanism": "pure", "epsilon": 1.5, "baseline": 0.2, "target_advantage": 0.1},
		{"id": "script-gaussian", "mechanism": "gaussian", "sigma": 3.0, "sensitivity": 1.0, "delta": 1e-6, "candidates": 50},
		{"id": "script-rr", "mechanism": "rr", "epsilon": 2.0, "rr_categories": 4, "baseline": 0.25},
	}
	for i, r := range added {
		for name, v := range r {
			j := column(before.header, name)
			if j < 0 {
				t.Fatalf("the template has no column %s", name)
			}
			cell, _ := excelize.CoordinatesToCellName(j+1, examples+2+i)
			if err := f.SetCellValue("Releases", cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	filled := filepath.Join(dir, "filled.xlsx")
	if err := f.SaveAs(filled); err != nil {
		t.Fatal(err)
	}
	compareTemplates(t, "filled by script", before, readTemplateState(t, filled), true)

	evaluateFilled := func(what, path string) {
		t.Helper()
		out := filepath.Join(dir, what+".csv")
		if code, stderr := riskbatchShared(t, "eval", path, "-o", out, "-q"); code != exitOK {
			t.Fatalf("%s: eval exit %d: %s", what, code, stderr)
		}
		header, got := readAll(t, out)
		if len(got) != examples+len(added) {
			t.Fatalf("%s: %d rows evaluated, want %d examples and %d added", what, len(got), examples, len(added))
		}
		for i, name := range before.header {
			if header[i] != name {
				t.Errorf("%s: output column %d is %q, template %q", what, i+1, header[i], name)
			}
		}
		st, msg := column(header, "status"), column(header, "message")
		for _, r := range got {
			if r[st] != "ok" {
				t.Errorf("%s: row %s: %s %s", what, r[0], r[st], r[msg])
			}
		}
		for i, a := range added {
			r := got[examples+i]
			for name, v := range a {
				want := fmt.Sprint(v) // as strconv formats a float64 ('g', shortest) or an int
				if !sameValue(r[column(header, name)], want) {
					t.Errorf("%s: row %s column %s = %q, the script wrote %q", what, a["id"], name, r[column(header, name)], want)
				}
			}
		}
		if r := got[examples]; r[column(header, "fdp_success")] == "" || r[column(header, "gb_rero_exact")] != "" {
			t.Errorf("%s: script-pure: fdp_success %q, gb_rero_exact %q (no candidates: empty)", what, r[column(header, "fdp_success")], r[column(header, "gb_rero_exact")])
		}
	}
	evaluateFilled("script", filled)

	if !testenv.Long() {
		t.Logf("the Calc round trip runs with %s=1", testenv.LongEnv)
		return
	}
	resaved := filepath.Join(dir, "calc")
	testfiles.Convert(t, nil, "xlsx", resaved, filled)
	calc := filepath.Join(resaved, "filled.xlsx")
	compareTemplates(t, "saved again by LibreOffice", before, readTemplateState(t, calc), false)
	evaluateFilled("calc", calc)
}

// riskbatch template writes a sheet with every contract column, a note on
// each header, data validation (a mechanism drop-down, numeric ranges),
// and one example row per mechanism; evaluating it gives ok on every row.
func TestTemplate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tpl := writeTemplate(t, dir)
	f := testfiles.OpenXLSX(t, tpl)
	rows := sheetRows(t, f, "Releases")
	vocab := release.NewVocabulary()
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
	var dropDown, epsilonRange, calibrations bool
	calibration := columnName(column(rows[0], "calibration")) + "2"
	for _, dv := range dvs {
		if strings.HasPrefix(dv.Sqref, "B2") && dv.Type == "list" && strings.Contains(dv.Formula1, "gaussian") {
			dropDown = true
		}
		if strings.HasPrefix(dv.Sqref, calibration) && dv.Type == "list" && strings.Contains(dv.Formula1, "analytic,classic") {
			calibrations = true
		}
		if strings.HasPrefix(dv.Sqref, "C2") && dv.Type == "decimal" {
			epsilonRange = true
		}
	}
	if !dropDown || !epsilonRange || !calibrations {
		t.Errorf("data validation: mechanism drop-down %v, epsilon range %v, calibration drop-down %v (%d rules)", dropDown, epsilonRange, calibrations, len(dvs))
	}
	for _, name := range []string{"batch_size", "dataset_size", "epochs"} {
		if column(rows[0], name) < 0 {
			t.Errorf("no %s column in the template", name)
		}
	}
	out := filepath.Join(dir, "out.csv")
	if code, stderr := riskbatchShared(t, "eval", tpl, "-o", out, "-q"); code != exitOK {
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
	if len(mechs) != len(release.MechanismNames()) {
		t.Errorf("examples cover %d mechanisms, want %d", len(mechs), len(release.MechanismNames()))
	}
}

// writeTemplate writes `riskbatch template` into dir as releases.xlsx.
func writeTemplate(t *testing.T, dir string) string {
	t.Helper()
	tpl := filepath.Join(dir, "releases.xlsx")
	mustRun(t, exitOK, "template", "-o", tpl, "-q")
	return tpl
}
