package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/internal/benchinput"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/samples"
	"github.com/riskbatch/riskbatch/writers"
)

// The sample's data sheet opens on what the analyst typed and what to
// quote: every input column a row fills, status, message, the headline
// and the answer columns (evaluate.Questions) that have a value; every
// other column is folded into a collapsed outline group, its cells kept.
// Its Summary's ranks stand in their own column and its chart titles show
// the bounds with 4 significant digits.
func TestWorkbookHeadlineColumns(t *testing.T) {
	out := sampleWorkbook(t)
	f := testfiles.OpenXLSX(t, out)
	rows := sheetRows(t, f, "Releases")
	var open, want []string
	status := column(rows[0], "status")
	answers := map[string]bool{}
	for _, q := range evaluate.Questions() {
		for _, a := range q.Answers {
			answers[a] = true
		}
	}
	for i, name := range rows[0] {
		visible, err := f.GetColVisible("Releases", columnName(i))
		if err != nil {
			t.Fatal(err)
		}
		if visible {
			open = append(open, name)
		}
		filled := false
		for _, r := range rows[1:] {
			filled = filled || i < len(r) && r[i] != ""
		}
		if filled && (i < status+evaluate.HeadWidth || answers[name]) {
			want = append(want, name)
		}
	}
	if got, want := strings.Join(open, " "), strings.Join(want, " "); got != want {
		t.Errorf("open columns:\n%s\nwant\n%s", got, want)
	}
	// A folded column keeps its values: sigma of count-query.
	if got := rows[2][column(rows[0], "sigma")]; got != "10" {
		t.Errorf("count-query sigma %q", got)
	}

	sum := sheetRows(t, f, writers.SummarySheetName)
	var first []string
	for i, r := range sum {
		if len(r) > 0 && r[0] == "rank" {
			first = sum[i+1]
		}
	}
	if len(first) < 2 || first[0] != "#1" || first[1] != "canary-9-digit" {
		t.Errorf("first ranked release %q, want #1 canary-9-digit in columns of their own", first)
	}
	chart := string(testfiles.ZipPart(t, out, "xl/charts/chart1.xml"))
	// The bound 0.999909… rounded up to 4 digits would be 1, which a
	// bound below 1 never shows: 5 digits, 0.99991.
	if !strings.Contains(chart, "#1 canary-9-digit: fdp_worst_advantage 0.99991<") {
		_, title, _ := strings.Cut(chart, "<c:title>")
		t.Errorf("first chart's title: %.300s", title)
	}
}

// columnName is excelize's name of the 0-based column i.
func columnName(i int) string {
	name, _ := excelize.ColumnNumberToName(i + 1)
	return name
}

// The live formulas of the built-in sample compute in Gnumeric, a second
// spreadsheet besides LibreOffice, the values riskbatch cached in them,
// and no cell shows an error value (the sample had 25 #NAME? when its
// formulas called NORM.S.DIST, which Gnumeric does not know). The 1000
// random releases of TestLiveFormulasRecalculate are recalculated by
// Gnumeric too.
func TestLiveFormulasInGnumeric(t *testing.T) {
	// Gnumeric runs while the other tests do.
	t.Parallel()
	ssconvert := testenv.LookPath(t, "ssconvert") // apt-get install gnumeric
	_, sample := samples.Releases()
	rows := len(sample) + 1 // and the total of the sample's dataset
	// 210 formula cells when this was written; at least 5 a row.
	if n := checkGnumeric(t, ssconvert, sampleWorkbook(t), "Releases", rows); n < 5*rows {
		t.Errorf("only %d formula cells over %d rows", n, rows)
	}
}

// pdfPage matches a page object of a PDF (not the /Pages tree).
var pdfPage = regexp.MustCompile(`/Type\s*/Page\b[^s]`)

// pageFooter matches the footer of a printed page in pdftotext's text:
// the workbook and the sheet, then the page number (writers.printSetup).
var pageFooter = regexp.MustCompile(`(?m)^.*\.xlsx: .*page \d+ of \d+\s*$`)

