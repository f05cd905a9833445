package writers

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/table"
)

// checkXLSXCell asserts that the cell at ref holds c as the XLSX writer
// writes it: numbers as numbers, text as text, booleans as booleans.
func checkXLSXCell(t *testing.T, f *excelize.File, sheet, ref string, c table.Cell) {
	t.Helper()
	raw, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	isNumber := typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber
	switch c.Kind {
	case table.Empty:
		if raw != "" {
			t.Errorf("%s!%s = %q, want empty", sheet, ref, raw)
		}
	case table.Number:
		v, err := strconv.ParseFloat(raw, 64)
		if !isNumber || err != nil || v != c.Num {
			t.Errorf("%s!%s = %q (type %v), want the number %g", sheet, ref, raw, typ, c.Num)
		}
	case table.Integer:
		if c.Int > 1<<53 || c.Int < -(1<<53) {
			if typ != excelize.CellTypeInlineString || raw != strconv.FormatInt(c.Int, 10) {
				t.Errorf("%s!%s = %q (type %v), want the text %d", sheet, ref, raw, typ, c.Int)
			}
			return
		}
		if !isNumber || raw != strconv.FormatInt(c.Int, 10) {
			t.Errorf("%s!%s = %q (type %v), want the number %d", sheet, ref, raw, typ, c.Int)
		}
	case table.Text:
		if typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
			t.Errorf("%s!%s has type %v, want text", sheet, ref, typ)
		}
		want, _ := truncate(c.Str)
		if raw != want {
			t.Errorf("%s!%s = %q, want %q", sheet, ref, raw, want)
		}
	case table.Bool:
		want := "0"
		if c.Bool {
			want = "1"
		}
		if typ != excelize.CellTypeBool || (raw != want && !strings.EqualFold(raw, strconv.FormatBool(c.Bool))) {
			t.Errorf("%s!%s = %q (type %v), want the boolean %v", sheet, ref, raw, typ, c.Bool)
		}
	}
}

// cellRef names a cell from 0-based column and 1-based row.
func cellRef(col, row int) string { return table.ColumnLetter(col) + strconv.Itoa(row) }

// fillOf returns a style's fill colour ("" for none).
func fillOf(s *excelize.Style) string {
	if s.Fill.Pattern != 1 || len(s.Fill.Color) == 0 {
		return ""
	}
	c := strings.ToUpper(s.Fill.Color[0])
	if len(c) == 8 { // ARGB
		c = c[2:]
	}
	return c
}

// sheetNotes returns the comments of a sheet and their text by cell.
func sheetNotes(t *testing.T, f *excelize.File, sheet string) ([]excelize.Comment, map[string]string) {
	t.Helper()
	comments, err := f.GetComments(sheet)
	if err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{}
	for _, c := range comments {
		notes[c.Cell] = commentText(c)
	}
	return comments, notes
}

// commentText joins a comment's text and runs.
func commentText(c excelize.Comment) string {
	s := c.Text
	for _, r := range c.Paragraph {
		s += r.Text
	}
	return s
}

