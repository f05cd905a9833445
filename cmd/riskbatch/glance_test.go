package main

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// fiveRows fills riskbatch's template, as an analyst's script would with
// openpyxl: its example rows are deleted and five releases written in
// their place, one with a typo.
const fiveRows = `import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["Releases"]
head = [c.value for c in ws[1]]
ws.delete_rows(2, ws.max_row)
rows = json.loads(sys.argv[3])
for i, r in enumerate(rows):
    for k, v in r.items():
        ws.cell(row=i + 2, column=head.index(k) + 1, value=v)
wb.save(sys.argv[2])
`

// fiveRowsInput are the five rows: a Gaussian count query over 100
// candidates, a Laplace query stated by ε = 2, a DP-SGD model in batch
// size, dataset size and epochs, a pure ε = 0.5 survey with a target, and
// a row whose sigma has a typo.
const fiveRowsInput = `[
 {"id": "count-query", "mechanism": "gaussian", "sigma": 5, "candidates": 100, "delta": 1e-5},
 {"id": "laplace-query", "mechanism": "laplace", "epsilon": 2},
 {"id": "model", "mechanism": "dpsgd", "noise_multiplier": 1.1, "batch_size": 256, "dataset_size": 60000, "epochs": 3, "delta": 1e-5},
 {"id": "survey", "mechanism": "pure", "epsilon": 0.5, "target_advantage": 0.05},
 {"id": "typo", "mechanism": "gaussian", "sigma": "5O", "candidates": 100}
]`

// readBack opens a workbook with openpyxl and prints, for its Releases
// sheet, each column's header, whether it is hidden, its outline level,
// and the cached values of the data rows.
const readBack = `import json, sys, openpyxl
from openpyxl.utils import get_column_letter
wb = openpyxl.load_workbook(sys.argv[1], data_only=True)
ws = wb["Releases"]
cols = []
for j in range(1, ws.max_column + 1):
    d = ws.column_dimensions[get_column_letter(j)]
    hidden, level = False, 0
    # openpyxl keeps a <col> element that spans several columns under
    # its first letter: find the one that covers column j.
    for dim in ws.column_dimensions.values():
        if dim.min is not None and dim.min <= j <= dim.max:
            hidden, level = bool(dim.hidden), int(dim.outlineLevel or 0)
    cols.append({"name": ws.cell(1, j).value, "hidden": hidden, "level": level,
                 "values": [ws.cell(i, j).value for i in range(2, ws.max_row + 1)]})
json.dump(cols, sys.stdout)
`

// openpyxlColumn is a column of a workbook as readBack prints it.
type openpyxlColumn struct {
	Name   string `json:"name"`
	Hidden bool   `json:"hidden"`
	Level  int    `json:"level"`
	Values []any  `json:"values"`
}

// fiveRowWorkbook writes the five-row template with openpyxl, evaluates it
// to a workbook and returns its path and the rows written.
func fiveRowWorkbook(t *testing.T, python string) (string, []map[string]any) {
	t.Helper()
	dir := t.TempDir()
	tpl, in, out := filepath.Join(dir, "template.xlsx"), filepath.Join(dir, "releases.xlsx"), filepath.Join(dir, "releases-risk.xlsx")
	mustRun(t, exitOK, "template", "-o", tpl, "-q")
	if b, err := exec.Command(python, "-c", fiveRows, tpl, in, fiveRowsInput).CombinedOutput(); err != nil {
		t.Fatalf("openpyxl filling the template: %v: %s", err, b)
	}
	mustRun(t, exitRowErrors, "eval", in, "-o", out, "-q")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(fiveRowsInput), &rows); err != nil {
		t.Fatal(err)
	}
	return out, rows
}

