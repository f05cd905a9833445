package readers

import (
	"archive/zip"
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/table"
)

// excelizeWorkbook builds a workbook with excelize: a sheet "Notes" whose
// header the tests do not accept, written cell by cell (shared strings),
// and a sheet "Q3" written by the stream writer (inline strings) with
// numbers, booleans, formulas with cached values, a date, styled empty rows
// and a cell right of the header.
func excelizeWorkbook(t testing.TB) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Notes"))
	must(f.SetCellValue("Notes", "A1", "comment"))
	must(f.SetCellValue("Notes", "A2", "hello"))
	must(f.SetCellValue("Notes", "B3", 42))
	_, err := f.NewSheet("Q3")
	must(err)
	style, err := f.NewStyle(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Color: []string{"FFFF00"}, Pattern: 1}})
	must(err)
	sw, err := f.NewStreamWriter("Q3")
	must(err)
	styled := excelize.Cell{StyleID: style}
	rows := [][]any{
		{"name", " epsilon ", "delta", 2024, "flag", "double"},
		{"r1", 0.5, 1e-6, 7, true, excelize.Cell{Formula: "B2*2", Value: 1}},
		{"0.5", 1, nil, -2.25, false, excelize.Cell{Formula: "B3*2", Value: 2}},
		{styled, styled, nil, styled},
		{"r5", time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), "", "  "},
		{"r6", 1, nil, nil, nil, nil, nil, "note"},
		{"r7", 2, nil, nil, nil, nil, nil, ""},
		{styled},
		{styled, styled},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		must(sw.SetRow(cell, r))
	}
	must(sw.Flush())
	buf, err := f.WriteToBuffer()
	must(err)
	return buf.Bytes()
}

func TestXLSX(t *testing.T) {
	path := writeFile(t, "releases.xlsx", excelizeWorkbook(t))
	accept := func(h []string) bool {
		for _, n := range h {
			if n == "epsilon" {
				return true
			}
		}
		return false
	}
	tb := openOne(t, path, Options{Accept: accept})
	if tb.File() != path || tb.Sheet() != "Q3" {
		t.Errorf("File, Sheet = %q, %q", tb.File(), tb.Sheet())
	}
	names, kinds := columnNames(tb.Columns())
	if !reflect.DeepEqual(names, []string{"name", "epsilon", "delta", "2024", "flag", "double"}) {
		t.Errorf("header %q", names)
	}
	if !reflect.DeepEqual(kinds, make([]table.Kind, 6)) {
		t.Errorf("kinds %v, want all Empty (unknown)", kinds)
	}
	got := drain(t, tb)
	if len(got) != 5 {
		t.Fatalf("%d entries, want 5: %+v", len(got), got)
	}
	// A formula keeps its cached value (the stream writer's, not B2*2).
	wantRow(t, got[0], pos(path, "Q3", 2), cells(txt("r1"), num(0.5), num(1e-6), num(7), boolean(true), formula(num(1), "B2*2")))
	wantRow(t, got[1], pos(path, "Q3", 3), cells(txt("0.5"), num(1), empty(), num(-2.25), boolean(false), formula(num(2), "B3*2")))
	// Row 4 is formatted but empty: skipped, numbering kept. excelize
	// writes a time.Time as serial 45293 in format 22 (m/d/yy h:mm): a
	// timestamp, 2024-01-02T00:00:00 = 1704153600 s.
	wantRow(t, got[2], pos(path, "Q3", 5), cells(txt("r5"), table.TimestampCell(1704153600, table.Second), empty(), txt("  "), empty(), empty()))
	wantError(t, got[3].Err, table.Position{File: path, Sheet: "Q3", Row: 6, Column: 7},
		path+", sheet Q3, row 6, column H: ", `("note")`, "right of the header's last column F")
	// An empty string right of the header is no error.
	wantRow(t, got[4], pos(path, "Q3", 7), cells(txt("r7"), num(2), empty(), empty(), empty(), empty()))
	// Rows 8 and 9 are formatted but empty.
}

