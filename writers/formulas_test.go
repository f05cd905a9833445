package writers

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// doubler puts the formula [@epsilon]*2 (B{row}*2 on the sheet) on every
// fdp_success cell (column H) of the sample and describes the column; its
// formula for mu (column I) names a column the header does not have.
type doubler struct{ calls int }

func (d *doubler) Formulas(cells []table.Cell, formulas []string) {
	d.calls++
	for i := range formulas {
		formulas[i] = ""
	}
	formulas[7] = "[@epsilon]*2"
	formulas[8] = "[@fdp_success]+[@delta]"
	formulas[1] = "1+1" // epsilon holds text on one row: no formula there
}

func (d *doubler) Describe(col int) string {
	if col == 7 {
		return "In the workbook: twice epsilon."
	}
	return ""
}

// Formula cells hold the formula and the row's value as its cached result,
// only where the row has a number, on every sheet of a long table; the
// header note adds the source's description and names the Columns row.
func TestXLSXFormulas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.xlsx")
	cols := sampleCols()
	rows := manyRows(8)
	src := &doubler{}
	writeSheets(t, path, Options{Docs: sampleDocs(), Formulas: src}, 4, cols, rows) // header + 3 rows a sheet
	if src.calls != len(rows) {
		t.Errorf("Formulas called %d times for %d rows", src.calls, len(rows))
	}
	f := testfiles.OpenXLSX(t, path)
	for i, row := range rows {
		sheet := []string{"Results", "Results (2)", "Results (3)"}[i/3]
		r := i%3 + 2
		checkXLSXCell(t, f, sheet, cellRef(7, r), row[7])
		formula, err := f.GetCellFormula(sheet, cellRef(7, r))
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if row[7].Kind == table.Number {
			want = "B" + strconv.Itoa(r) + "*2"
		}
		if formula != want {
			t.Errorf("%s!H%d formula %q, want %q", sheet, r, formula, want)
		}
		if formula, _ := f.GetCellFormula(sheet, cellRef(8, r)); formula != "" {
			t.Errorf("%s!I%d formula %q names a column the header does not have", sheet, r, formula)
		}
		if formula, _ := f.GetCellFormula(sheet, cellRef(1, r)); formula != "" && row[1].Kind != table.Number {
			t.Errorf("%s!B%d: formula %q on a cell that is not a number", sheet, r, formula)
		}
	}
	if _, notes := sheetNotes(t, f, "Results"); !strings.Contains(notes["H1"], fdpNote+"\nIn the workbook: twice epsilon.\nSee the Columns sheet, row 2.") {
		t.Errorf("H1 note %q", notes["H1"])
	}
}

// A formula's names bind to the header's columns on the sheet row given:
// names as the header spells them, escaped or not; a name the header does
// not have, or has twice, leaves no formula; so does a formula too long for
// a spreadsheet once bound.
func TestRowCellsFormula(t *testing.T) {
	r := newRowCells([]table.Column{
		{Name: "id"}, {Name: "my [x] #'s"}, {Name: "epsilon"}, {Name: "note"}, {Name: "note"}, {Name: "Epsilon"},
	})
	for _, c := range []struct {
		formula, row, want string
		ok                 bool
	}{
		{"[@[my '[x'] '#''s]]+[@epsilon]", "2", "B2+C2", true},
		{"EXP([@epsilon])/[@Epsilon]", "7", "EXP(C7)/F7", true},
		{"[@epsilon]*2", "1048576", "C1048576*2", true}, // the last row of a sheet
		{"[@epsilon]*2", "2", "C2*2", true},             // the first of the next
		{"NORMSDIST(1)", "9", "NORMSDIST(1)", true},
		{"[@delta]+1", "2", "", false},      // absent
		{"[@note]", "2", "", false},         // two columns
		{"[@EPSILON]", "2", "", false},      // names compare exactly
		{"[@[my [x] #'s]]", "2", "", false}, // unescaped
		{"1+[@epsilon", "2", "", false},     // malformed
		{"[@epsilon]" + strings.Repeat("+1", maxFormulaChars/2), "2", "", false},
	} {
		got, ok := r.formula(c.formula, c.row)
		if got != c.want || ok != c.ok {
			t.Errorf("formula(%q, %s) = %q, %v; want %q, %v", c.formula, c.row, got, ok, c.want, c.ok)
		}
	}
}