// The data sheet of a workbook exported to PDF by LibreOffice takes at
// most 3 pages per 50 rows: it prints one landscape page wide, its folded
// columns left out (before, the sample's took 24 pages at 100% in
// portrait). Checked on the sample and on 300 rows of a sweep over
// closed-form releases (few columns, printed near full size: the most
// pages a row takes), with the other sheets removed so that only the data
// sheet is counted. The sample's whole workbook prints on at most 3 pages
// (its data sheet on one, the Summary on two), none of them blank: its
// data sheet, 51 unfolded columns, printed fit to width at 6% on one page
// and a blank second (LibreOffice's fit to width stops short of the 11%
// it needs, see writers.printScale).
func TestWorkbookPrintsCompactly(t *testing.T) {
	testenv.SkipUnlessLong(t, "exports workbooks to PDF with LibreOffice")
	pdftotext := testenv.LookPath(t, "pdftotext") // apt-get install poppler-utils
	dir := t.TempDir()
	const sweepRows = 300
	in := filepath.Join(dir, "sweep.csv")
	if err := benchinput.WriteCSV(in, benchinput.ClosedForm(), sweepRows); err != nil {
		t.Fatal(err)
	}
	sweep := filepath.Join(dir, "sweep.xlsx")
	if code, stderr := riskbatch(t, "eval", in, "-o", sweep, "-q"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, sample := samples.Releases()
	books := []struct {
		path string
		rows int
	}{{sampleWorkbook(t), len(sample) + 1}, {sweep, sweepRows}} // the sample and the total of its dataset
	pdfDir := filepath.Join(dir, "pdf")
	var only []string
	for _, book := range books {
		f := testfiles.OpenXLSX(t, book.path)
		for _, s := range []string{writers.SummarySheetName, writers.DocsSheetName, writers.CurvesSheetName} {
			if err := f.DeleteSheet(s); err != nil {
				t.Fatal(err)
			}
		}
		name := filepath.Join(dir, "data-"+filepath.Base(book.path))
		if err := f.SaveAs(name); err != nil {
			t.Fatal(err)
		}
		only = append(only, name)
	}
	// one LibreOffice for the three files
	testfiles.Convert(t, nil, "pdf", pdfDir, append(only, books[0].path)...)
	for i, book := range books {
		pages := pdfPages(t, pdftotext, filepath.Join(pdfDir, strings.TrimSuffix(filepath.Base(only[i]), ".xlsx")+".pdf"))
		limit := 3 * ((book.rows + 49) / 50)
		t.Logf("%s: %d rows, %d pages", filepath.Base(book.path), book.rows, pages)
		if pages == 0 || pages > limit {
			t.Errorf("%s: %d data rows print on %d pages, want 1 to %d", filepath.Base(book.path), book.rows, pages, limit)
		}
	}
	whole := filepath.Base(books[0].path)
	pages := pdfPages(t, pdftotext, filepath.Join(pdfDir, strings.TrimSuffix(whole, ".xlsx")+".pdf"))
	t.Logf("%s: the workbook prints on %d pages", whole, pages)
	if pages == 0 || pages > 3 {
		t.Errorf("%s: the workbook prints on %d pages, want 1 to 3", whole, pages)
	}
}

// pdfPages returns the number of pages of a PDF, and fails the test where
// one of them holds no text (pdftotext) but its footer: a blank page.
func pdfPages(t *testing.T, pdftotext, pdf string) int {
	t.Helper()
	data, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatalf("LibreOffice wrote no PDF: %v", err)
	}
	pages := len(pdfPage.FindAll(data, -1))
	text, err := exec.Command(pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	// pdftotext ends every page with a form feed.
	texts := strings.Split(string(text), "\f")
	if n := len(texts) - 1; n != pages {
		t.Errorf("%s: pdftotext reads %d pages, the PDF has %d", filepath.Base(pdf), n, pages)
	}
	for i, page := range texts[:len(texts)-1] {
		if strings.TrimSpace(pageFooter.ReplaceAllString(page, "")) == "" {
			t.Errorf("%s: page %d of %d is blank", filepath.Base(pdf), i+1, pages)
		}
	}
	return pages
}