// checkHeaderSheet checks what every data sheet has: the header, its
// styles and notes, frozen panes, widths and the autofilter over rows
// 1..lastRow.
func checkHeaderSheet(t *testing.T, f *excelize.File, sheet string, cols []table.Column, sample [][]table.Cell, lastRow int) {
	t.Helper()
	for i, c := range cols {
		ref := cellRef(i, 1)
		checkXLSXCell(t, f, sheet, ref, text(c.Name))
		s := testfiles.StyleOf(t, f, sheet, ref)
		if s.Font == nil || !s.Font.Bold {
			t.Errorf("%s!%s header is not bold", sheet, ref)
		}
		want := inputHeaderFill
		if c.Role != table.Input {
			want = outputHeaderFill
		}
		if got := fillOf(s); got != want {
			t.Errorf("%s!%s header fill %q, want %q", sheet, ref, got, want)
		}
	}
	comments, got := sheetNotes(t, f, sheet)
	for _, c := range comments {
		if c.Author != commentAuthor {
			t.Errorf("%s!%s comment author %q", sheet, c.Cell, c.Author)
		}
	}
	wantN := 0
	for i, c := range cols {
		if c.Note == "" {
			continue
		}
		wantN++
		if txt := got[cellRef(i, 1)]; !strings.HasPrefix(txt, c.Name) || !strings.Contains(txt, c.Note) {
			t.Errorf("%s!%s comment %q, want the name and note %q", sheet, cellRef(i, 1), txt, c.Note)
		}
	}
	if len(got) != wantN {
		t.Errorf("%s has %d comments, want %d: %v", sheet, len(got), wantN, got)
	}
	panes, err := f.GetPanes(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.XSplit != 0 || panes.TopLeftCell != "A2" {
		t.Errorf("%s panes %+v, want the header row frozen", sheet, panes)
	}
	// Widths: at least the header's (its name and room for the filter
	// button), wide enough for the text and whole numbers of the first
	// rows up to maxColWidth, and never wider; the message column is wide.
	for i, c := range cols {
		width, err := f.GetColWidth(sheet, table.ColumnLetter(i))
		if err != nil {
			t.Fatal(err)
		}
		if c.Role == table.Message {
			if width != messageColWidth {
				t.Errorf("message column width %g", width)
			}
			continue
		}
		want := float64(max(utf8.RuneCountInString(c.Name)+3, minColWidth))
		for _, row := range sample {
			shown := ""
			switch row[i].Kind {
			case table.Text:
				for _, l := range strings.Split(row[i].Str, "\n") {
					if utf8.RuneCountInString(l) > utf8.RuneCountInString(shown) {
						shown = l
					}
				}
			case table.Integer:
				shown = strconv.FormatInt(row[i].Int, 10)
			}
			want = max(want, float64(utf8.RuneCountInString(shown)+2))
		}
		want = min(want, maxColWidth)
		if width < want || width > maxColWidth {
			t.Errorf("%s column %s width %g, want at least %g and at most %d", sheet, c.Name, width, want, maxColWidth)
		}
	}
	wantFilter := fmt.Sprintf("'%s'!$A$1:$%s$%d", sheet, table.ColumnLetter(len(cols)-1), lastRow)
	found := false
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" && dn.Scope == sheet {
			found = true
			if dn.RefersTo != wantFilter {
				t.Errorf("%s autofilter %q, want %q", sheet, dn.RefersTo, wantFilter)
			}
		}
	}
	if !found {
		t.Errorf("%s has no autofilter", sheet)
	}
}

// checkDataRows checks rows[from:] against the sheet from row 2 on, n rows,
// and that the row after is empty.
func checkDataRows(t *testing.T, f *excelize.File, sheet string, rows [][]table.Cell) {
	t.Helper()
	for i, row := range rows {
		for j, c := range row {
			checkXLSXCell(t, f, sheet, cellRef(j, i+2), c)
		}
	}
	all, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(rows)+1 {
		t.Errorf("%s has %d rows, want %d", sheet, len(all), len(rows)+1)
	}
}