func TestXLSXAllSheetsAndSharedClose(t *testing.T) {
	data := excelizeWorkbook(t)
	tables, err := OpenReader("sample.xlsx", bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || tables[0].Sheet() != "Notes" || tables[1].Sheet() != "Q3" {
		t.Fatalf("%d tables", len(tables))
	}
	// Closing one sheet leaves the others readable.
	if err := tables[1].Close(); err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	if names, _ := columnNames(tables[0].Columns()); !reflect.DeepEqual(names, []string{"comment"}) {
		t.Errorf("Notes header %q", names)
	}
	got := drain(t, tables[0])
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantRow(t, got[0], pos("sample.xlsx", "Notes", 2), cells(txt("hello")))
	wantError(t, got[1].Err, table.Position{File: "sample.xlsx", Sheet: "Notes", Row: 3, Column: 1}, `("42")`, "right of the header's last column A")
}

func TestXLSXSheetOption(t *testing.T) {
	path := writeFile(t, "releases.xlsx", excelizeWorkbook(t))
	// Case-insensitive, and Accept does not apply to a named sheet.
	never := func([]string) bool { return false }
	tb := openOne(t, path, Options{Sheet: "q3", Accept: never})
	if tb.Sheet() != "Q3" {
		t.Errorf("Sheet %q", tb.Sheet())
	}

	_, err := Open(path, Options{Sheet: "Q4"})
	wantError(t, err, pos(path, "", 0), path+": ", `no sheet named "Q4"`, `"Notes", "Q3"`)

	_, err = Open(path, Options{Accept: never})
	wantError(t, err, pos(path, "", 0), path+": no sheet has a header row with known columns",
		`"Notes" (header: "comment")`, `"Q3" (header: "name", "epsilon", "delta", "2024", "flag", "double")`)
}

func TestXLSXLimits(t *testing.T) {
	path := writeFile(t, "releases.xlsx", excelizeWorkbook(t))
	_, err := Open(path, Options{Limits: Limits{XLSXSheetBytes: 100}})
	wantError(t, err, pos(path, "Notes", 0), "the part xl/worksheets/sheet1.xml unpacks to ", "the limit is 100 bytes; if the file is genuine, raise it with --max-xlsx-sheet-bytes")
	_, err = Open(path, Options{Limits: Limits{XLSXPartBytes: 100}})
	wantError(t, err, pos(path, "", 0), "the limit is 100 bytes; if the file is genuine, raise it with --max-xlsx-part-bytes")
}

// zipOf builds a zip archive of the given files, in order.
func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := w.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	nsMain = testfiles.NSMain
	nsRel  = testfiles.NSRel
	relDoc = testfiles.RelDoc
)

// handWorkbook is a workbook written by hand: formulas with cached text,
// error and boolean values, a formula without a cached value, rich and
// phonetic shared strings, inline strings, cells and rows without
// references, an absolute relationship target, an empty sheet and a sheet
// whose elements carry a namespace prefix.
func handWorkbook(t testing.TB, data string) []byte {
	t.Helper()
	return zipOf(t,
		"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
			`<Relationship Id="rId1" Type="`+relDoc+`officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml", `<?xml version="1.0"?><workbook `+nsMain+` `+nsRel+`><sheets>`+
			`<sheet name="Data" sheetId="1" r:id="rId7"/><sheet name="Empty" sheetId="2" r:id="rId8"/><sheet name="Strict" sheetId="3" r:id="rId10"/>`+
			`</sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
			`<Relationship Id="rId7" Type="`+relDoc+`worksheet" Target="/xl/worksheets/data.xml"/>`+
			`<Relationship Id="rId8" Type="`+relDoc+`worksheet" Target="worksheets/empty.xml"/>`+
			`<Relationship Id="rId9" Type="`+relDoc+`sharedStrings" Target="strings.xml"/>`+
			`<Relationship Id="rId10" Type="`+relDoc+`worksheet" Target="worksheets/strict.xml"/>`+
			`<Relationship Id="rId11" Type="`+relDoc+`hyperlink" Target="https://example.com/" TargetMode="External"/>`+
			`</Relationships>`,
		"xl/strings.xml", `<?xml version="1.0"?><sst `+nsMain+` count="4" uniqueCount="4">`+
			`<si><t>epsilon</t></si>`+
			`<si><r><t>ka</t></r><r><rPr><b/></rPr><t xml:space="preserve">nji </t></r><rPh sb="0" eb="1"><t>カ</t></rPh></si>`+
			`<si><t> label </t></si>`+
			`<si><t>formula</t></si>`+
			`</sst>`,
		"xl/worksheets/data.xml", data,
		"xl/worksheets/empty.xml", `<?xml version="1.0"?><worksheet `+nsMain+`><sheetData/></worksheet>`,
		"xl/worksheets/strict.xml", `<?xml version="1.0"?><x:worksheet xmlns:x="http://purl.oclc.org/ooxml/spreadsheetml/main"><x:sheetData>`+
			`<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c></x:row>`+
			`<x:row r="2"><x:c r="A2"><x:v>0.1</x:v></x:c></x:row>`+
			`</x:sheetData></x:worksheet>`,
	)
}

