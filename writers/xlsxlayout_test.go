package writers

import (
	"archive/zip"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// A Real output value is shown with 4 significant digits (the values are
// those of the sample's ε, σ and log10 columns), tiny and huge ones in
// scientific notation, 0 as 0.
func TestRealNumFmt(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.1001, "0.0000"}, {1.835, "0.000"}, {17.78, "0.00"}, {54.06, "0.00"}, {123.4, "0.0"},
		{5406, "0"}, {999999, "0"}, {1e6, realSciNumFmt}, {2.2e-5, realSciNumFmt},
		{0.001, "0.000000"}, {0.000999, realSciNumFmt}, {0.0455, "0.00000"},
		{-1.1308, "0.000"}, {-13.3, "0.00"}, {0, "0"},
	} {
		if got := realNumFmt(realDecimals(c.x)); got != c.want {
			t.Errorf("%v: format %q, want %q", c.x, got, c.want)
		}
	}
	for x, want := range map[float64]int{1.835: 5, 17.78: 5, 2.2e-5: len("-0.000E-00"), 5406: 4} {
		if got := realWidth(x); got != want {
			t.Errorf("realWidth(%v) = %d, want %d", x, got, want)
		}
	}
}

// readZip returns the entries of the zip archive at path, in order.
func readZip(t *testing.T, path string) []testfiles.ZipEntry {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	return testfiles.ZipEntries(t, path, &zr.Reader)
}

// sheetXML returns the XML of the archive's parts by name.
func sheetXML(t *testing.T, path string) map[string]string {
	t.Helper()
	parts := map[string]string{}
	for _, e := range readZip(t, path) {
		parts[e.Name] = string(e.Data)
	}
	return parts
}

// Every data sheet prints in landscape, one page wide at the scale of its
// columns (printScale) and as many pages tall as it needs, with narrow
// margins, a footer and its header row on every page; the Summary (without
// repeating its title row) is fit to one page wide, and the Columns sheet
// to two.
func TestXLSXPrintSetup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "print.xlsx")
	writeSheets(t, path, Options{SheetName: "Q3's releases", Docs: sampleDocs(), Summary: func() [][]string { return [][]string{{"riskbatch summary", ""}, {"rows", "6"}} }}, 4, sampleCols(), sampleRows()) // two sheets of data
	f := testfiles.OpenXLSX(t, path)
	wantSheets := []string{"Q3's releases", "Q3's releases (2)", SummarySheetName, DocsSheetName}
	if got := f.GetSheetList(); strings.Join(got, "|") != strings.Join(wantSheets, "|") {
		t.Fatalf("sheets %q", got)
	}
	titles := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm.Print_Titles" {
			titles[dn.Scope] = dn.RefersTo
		}
	}
	for sheet, want := range map[string]string{
		wantSheets[0]: `'Q3''s releases'!$1:$1`, wantSheets[1]: `'Q3''s releases (2)'!$1:$1`, DocsSheetName: `'Columns'!$1:$1`,
	} {
		if titles[sheet] != want {
			t.Errorf("%s print titles %q, want %q", sheet, titles[sheet], want)
		}
	}
	if _, ok := titles[SummarySheetName]; ok || len(titles) != 3 {
		t.Errorf("print titles %v: want three, none on the Summary", titles)
	}
	for i, sheet := range wantSheets {
		layout, err := f.GetPageLayout(sheet)
		if err != nil {
			t.Fatal(err)
		}
		props, err := f.GetSheetProps(sheet)
		if err != nil {
			t.Fatal(err)
		}
		fit := props.FitToPage != nil && *props.FitToPage
		if layout.Orientation == nil || *layout.Orientation != "landscape" {
			t.Errorf("%s orientation %v, want landscape", sheet, layout.Orientation)
		}
		if i < 2 { // a data sheet: scaled, not fit
			var widths []float64
			for c := range sampleCols() {
				w, err := f.GetColWidth(sheet, table.ColumnLetter(c))
				if err != nil {
					t.Fatal(err)
				}
				widths = append(widths, w)
			}
			want := printScale(widths, nil)
			if fit || layout.AdjustTo == nil || *layout.AdjustTo != want {
				t.Errorf("%s: fit to page %v, scale %v, want not fit, scale %d", sheet, fit, layout.AdjustTo, want)
			}
		} else {
			wide := 1
			if sheet == DocsSheetName {
				wide = docsPagesWide
			}
			if !fit || layout.FitToWidth == nil || *layout.FitToWidth != wide || layout.FitToHeight == nil || *layout.FitToHeight != 0 {
				t.Errorf("%s: fit to page %v, layout %+v: want fit %d wide, automatic height", sheet, fit, layout, wide)
			}
		}
		margins, err := f.GetPageMargins(sheet)
		if err != nil || margins.Left == nil || *margins.Left != marginSide || margins.Top == nil || *margins.Top != marginTop {
			t.Errorf("%s margins %+v (%v)", sheet, margins, err)
		}
		hf, err := f.GetHeaderFooter(sheet)
		if err != nil || hf.OddFooter != pageFooter {
			t.Errorf("%s footer %+v (%v)", sheet, hf, err)
		}
	}
}