func TestXLSX(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.xlsx")
	cols, rows, docs := sampleCols(), sampleRows(), sampleDocs()
	writeTable(t, path, Options{Docs: docs}, cols, rows)
	f := testfiles.OpenXLSX(t, path)

	if got := f.GetSheetList(); len(got) != 2 || got[0] != DefaultSheetName || got[1] != DocsSheetName {
		t.Errorf("sheets %v, want [Results Columns]", got)
	}
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet %d, want 0", got)
	}
	checkHeaderSheet(t, f, "Results", cols, rows, len(rows)+1)
	checkDataRows(t, f, "Results", rows)

	// Number formats: probability, count, general.
	prob := testfiles.StyleOf(t, f, "Results", "H2")
	if prob.CustomNumFmt == nil || *prob.CustomNumFmt != ProbabilityNumFmt {
		t.Errorf("fdp_success number format %v, want %q", prob.CustomNumFmt, ProbabilityNumFmt)
	}
	if s := testfiles.StyleOf(t, f, "Results", "C2"); s.NumFmt != 1 {
		t.Errorf("n number format %d, want 1 (\"0\")", s.NumFmt)
	}
	if s := testfiles.StyleOf(t, f, "Results", "B2"); s.NumFmt != 0 || s.CustomNumFmt != nil {
		t.Errorf("epsilon (a Real input: as typed) has number format %d %v, want General", s.NumFmt, s.CustomNumFmt)
	}
	// A Real output shows 4 significant digits: 1.25 as 1.250, 3.5 as 3.500.
	for _, ref := range []string{"I2", "I5"} {
		if s := testfiles.StyleOf(t, f, "Results", ref); s.CustomNumFmt == nil || *s.CustomNumFmt != "0.000" {
			t.Errorf("mu %s number format %v, want 0.000", ref, s.CustomNumFmt)
		}
	}
	// A tiny probability is displayed in scientific notation, not as 0.
	for _, ref := range []string{"H3", "H6"} {
		shown, err := f.GetCellValue("Results", ref)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(shown, "E-3") || strings.Trim(shown, "0.") == "" {
			t.Errorf("%s is shown as %q", ref, shown)
		}
	}

	// Row fills: row 3 partial, row 4 error, rows 2 and 5 ok, row 6 partial
	// with an empty message. A shaded row is shaded across, its empty
	// cells included, and its cells keep their number formats.
	for _, chk := range []struct {
		row  int
		fill string
	}{{2, ""}, {3, partialFill}, {4, errorFill}, {5, ""}, {6, partialFill}, {7, ""}} {
		for col := range cols {
			ref := cellRef(col, chk.row)
			if got := fillOf(testfiles.StyleOf(t, f, "Results", ref)); got != chk.fill {
				t.Errorf("%s fill %q, want %q", ref, got, chk.fill)
			}
		}
	}
	for _, ref := range []string{"A4", "F4", "G4", "I4"} {
		if s := testfiles.StyleOf(t, f, "Results", ref); s.Font == nil || !strings.EqualFold(strings.TrimPrefix(s.Font.Color, "FF"), errorFont) || s.Font.Family == "" {
			t.Errorf("%s: error row font %+v, want the default face in %s", ref, s.Font, errorFont)
		}
	}
	if s := testfiles.StyleOf(t, f, "Results", "H3"); s.CustomNumFmt == nil || *s.CustomNumFmt != ProbabilityNumFmt {
		t.Errorf("H3 of a partial row: number format %v, want %q", s.CustomNumFmt, ProbabilityNumFmt)
	}

	// The Columns sheet.
	got, err := f.GetRows(DocsSheetName)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(docs) {
		t.Fatalf("Columns has %d rows, want %d", len(got), len(docs))
	}
	for i := range docs {
		for j := range docs[i] {
			if got[i][j] != docs[i][j] {
				t.Errorf("Columns row %d col %d = %q, want %q", i+1, j+1, got[i][j], docs[i][j])
			}
		}
	}
	if s := testfiles.StyleOf(t, f, DocsSheetName, "A1"); s.Font == nil || !s.Font.Bold {
		t.Error("Columns header is not bold")
	}
	if s := testfiles.StyleOf(t, f, DocsSheetName, "C2"); s.Alignment == nil || !s.Alignment.WrapText {
		t.Error("Columns cells do not wrap")
	}
	if width, _ := f.GetColWidth(DocsSheetName, "C"); width <= minColWidth || width > docsMaxColWidth {
		t.Errorf("Columns meaning width %g", width)
	}
	if comments, _ := f.GetComments(DocsSheetName); len(comments) != 0 {
		t.Errorf("Columns has comments %v", comments)
	}

	// The raw archive: one comments part per sheet with notes, and the
	// worksheet refers to its drawing.
	parts := sheetXML(t, path)
	for _, p := range []string{"xl/comments1.xml", "xl/drawings/vmlDrawing1.vml", "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"} {
		if _, ok := parts[p]; !ok {
			t.Errorf("archive lacks %s", p)
		}
	}
}

func TestXLSXSheetName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "named.xlsx")
	writeTable(t, path, Options{SheetName: "Q3 bounds"}, sampleCols(), sampleRows()[:2])
	f := testfiles.OpenXLSX(t, path)
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "Q3 bounds" {
		t.Errorf("sheets %v, want [Q3 bounds] (no Columns sheet without Docs)", got)
	}
	checkHeaderSheet(t, f, "Q3 bounds", sampleCols(), sampleRows()[:2], 3)

	for _, bad := range []Options{
		{SheetName: "a/b"}, {SheetName: "'quoted'"}, {SheetName: strings.Repeat("x", 32)}, {SheetName: " "},
		{SheetName: "columns", Docs: [][]string{{"column"}}},
	} {
		if _, err := Create(filepath.Join(dir, "bad.xlsx"), bad); err == nil {
			t.Errorf("sheet name %q accepted", bad.SheetName)
		}
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("refused names left %v", names)
	}
}