const handData = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet ` + nsMain + `><dimension ref="A1:E8"/><sheetData>
<row r="1" spans="1:5"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>note</t></is></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="inlineStr"><is><t>ok</t></is></c></row>
<row r="3">
  <c t="s"><v>1</v></c>
  <c><v>0.25</v></c>
  <c t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c>
  <c t="str"><f>A3&amp;"!"</f><v>kanji !</v></c>
  <c t="b"><v>0</v></c>
</row>
<row>
  <c r="A4" t="e"><f>1/0</f><v>#DIV/0!</v></c>
  <c r="D4" s="3"><f>B3*4</f><v>1</v></c>
  <c r="E4" t="b"><f>TRUE()</f><v>1</v></c>
</row>
<row r="5"><c r="A5"><f>SUM(B1:B4)</f></c><c r="B5"><v>2</v></c></row>
<row r="6"><c r="A6" t="s"><v>99</v></c></row>
<row r="7"><c r="B7"><v>abc</v></c></row>
<row r="8"><c r="A8" t="str"><f>""</f><v></v></c><c r="B8"><v> 3.5e2 </v></c><c r="F8" s="2"/></row>
<row r="9" customHeight="1"/>
</sheetData><mergeCells count="0"/></worksheet>`

func TestXLSXHandMade(t *testing.T) {
	path := writeFile(t, "hand.xlsx", handWorkbook(t, handData))
	tb := openOne(t, path, Options{Sheet: "Data"})
	names, _ := columnNames(tb.Columns())
	if !reflect.DeepEqual(names, []string{"label", "epsilon", "note", "formula", "ok"}) {
		t.Errorf("header %q", names)
	}
	got := drain(t, tb)
	if len(got) != 6 {
		t.Fatalf("%d entries, want 6: %+v", len(got), got)
	}
	wantRow(t, got[0], pos(path, "Data", 3), cells(txt("kanji "), num(0.25), txt("inline"), formula(txt("kanji !"), `A3&"!"`), boolean(false)))
	wantRow(t, got[1], pos(path, "Data", 4), cells(formula(txt("#DIV/0!"), "1/0"), empty(), empty(), formula(num(1), "B3*4"), formula(boolean(true), "TRUE()")))
	// excelize cannot open this hand-made workbook (its shared strings
	// are not where excelize looks), so the formula cannot be computed.
	wantError(t, got[2].Err, table.Position{File: path, Sheet: "Data", Row: 5, Column: 0, ColumnName: "label"},
		"row 5, column A (label): the formula =SUM(B1:B4) in cell A5 has no computed value, and riskbatch cannot compute it: ",
		"; open the workbook in a spreadsheet application and save it, so that its formulas are calculated")
	wantError(t, got[3].Err, table.Position{File: path, Sheet: "Data", Row: 6, Column: 0, ColumnName: "label"},
		`shared string "99" does not exist`)
	wantError(t, got[4].Err, table.Position{File: path, Sheet: "Data", Row: 7, Column: 1, ColumnName: "epsilon"},
		`column B (epsilon): number cell holds "abc"`)
	wantRow(t, got[5], pos(path, "Data", 8), cells(formula(empty(), `""`), num(350), empty(), empty(), empty()))

	// Every sheet: the empty one is skipped, the prefixed one is read.
	tables, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 || tables[0].Sheet() != "Data" || tables[1].Sheet() != "Strict" {
		t.Fatalf("%d tables", len(tables))
	}
	_ = tables[0].Close()
	defer tables[1].Close()
	got = drain(t, tables[1])
	if names, _ := columnNames(tables[1].Columns()); !reflect.DeepEqual(names, []string{"epsilon"}) || len(got) != 1 {
		t.Fatalf("Strict: %q %+v", names, got)
	}
	wantRow(t, got[0], pos(path, "Strict", 2), cells(num(0.1)))

	_, err = Open(path, Options{Sheet: "Empty"})
	wantError(t, err, pos(path, "Empty", 0), "sheet Empty: the sheet is empty")
}

func TestXLSXDamaged(t *testing.T) {
	// XML cut in the middle of row 3: rows 1 and 2 are read, then an error
	// that ends the stream.
	cut := `<worksheet ` + nsMain + `><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c></row>` +
		`<row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>`
	path := writeFile(t, "cut.xlsx", handWorkbook(t, cut))
	tb := openOne(t, path, Options{Sheet: "Data"})
	got := drain(t, tb)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantRow(t, got[0], pos(path, "Data", 2), cells(num(1)))
	wantError(t, got[1].Err, pos(path, "Data", 3), "sheet Data, row 3: the sheet is damaged", "unexpected EOF")
	if !IsFatal(got[1].Err) {
		t.Errorf("damaged XML is not fatal")
	}

	// A bad cell reference.
	bad := `<worksheet ` + nsMain + `><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c></row>` +
		`<row r="2"><c r="1A"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row></sheetData></worksheet>`
	path = writeFile(t, "bad.xlsx", handWorkbook(t, bad))
	tb = openOne(t, path, Options{Sheet: "Data"})
	got = drain(t, tb)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantError(t, got[0].Err, table.Position{File: path, Sheet: "Data", Row: 2, Column: 0, ColumnName: "h"}, `invalid cell reference "1A"`)
	wantRow(t, got[1], pos(path, "Data", 3), cells(num(2)))
	if IsFatal(got[0].Err) {
		t.Errorf("a bad cell is fatal")
	}
}

func TestXLSXUnreadable(t *testing.T) {
	path := writeFile(t, "text.xlsx", []byte("name,epsilon\nx,1\n"))
	_, err := Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": not an XLSX workbook (it is not a zip archive)")

	path = writeFile(t, "old.xlsx", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...))
	_, err = Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": this is an Excel 97-2003 workbook (.xls) or a password-protected workbook")

	path = writeFile(t, "nowb.xlsx", zipOf(t, "hello.txt", "hi"))
	_, err = Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": ", "no workbook part xl/workbook.xml")

	path = writeFile(t, "nosheets.xlsx", zipOf(t, "xl/workbook.xml", `<workbook `+nsMain+`><sheets/></workbook>`))
	_, err = Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": the workbook has no sheets")

	path = writeFile(t, "badxml.xlsx", zipOf(t, "xl/workbook.xml", `<workbook><sheets><sheet name="a" r:id="1"`))
	_, err = Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+": not a readable XLSX workbook", "xl/workbook.xml")

	// A sheet whose part is missing.
	path = writeFile(t, "nopart.xlsx", zipOf(t, "xl/workbook.xml", `<workbook `+nsMain+` `+nsRel+`><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`))
	_, err = Open(path, Options{})
	wantError(t, err, pos(path, "S", 0), "sheet S: the workbook is damaged: the sheet's part is missing")
}

func TestColumnOf(t *testing.T) {
	for ref, want := range map[string]int{"A1": 0, "z9": 25, "AA10": 26, "XFD1": 16383, "B": 1} {
		if got, ok := columnOf(ref); !ok || got != want {
			t.Errorf("columnOf(%q) = %d, %v; want %d", ref, got, ok, want)
		}
	}
	for _, ref := range []string{"", "1", "XFE1", "AAAAAAAAAAAAAAAAAAAA1"} {
		if got, ok := columnOf(ref); ok && got < maxSheetCols {
			t.Errorf("columnOf(%q) = %d, want an error", ref, got)
		}
	}
}