// A data sheet's scale fits its unfolded columns on the printable width at
// printCharPoints a character, the most that does: the sample's 51
// unfolded columns, 891 characters wide (6237 pt at 7 pt a character, on
// 734.4 pt: 11.77%), print at 11%, where LibreOffice without Calibri or
// Carlito prints them on one page (at 12% on two: checked with soffice
// --convert-to pdf). Folded columns do not count; the scale stays within
// 10% and 100%.
func TestPrintScale(t *testing.T) {
	printable := (pageWidth - 2*marginSide) * 72
	fits := func(widths []float64, fold []bool, scale uint) bool {
		chars := 0.0
		for i, w := range widths {
			if fold == nil || !fold[i] {
				chars += w
			}
		}
		return chars*printCharPoints*float64(scale)/100 <= printable
	}
	sample := []float64{600, 291} // 891 characters in all
	for _, c := range []struct {
		name   string
		widths []float64
		fold   []bool
		want   uint
	}{
		{"the sample's unfolded columns", sample, nil, 11},
		{"and 986 characters folded", []float64{600, 986, 291}, []bool{false, true, false}, 11},
		{"narrow", []float64{10, 24, 13}, nil, 100},
		{"everything folded", []float64{10}, []bool{true}, 100},
		{"no columns", nil, nil, 100},
		{"wider than a page at 10%", []float64{2000}, nil, 10},
	} {
		got := printScale(c.widths, c.fold)
		if got != c.want {
			t.Errorf("%s: printScale = %d, want %d", c.name, got, c.want)
		}
		if got > minPrintScale && !fits(c.widths, c.fold, got) {
			t.Errorf("%s: the columns do not fit at %d%%", c.name, got)
		}
		if got < maxPrintScale && fits(c.widths, c.fold, got+1) {
			t.Errorf("%s: the columns fit at %d%% too", c.name, got+1)
		}
	}
}

// colAttrs reads the <col> elements of a worksheet's XML: by column
// number, its attributes.
func colAttrs(t *testing.T, xml string) (map[int]map[string]string, []int) {
	t.Helper()
	col := regexp.MustCompile(`<col ([^>]*)/>`)
	attr := regexp.MustCompile(`(\w+)="([^"]*)"`)
	out := map[int]map[string]string{}
	var order []int
	for _, m := range col.FindAllStringSubmatch(xml, -1) {
		a := map[string]string{}
		for _, kv := range attr.FindAllStringSubmatch(m[1], -1) {
			a[kv[1]] = kv[2]
		}
		n, err := strconv.Atoi(a["min"])
		if err != nil || a["max"] != a["min"] {
			t.Fatalf("col element %s", m[0])
		}
		out[n] = a
		order = append(order, n)
	}
	return out, order
}