func TestXLSXTruncation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "long.xlsx")
	long := strings.Repeat("ε", 20000) + strings.Repeat("😀", 10000) // 40,000 UTF-16 units
	cols := []table.Column{
		{Name: "status", Kind: table.Text, Role: table.Status},
		{Name: "message", Kind: table.Text, Role: table.Message, Note: long},
	}
	w := writeTable(t, path, Options{Docs: [][]string{{"column"}, {long}}}, cols,
		[][]table.Cell{{text("error"), text(long)}, {text("ok"), text("short")}})
	if n := w.(TruncationReporter).TruncatedCells(); n != 2 {
		t.Errorf("TruncatedCells = %d, want 2 (message and Columns cell)", n)
	}
	f := testfiles.OpenXLSX(t, path)
	for _, ref := range []string{"Results!B2", DocsSheetName + "!A2"} {
		sheet, cell, _ := strings.Cut(ref, "!")
		got, err := f.GetCellValue(sheet, cell)
		if err != nil {
			t.Fatal(err)
		}
		if n := utf16Len(got); n > MaxCellChars || n < MaxCellChars-1 {
			t.Errorf("%s holds %d UTF-16 units, want %d", ref, n, MaxCellChars)
		}
		if !strings.HasSuffix(got, TruncatedMarker) || !strings.HasPrefix(long, strings.TrimSuffix(got, TruncatedMarker)) {
			t.Errorf("%s is not a marked prefix of the text", ref)
		}
	}
	if got, _ := f.GetCellValue("Results", "B3"); got != "short" {
		t.Errorf("B3 = %q", got)
	}
	comments, err := f.GetComments("Results")
	if err != nil || len(comments) != 1 {
		t.Fatalf("comments %v, %v", comments, err)
	}
	if n := utf16Len(commentText(comments[0])); n > MaxCellChars {
		t.Errorf("comment holds %d UTF-16 units", n)
	}
}

func TestTruncate(t *testing.T) {
	if s, cut := truncate("short"); s != "short" || cut {
		t.Error("short text cut")
	}
	exact := strings.Repeat("a", MaxCellChars)
	if s, cut := truncate(exact); s != exact || cut {
		t.Error("text of exactly the limit cut")
	}
	// A surrogate pair straddling the limit is not split.
	s := strings.Repeat("a", MaxCellChars-utf16Len(TruncatedMarker)-1) + strings.Repeat("😀", 10)
	got, cut := truncate(s)
	if !cut || utf16Len(got) != MaxCellChars-1 || strings.ContainsRune(got, '😀') {
		t.Errorf("truncate split a pair: %d units, cut=%v", utf16Len(got), cut)
	}
	if got, cut := cutUTF16("a😀b", 2); got != "a" || !cut {
		t.Errorf("cutUTF16 = %q, %v", got, cut)
	}
	if got := continuationName(strings.Repeat("x", 31), 12); utf16Len(got) != 31 || !strings.HasSuffix(got, " (12)") {
		t.Errorf("continuationName = %q", got)
	}
	if err := checkSheetName(continuationName("Results", 2)); err != nil {
		t.Error(err)
	}
}

func TestXLSXContinuation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "many.xlsx")
	cols := sampleCols()
	rows := manyRows(8)
	for i, r := range rows {
		r[0] = text("row " + strconv.Itoa(i+1))
	}
	writeSheets(t, path, Options{Docs: sampleDocs()}, 4, cols, rows) // header + 3 rows a sheet
	f := testfiles.OpenXLSX(t, path)
	want := []string{"Results", "Results (2)", "Results (3)", DocsSheetName}
	if got := f.GetSheetList(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sheets %q, want %q", got, want)
	}
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet %d", got)
	}
	for i, sheet := range want[:3] {
		part := rows[i*3 : min(i*3+3, len(rows))]
		checkHeaderSheet(t, f, sheet, cols, rows, len(part)+1)
		checkDataRows(t, f, sheet, part)
		// The status fills go on across sheets.
		for r, row := range part {
			ref := "F" + strconv.Itoa(r+2)
			wantFill := map[string]string{"error": errorFill, "partial": partialFill}[row[5].Str]
			if got := fillOf(testfiles.StyleOf(t, f, sheet, ref)); got != wantFill {
				t.Errorf("%s!%s fill %q, want %q", sheet, ref, got, wantFill)
			}
		}
	}
	if got, _ := f.GetCellValue("Results (3)", "A3"); got != "row 8" {
		t.Errorf("last row %q", got)
	}
}

