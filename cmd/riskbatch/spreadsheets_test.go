package main

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// The spreadsheet programs some tests open riskbatch's workbooks in:
// LibreOffice and Gnumeric.

// spreadsheetError matches the error values a spreadsheet shows in a cell.
var spreadsheetError = regexp.MustCompile(`^#(NAME\?|VALUE!|NUM!|DIV/0!|REF!|N/A|NULL!)`)

// gnumericRecalc recalculates every formula of a workbook's sheet with
// Gnumeric and returns the sheet's values, unformatted, as CSV records.
func gnumericRecalc(t *testing.T, ssconvert, path, sheet string) [][]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "recalc.csv")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, ssconvert, "--recalc", "-T", "Gnumeric_stf:stf_assistant",
		"-O", "sheet='"+sheet+"' format=raw separator=, quoting-mode=auto eol=unix", path, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssconvert --recalc %s: %v\n%s", path, err, msg)
	}
	return readback.ReadCSV(t, out, 0)
}

// checkGnumeric recalculates a workbook's data sheet of `rows` rows in
// Gnumeric and checks that every formula cell computes the value riskbatch
// cached in it, to 1e-9 as in TestLiveFormulasRecalculate, and that no
// cell shows an error value such as #NAME?. It returns the number of
// formula cells.
func checkGnumeric(t *testing.T, ssconvert, path, sheet string, rows int) int {
	t.Helper()
	cells := readFormulaCells(t, path)
	recs := gnumericRecalc(t, ssconvert, path, sheet)
	if len(recs) != rows+1 {
		t.Fatalf("%s: Gnumeric sees %d rows, want %d", path, len(recs), rows+1)
	}
	header := recs[0]
	for r, rec := range recs {
		for j, v := range rec {
			if spreadsheetError.MatchString(v) {
				t.Errorf("%s: Gnumeric shows %s in row %d %s", filepath.Base(path), v, r+1, header[j])
			}
		}
	}
	var maxDiff float64
	for _, fc := range cells {
		got := recs[fc.row][fc.col]
		v, err := strconv.ParseFloat(got, 64)
		d := math.Abs(v - fc.cached)
		if err != nil || !(d <= 1e-9) {
			t.Errorf("%s row %d %s: Gnumeric computes %q for =%s, riskbatch %v", filepath.Base(path), fc.row+1, header[fc.col], got, fc.formula, fc.cached)
			continue
		}
		maxDiff = max(maxDiff, d)
	}
	t.Logf("%s: %d formula cells recalculated by Gnumeric; largest difference %.3g", filepath.Base(path), len(cells), maxDiff)
	return len(cells)
}