// Outline folds the columns it names, the empty ones and the sparse
// inputs into collapsed groups: hidden, outline level 1, the column after
// each run marked collapsed, the sheet declaring its outline level; the
// other columns stay open with their widths, and the cells keep their
// values.
func TestXLSXOutline(t *testing.T) {
	cols := []table.Column{
		{Name: "id"}, {Name: "epsilon"}, {Name: "sigma"}, {Name: "unused"}, // A-D inputs
		{Name: "status", Role: table.Status}, {Name: "message", Role: table.Message}, // E, F
		{Name: "fdp_success", Role: table.Output, Format: table.Probability},        // G: headline
		{Name: "fdp_norm_advantage", Role: table.Output, Format: table.Probability}, // H: folded
		{Name: "rero_eps", Role: table.Output, Format: table.Probability},           // I: folded
		{Name: "adp_advantage", Role: table.Output, Format: table.Probability},      // J: headline, empty
		{Name: "gb_mia_yeom", Role: table.Output, Format: table.Probability},        // K: folded, last
	}
	rows := [][]table.Cell{
		{text("a"), num(1), empty(), empty(), text("ok"), empty(), num(0.5), num(0.2), num(0.1), empty(), num(0.3)},
		{text("b"), num(2), num(10), empty(), text("ok"), empty(), num(0.6), empty(), empty(), empty(), empty()},
		{text("c"), empty(), empty(), empty(), text("error"), text("epsilon: missing"), empty(), empty(), empty(), empty(), empty()},
	}
	path := filepath.Join(t.TempDir(), "outline.xlsx")
	writeTable(t, path, Options{Outline: &Outline{Columns: []int{7, 8, 10}, Empty: true, SparseInputs: true}}, cols, rows)
	sheet := sheetXML(t, path)["xl/worksheets/sheet1.xml"]
	attrs, order := colAttrs(t, sheet)
	// C: sigma, filled on 1 row of 3; D: empty; J: empty.
	folded := map[int]bool{3: true, 4: true, 8: true, 9: true, 10: true, 11: true}
	collapsed := map[int]bool{5: true, 12: true} // right of C:D and of H:K
	for n := 1; n <= len(cols)+1; n++ {
		a := attrs[n]
		if n <= len(cols) && a == nil {
			t.Errorf("column %d has no col element", n)
			continue
		}
		if hidden := a["hidden"] == "1" && a["outlineLevel"] == "1"; hidden != folded[n] {
			t.Errorf("column %d (%s): %v, want folded %v", n, table.ColumnLetter(n-1), a, folded[n])
		}
		if (a["collapsed"] == "1") != collapsed[n] {
			t.Errorf("column %d: %v, want collapsed %v", n, a, collapsed[n])
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i] <= order[i-1] {
			t.Errorf("col elements out of order: %v", order)
		}
	}
	if !strings.Contains(sheet, `<sheetFormatPr outlineLevelCol="1"`) {
		t.Errorf("sheetFormatPr does not declare the outline level: %.300s", sheet[strings.Index(sheet, "<sheetFormatPr"):])
	}
	f := testfiles.OpenXLSX(t, path)
	for n := 1; n <= len(cols); n++ {
		letter := table.ColumnLetter(n - 1)
		visible, err := f.GetColVisible(DefaultSheetName, letter)
		if err != nil || visible == folded[n] {
			t.Errorf("excelize: column %s visible %v (%v), want %v", letter, visible, err, !folded[n])
		}
		width, _ := f.GetColWidth(DefaultSheetName, letter)
		if width < minColWidth {
			t.Errorf("column %s width %g", letter, width)
		}
	}
	checkDataRows(t, f, DefaultSheetName, rows)

	// No outline: nothing folded; an outline naming a column beyond the
	// header is refused.
	plain := filepath.Join(t.TempDir(), "plain.xlsx")
	writeTable(t, plain, Options{}, cols, rows)
	if s := sheetXML(t, plain)["xl/worksheets/sheet1.xml"]; strings.Contains(s, "hidden=") || strings.Contains(s, "outlineLevel") {
		t.Errorf("columns folded without an outline")
	}
	if err := headerError(t, filepath.Join(t.TempDir(), "bad.xlsx"), Options{Outline: &Outline{Columns: []int{len(cols)}}}, cols); err == nil || !strings.Contains(err.Error(), "folded column 11") {
		t.Errorf("an outline beyond the header: %v", err)
	}
}

// A sheet without data rows folds only the columns the outline names, and
// an outline that would fold every column folds none.
func TestXLSXOutlineNeverFoldsAll(t *testing.T) {
	cols := []table.Column{{Name: "a"}, {Name: "b"}}
	for name, c := range map[string]struct {
		opts Outline
		rows [][]table.Cell
		want []string // hidden columns
	}{
		"header only":   {Outline{Columns: []int{1}, Empty: true, SparseInputs: true}, nil, []string{"B"}},
		"all named":     {Outline{Columns: []int{0, 1}}, [][]table.Cell{{num(1), num(2)}}, nil},
		"all empty":     {Outline{Empty: true}, [][]table.Cell{{empty(), empty()}}, nil},
		"one empty":     {Outline{Empty: true}, [][]table.Cell{{num(1), empty()}}, []string{"B"}},
		"sparse inputs": {Outline{SparseInputs: true}, [][]table.Cell{{num(1), empty()}, {num(1), empty()}, {num(1), num(3)}}, []string{"B"}},
	} {
		path := filepath.Join(t.TempDir(), "o.xlsx")
		writeTable(t, path, Options{Outline: &c.opts}, cols, c.rows)
		f := testfiles.OpenXLSX(t, path)
		var hidden []string
		for _, l := range []string{"A", "B"} {
			if v, err := f.GetColVisible(DefaultSheetName, l); err != nil || !v {
				hidden = append(hidden, l)
			}
		}
		if strings.Join(hidden, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: hidden %v, want %v", name, hidden, c.want)
		}
	}
}