// TestXLSXWithLibreOffice converts the workbook to CSV with LibreOffice,
// when it is installed, and compares the values (as LibreOffice shows
// them: numbers in the cells' formats). LibreOffice takes seconds to
// start: the test runs with the long tests.
func TestXLSXWithLibreOffice(t *testing.T) {
	testenv.SkipUnlessLong(t, "converting a workbook with LibreOffice")
	dir := t.TempDir()
	path := filepath.Join(dir, "lo.xlsx")
	cols, rows := sampleCols(), sampleRows()
	writeTable(t, path, Options{Docs: sampleDocs()}, cols, rows)
	outDir := filepath.Join(dir, "converted")
	// 44,34,76: comma, double quote, UTF-8.
	testfiles.Convert(t, nil, "csv:Text - txt - csv (StarCalc):44,34,76", outDir, path)
	// LibreOffice saves the workbook again: the sheets and the notes on the
	// headers must have survived its reading.
	xlsxDir := filepath.Join(dir, "resaved")
	testfiles.Convert(t, nil, "xlsx", xlsxDir, path)
	re := testfiles.OpenXLSX(t, filepath.Join(xlsxDir, "lo.xlsx"))
	if got := re.GetSheetList(); len(got) != 2 || got[0] != DefaultSheetName || got[1] != DocsSheetName {
		t.Errorf("LibreOffice sees sheets %v", got)
	}
	_, notes := sheetNotes(t, re, DefaultSheetName)
	for _, ref := range []string{"H1", "I1"} {
		if !strings.Contains(notes[ref], cols[map[string]int{"H1": 7, "I1": 8}[ref]].Note) {
			t.Errorf("LibreOffice lost the note on %s: %q", ref, notes)
		}
	}
	// (Frozen panes are not compared: headless LibreOffice drops the view
	// settings of every workbook it resaves, excelize's plain ones too.)

	recs := readback.ReadCSV(t, filepath.Join(outDir, "lo.csv"), 0)
	if len(recs) != len(rows)+1 {
		t.Fatalf("%d records, want %d", len(recs), len(rows)+1)
	}
	for i, c := range cols {
		if recs[0][i] != c.Name {
			t.Errorf("header %d = %q", i, recs[0][i])
		}
	}
	// LibreOffice shows the number formats as meant: probabilities and
	// Real outputs with 4 significant digits, scientific below 0.01, a
	// whole number in a probability column with its decimals.
	for ref, want := range map[string]string{
		"H2": "0.05000", "H3": "1.000E-300", "H5": "1.0000", "H7": "0.9990",
		"I2": "1.250", "I5": "3.500", "C2": "1000",
	} {
		col, row := int(ref[0]-'A'), int(ref[1]-'0')
		if got := recs[row-1][col]; got != want {
			t.Errorf("LibreOffice shows %s as %q, want %q", ref, got, want)
		}
	}
	for i, row := range rows {
		for j, c := range row {
			got := recs[i+1][j]
			switch c.Kind {
			case table.Empty:
				if got != "" {
					t.Errorf("row %d %s = %q, want empty", i+1, cols[j].Name, got)
				}
			case table.Text:
				if got != c.Str {
					t.Errorf("row %d %s = %q, want %q", i+1, cols[j].Name, got, c.Str)
				}
			case table.Bool:
				if !strings.EqualFold(got, strconv.FormatBool(c.Bool)) {
					t.Errorf("row %d %s = %q, want %v", i+1, cols[j].Name, got, c.Bool)
				}
			default:
				want := c.Num
				if c.Kind == table.Integer {
					want = float64(c.Int)
				}
				if cols[j].Format == table.Count { // shown as "0"
					want = math.Round(want)
				}
				v, err := strconv.ParseFloat(got, 64)
				if err != nil || math.Abs(v-want) > 1e-6+1e-2*math.Abs(want) || (want != 0 && v == 0) {
					t.Errorf("row %d %s = %q, want about %g", i+1, cols[j].Name, got, want)
				}
			}
		}
	}
}