// The five-row template an analyst fills with openpyxl (docs/outputs.md
// quotes its sentences), evaluated to a
// workbook and opened with openpyxl: every input column a row fills is
// visible (not hidden, in no outline group), and each row has the
// headline the documented rule gives it: with target_advantage the answer
// ε (fdp_eps_for_target), with a baseline (candidates) fdp_success,
// otherwise fdp_worst_advantage; the error row none. headline_says is one
// sentence of at most 120 characters.
func TestFiveRowTemplateAtAGlance(t *testing.T) {
	python := testenv.Python(t, "openpyxl")
	out, input := fiveRowWorkbook(t, python)
	data, err := exec.Command(python, "-c", readBack, out).Output()
	if err != nil {
		t.Fatalf("openpyxl reading the output: %v", err)
	}
	var cols []openpyxlColumn
	if err := json.Unmarshal(data, &cols); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	byName := map[string]openpyxlColumn{}
	for _, c := range cols {
		byName[c.Name] = c
	}
	typed := map[string]bool{}
	for _, r := range input {
		for k := range r {
			typed[k] = true
		}
	}
	for name := range typed {
		c, ok := byName[name]
		switch {
		case !ok:
			t.Errorf("input column %s is not in the output", name)
		case c.Hidden || c.Level > 0:
			t.Errorf("input column %s, filled, is hidden (%v) or in an outline group (level %d)", name, c.Hidden, c.Level)
		}
	}
	for _, name := range []string{evaluate.HeadlineColumn, evaluate.HeadlineSaysColumn} {
		if c, ok := byName[name]; !ok || c.Hidden || c.Level > 0 {
			t.Fatalf("column %s missing or folded: %+v", name, c)
		}
	}
	value := func(col string, i int) any {
		c, ok := byName[col]
		if !ok || i >= len(c.Values) {
			return nil
		}
		return c.Values[i]
	}
	// The rule, case by case, on the five rows.
	want := []string{"fdp_success", "fdp_worst_advantage", "fdp_worst_advantage", "fdp_eps_for_target", ""}
	for i, r := range input {
		id := r["id"].(string)
		got, says := value(evaluate.HeadlineColumn, i), value(evaluate.HeadlineSaysColumn, i)
		if want[i] == "" {
			if value("status", i) != "error" || got != nil || says != nil && says != "" {
				t.Errorf("%s: status %v, headline %v, %v; want error and none", id, value("status", i), got, says)
			}
			continue
		}
		w, ok := value(want[i], i).(float64)
		g, gok := got.(float64)
		if !ok || !gok || math.Float64bits(g) != math.Float64bits(w) {
			t.Errorf("%s: headline %v, want %s = %v", id, got, want[i], value(want[i], i))
		}
		s, _ := says.(string)
		if s == "" || utf8.RuneCountInString(s) > evaluate.MaxHeadlineSays || strings.Contains(s, "\n") {
			t.Errorf("%s: headline_says %q", id, s)
		}
	}
	// The count query's sentence states its baseline (1/100) and bound.
	if s, _ := value(evaluate.HeadlineSaysColumn, 0).(string); s != "an attacker who guesses right 1% of the time without the release guesses right at most 1.674% with it" {
		t.Errorf("count-query says %q", s)
	}
	// The Laplace query's: the worst case, in percentage points, an upper
	// bound rounded up (63.212… to 63.22).
	if s, _ := value(evaluate.HeadlineSaysColumn, 1).(string); s != "whatever an attacker knew before, the release raises their success rate by at most 63.22 percentage points" {
		t.Errorf("laplace-query says %q", s)
	}
	// The survey's: the ε that meets its target, without a baseline,
	// rounded down (0.10006… to 0.1: 0.1001 would not meet it).
	if s, _ := value(evaluate.HeadlineSaysColumn, 3).(string); s != "ε ≤ 0.1 keeps the advantage ≤ 0.05 whatever the baseline; the row's 0.5 does not" {
		t.Errorf("survey says %q", s)
	}
}