// Text cells of number columns that hold plain decimal numbers are written
// as numbers; anything else stays text.
func TestXLSXNumberColumns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "numbers.xlsx")
	cols := []table.Column{{Name: "id"}, {Name: "epsilon"}}
	rows := [][]table.Cell{
		{text("007"), text("0.05")},
		{text("42"), text(" 1e-05 ")},
		{text("x"), text("5%")},
		{text("y"), text("1,000")},
		{text("z"), num(2)},
	}
	writeTable(t, path, Options{NumberColumns: []int{1}}, cols, rows)
	f := testfiles.OpenXLSX(t, path)
	want := [][]table.Cell{
		{text("007"), num(0.05)},
		{text("42"), num(1e-5)},
		{text("x"), text("5%")},
		{text("y"), text("1,000")},
		{text("z"), num(2)},
	}
	checkDataRows(t, f, DefaultSheetName, want)
	if err := headerError(t, filepath.Join(dir, "bad.xlsx"), Options{NumberColumns: []int{5}}, cols); err == nil {
		t.Error("a number column outside the header is accepted")
	}
}

// Shaded columns carry three conditional formats, red, amber and green,
// against the row's limit column, else the fixed limit, else the scale,
// over the data rows of every sheet.
func TestXLSXShading(t *testing.T) {
	dir := t.TempDir()
	cols := sampleCols()
	rows := sampleRows()
	for _, c := range []struct {
		shading Shading
		want    []string // the criteria of red and amber, after ISNUMBER(H2)
	}{
		{Shading{Columns: []int{7}, LimitColumn: 1, Limit: 0.1},
			[]string{"IF(ISNUMBER($B2),H2>$B2,H2>0.1)", "IF(ISNUMBER($B2),H2>$B2/2,H2>0.1/2)"}},
		{Shading{Columns: []int{7}, LimitColumn: 1, Scale: DefaultScale},
			[]string{"IF(ISNUMBER($B2),H2>$B2,H2>0.2)", "IF(ISNUMBER($B2),H2>$B2/2,H2>=0.05)"}},
		{Shading{Columns: []int{7}, LimitColumn: 1, Limit: 0.1, Scale: DefaultScale}, // the limit before the scale
			[]string{"IF(ISNUMBER($B2),H2>$B2,H2>0.1)", "IF(ISNUMBER($B2),H2>$B2/2,H2>0.1/2)"}},
		{Shading{Columns: []int{7}, LimitColumn: -1, Scale: DefaultScale},
			[]string{"H2>0.2", "H2>=0.05"}},
		{Shading{Columns: []int{7}, LimitColumn: 1},
			[]string{"ISNUMBER($B2),H2>$B2)", "ISNUMBER($B2),H2>$B2/2)"}},
	} {
		path := filepath.Join(dir, "shaded.xlsx")
		sh := c.shading
		writeTable(t, path, Options{Shading: &sh}, cols, rows)
		f := testfiles.OpenXLSX(t, path)
		formats, err := f.GetConditionalFormats("Results")
		if err != nil {
			t.Fatal(err)
		}
		rules := formats["H2:H7"]
		if len(rules) != 3 {
			t.Fatalf("%+v: conditional formats %v, want three on H2:H7", c.shading, formats)
		}
		for i, r := range rules {
			want := "AND(ISNUMBER(H2)"
			if i < 2 {
				want += "," + c.want[i]
			}
			if !strings.HasPrefix(r.Criteria, want) || r.Format == nil {
				t.Errorf("%+v: rule %d: %q, want it to start %q", c.shading, i, r.Criteria, want)
			}
			if r.StopIfTrue != (i < 2) {
				t.Errorf("rule %d stops %v", i, r.StopIfTrue)
			}
		}
	}
	path := filepath.Join(dir, "shaded.xlsx")
	writeTable(t, path, Options{Shading: &Shading{Columns: []int{7}, LimitColumn: 1, Limit: 0.1}}, cols, rows)
	f := testfiles.OpenXLSX(t, path)
	formats, err := f.GetConditionalFormats("Results")
	if err != nil {
		t.Fatal(err)
	}
	rules := formats["H2:H7"]
	fills := []string{shadeRedFill, shadeAmberFill, shadeGreenFill}
	for i, r := range rules {
		s, err := f.GetConditionalStyle(*r.Format)
		if err != nil {
			t.Fatal(err)
		}
		if got := fillOf(s); got != fills[i] {
			t.Errorf("rule %d fill %q, want %q", i, got, fills[i])
		}
	}
	if err := headerError(t, filepath.Join(dir, "bad.xlsx"), Options{Shading: &Shading{Columns: []int{99}, LimitColumn: -1, Limit: 0.1}}, cols); err == nil {
		t.Error("a shaded column outside the header is accepted")
	}
}

