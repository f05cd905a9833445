package writers

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/xuri/excelize/v2"
)

// The Summary sheet is readable as rendered: its fractions are shown in the
// data sheet's probability format (four significant digits, scientific
// below 0.01) rather than with General's 15 digits, its counts as integers; it prints
// one page wide; and the charts' tick labels are dark grey, not excelize's default of text 85%
// lighter (D9D9D9), which LibreOffice draws barely visible on white.
func TestXLSXSummaryReadable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.xlsx")
	x := []float64{0, 0.5, 1}
	charts := &Charts{
		XTitle: "b", YTitle: "bound", X: x,
		Curves: []Curve{{Name: "diagonal", Y: x, Reference: true}, {Name: "a", Y: []float64{0.2, 0.7, 1}}},
		Plots:  []Plot{{Title: "first", Curves: []int{0, 1}}},
	}
	opts := Options{
		Summary: func() [][]string {
			return [][]string{
				{"riskbatch summary", ""},
				{"rows", "27"},
				{"rank", "id", "row", "fdp_worst_advantage", "fdp_success"},
				{"1", "canary", "10", "0.999909204262596", "2.20264657948067e-05"},
				{"0.5"}, // a line of text that parses as a number keeps the line style
			}
		},
		Charts: func() *Charts { return charts },
	}
	writeTable(t, path, opts, sampleCols(), sampleRows())
	f := testfiles.OpenXLSX(t, path)
	// Raw values (excelize's own rendering of a conditional number format
	// is not what spreadsheets show; LibreOffice shows 0.9999 and
	// 2.203E-05, as on the data sheet).
	for cell, want := range map[string]float64{
		"B2": 27, "A4": 1, "C4": 10,
		"D4": 0.999909204262596, "E4": 2.20264657948067e-05,
	} {
		got, err := f.GetCellValue(SummarySheetName, cell, excelize.Options{RawCellValue: true})
		if v, perr := strconv.ParseFloat(got, 64); err != nil || perr != nil || v != want {
			t.Errorf("Summary %s holds %q (%v), want the number %v", cell, got, err, want)
		}
	}
	for _, cell := range []string{"D4", "E4"} {
		id, err := f.GetCellStyle(SummarySheetName, cell)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil || st.CustomNumFmt == nil || *st.CustomNumFmt != ProbabilityNumFmt {
			t.Errorf("Summary %s number format %v (%v), want %q", cell, st, err, ProbabilityNumFmt)
		}
	}
	if id, _ := f.GetCellStyle(SummarySheetName, "A5"); id != 0 {
		if st, _ := f.GetStyle(id); st != nil && st.CustomNumFmt != nil {
			t.Errorf("the one-cell line A5 has number format %q", *st.CustomNumFmt)
		}
	}

	chart := string(testfiles.ZipPart(t, path, "xl/charts/chart1.xml"))
	summary := string(testfiles.ZipPart(t, path, "xl/worksheets/sheet2.xml"))
	// Printed or exported to PDF, the Summary fits one landscape page wide
	// (at the default scale its charts fall across page edges).
	for _, want := range []string{`<pageSetUpPr fitToPage="true">`, `fitToHeight="0"`, `fitToWidth="1"`, `orientation="landscape"`, `<drawing`} {
		if !strings.Contains(summary, want) {
			t.Errorf("Summary sheet lacks %s", want)
		}
	}
	if n := strings.Count(chart, `<a:srgbClr val="`+axisTextColor+`">`); n < 2 {
		t.Errorf("chart tick labels: %d axes coloured %s, want 2: %.400s", n, axisTextColor, chart)
	}
	// The tick labels (sz 900) are no longer the pale theme text.
	pale := `sz="900" u="none"><a:solidFill><a:schemeClr val="tx1"><a:lumMod val="15000">`
	if strings.Contains(chart, pale) {
		t.Error("chart tick labels still use the pale default colour")
	}
}