// The five-row workbook printed to PDF by LibreOffice takes at most 3
// pages (the Releases and Summary sheets; the Columns and Curves sheets
// print only when asked) and its text layer (pdftotext) holds no "###"
// (a number too wide for its cell, or LibreOffice's drawing of a folded
// column's number into the empty cell beside it). It took 14 pages, with
// "###" in three rows, before the reference sheets stopped printing and
// the folded numbers were distributed. No page is blank.
func TestFiveRowTemplatePrints(t *testing.T) {
	testenv.SkipUnlessLong(t, "prints a workbook to PDF with LibreOffice")
	python := testenv.Python(t, "openpyxl")
	pdftotext := testenv.LookPath(t, "pdftotext") // apt-get install poppler-utils
	out, _ := fiveRowWorkbook(t, python)
	dir := t.TempDir()
	testfiles.Convert(t, nil, "pdf", dir, out)
	pdf := filepath.Join(dir, strings.TrimSuffix(filepath.Base(out), ".xlsx")+".pdf")
	pages := pdfPages(t, pdftotext, pdf) // and none blank
	if pages == 0 || pages > 3 {
		t.Errorf("the workbook prints on %d pages, want 1 to 3", pages)
	}
	text, err := exec.Command(pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if n := strings.Count(string(text), "###"); n > 0 {
		t.Errorf("the printout shows ### %d times:\n%s", n, text)
	}
	for _, s := range []string{"count-query", "headline_says", "riskbatch summary"} {
		if !strings.Contains(string(text), s) {
			t.Errorf("the printout lacks %q", s)
		}
	}
	for _, s := range []string{"Columns: ", "Curves: "} { // the footers of those sheets' pages
		if strings.Contains(string(text), ".xlsx: "+strings.TrimSuffix(s, ": ")) {
			t.Errorf("the %s sheet prints", strings.TrimSuffix(s, ": "))
		}
	}
}

// A total of a Gaussian and a Laplace query shows what was composed: its
// mechanism is "composed", its stages are in extra_stages, and no
// mechanism's parameter is filled, nor "dpsgd" anywhere in its row (it
// read mechanism dpsgd, noise_multiplier 5, sample_rate 1 and steps 1:
// the form in which the composition is computed). Its bounds and
// headline are there.
func TestTotalShowsComposition(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "two.csv"), "id,dataset,mechanism,sigma,epsilon,mu,laplace_scale,noise_multiplier,sample_rate,steps,batch_size,dataset_size,epochs,extra_stages,compositions\n"+
		"count,d,gaussian,5,,,,,,,,,,,\n"+
		"sum,d,laplace,,2,,,,,,,,,,\n")
	out := filepath.Join(dir, "out.csv")
	mustRun(t, exitOK, "eval", in, "-o", out, "-q")
	header, rows := readAll(t, out)
	if len(rows) != 3 || rows[2][column(header, "status")] != "total" {
		t.Fatalf("rows %q", rows)
	}
	total := rows[2]
	if got := total[column(header, "mechanism")]; got != evaluate.MechanismComposed {
		t.Errorf("mechanism %q, want %q", got, evaluate.MechanismComposed)
	}
	if got := total[column(header, "extra_stages")]; got != "gaussian(5)x1; laplace(1, 2)x1" {
		t.Errorf("extra_stages %q", got)
	}
	for _, name := range []string{"sigma", "epsilon", "mu", "laplace_scale", "noise_multiplier", "sample_rate", "steps", "batch_size", "dataset_size", "epochs", "compositions"} {
		if v := total[column(header, name)]; v != "" {
			t.Errorf("the total's %s is %q, want empty", name, v)
		}
	}
	for j, v := range total {
		if strings.Contains(strings.ToLower(v), "dpsgd") {
			t.Errorf("the total's %s reads %q", header[j], v)
		}
	}
	for _, name := range []string{"fdp_worst_advantage", evaluate.HeadlineColumn, evaluate.HeadlineSaysColumn} {
		if total[column(header, name)] == "" {
			t.Errorf("the total has no %s (message %q)", name, total[column(header, "message")])
		}
	}
}