// The Summary sheet carries one chart per plot; the Curves sheet holds the
// curves' data, which the charts' series refer to.
func TestXLSXCharts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "charts.xlsx")
	x := []float64{0, 0.25, 0.5, 0.75, 1}
	charts := &Charts{
		XTitle: "b", YTitle: "bound", X: x,
		Curves: []Curve{{Name: "diagonal", Y: x, Reference: true}, {Name: "a", Y: []float64{0.1, 0.5, 0.7, 0.9, 1}}, {Name: "b", Y: []float64{0, 0.3, 0.6, 0.8, 1}}},
		Plots:  []Plot{{Title: "first", Curves: []int{0, 1}}, {Title: "second", Curves: []int{0, 2}}},
	}
	opts := Options{
		Docs:    sampleDocs(),
		Summary: func() [][]string { return [][]string{{"riskbatch summary"}, {"rows", "6"}} },
		Charts:  func() *Charts { return charts },
	}
	writeTable(t, path, opts, sampleCols(), sampleRows())
	f := testfiles.OpenXLSX(t, path)
	want := []string{DefaultSheetName, SummarySheetName, DocsSheetName, CurvesSheetName}
	if got := f.GetSheetList(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	data, err := f.GetRows(CurvesSheetName, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(data[0], "|") != "b|diagonal|a|b" || len(data) != len(x)+1 {
		t.Fatalf("Curves sheet %v", data)
	}
	for i := range x {
		for j, c := range []Curve{{Y: x}, charts.Curves[0], charts.Curves[1], charts.Curves[2]} {
			if v, err := strconv.ParseFloat(data[i+1][j], 64); err != nil || v != c.Y[i] {
				t.Errorf("Curves row %d column %d = %q, want %v", i+2, j, data[i+1][j], c.Y[i])
			}
		}
	}
	parts := sheetXML(t, path)
	for i, p := range charts.Plots {
		xml := parts["xl/charts/chart"+strconv.Itoa(i+1)+".xml"]
		col := string(rune('A' + p.Curves[1] + 1))
		if !strings.Contains(xml, p.Title) || !strings.Contains(xml, "Curves!$A$2:$A$6") || !strings.Contains(xml, "Curves!$"+col+"$2:$"+col+"$6") {
			t.Errorf("chart %d does not show %q from column %s: %.300s", i+1, p.Title, col, xml)
		}
	}
	if !strings.Contains(parts["xl/worksheets/_rels/sheet2.xml.rels"], "drawing") {
		t.Errorf("the Summary sheet has no drawing: %v", parts["xl/worksheets/_rels/sheet2.xml.rels"])
	}
}
