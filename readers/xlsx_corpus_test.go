package readers

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// The workbooks under testdata are written by testdata/gen_xlsx.py
// (openpyxl, and LibreOffice for formulas-lo.xlsx, macro.xlsm, releases.ods
// and releases.xls); the expected values are the ones the script writes,
// as it documents them.

// knownNames stands for the evaluator's vocabulary in these tests.
func knownNames(name string) bool {
	switch name {
	case "id", "epsilon", "delta", "baseline", "candidates", "compositions", "prior":
		return true
	}
	return false
}

// corpus opens a testdata file that must give one table.
func corpus(t *testing.T, name string) (Table, []entry) {
	t.Helper()
	tb := openOne(t, filepath.Join("testdata", name), Options{Known: knownNames})
	return tb, drain(t, tb)
}

// corpusEntries reads the workbook testdata/name to its end, failing the
// test unless it gives n entries; path is the workbook's path.
func corpusEntries(t *testing.T, name string, n int) (path string, got []entry) {
	t.Helper()
	_, got = corpus(t, name)
	if len(got) != n {
		t.Fatalf("%d entries, want %d: %+v", len(got), n, got)
	}
	return filepath.Join("testdata", name), got
}

// date, stamp and clock abbreviate typed cells.
func date(days int64) table.Cell                 { return table.DateCell(days) }
func stamp(v int64, u table.TimeUnit) table.Cell { return table.TimestampCell(v, u) }
func clock(v int64, u table.TimeUnit) table.Cell { return table.TimeOfDayCell(v, u) }
func cellAt(file, sheet string, row, col int, name string) table.Position {
	return table.Position{File: file, Sheet: sheet, Row: row, Column: col, ColumnName: name}
}

func TestXLSXFormulasWithoutCachedValues(t *testing.T) {
	path, got := corpusEntries(t, "formulas.xlsx", 13)
	s := "Releases"
	// =2*5 → 10, a value once read as empty.
	wantRow(t, got[0], pos(path, s, 2), cells(txt("const"), num(0.5), formula(num(10), "2*5"), num(1e-6), empty()))
	wantRow(t, got[1], pos(path, s, 3), cells(txt("ref"), num(2), formula(num(6), "B3*3"), num(1e-6), empty()))
	// The shared formula B4*2 of C4:C6, moved to C5 and C6.
	wantRow(t, got[2], pos(path, s, 4), cells(txt("shared1"), num(1), formula(num(2), "B4*2"), empty(), empty()))
	wantRow(t, got[3], pos(path, s, 5), cells(txt("shared2"), num(2), formula(num(4), "B5*2"), empty(), empty()))
	wantRow(t, got[4], pos(path, s, 6), cells(txt("shared3"), num(3), formula(num(6), "B6*2"), empty(), empty()))
	// 1/3 to the last bit (the engine's own text has 15 digits), a
	// number, a boolean and a text.
	wantRow(t, got[5], pos(path, s, 7), cells(txt("types"), formula(num(1.0/3), "1/3"), formula(num(5), "2+3"), formula(boolean(true), "1<2"), formula(txt("ab"), `"a"&"b"`)))
	// DATE(2024,1,2) in a yyyy-mm-dd cell: 2024-01-02 is day 19724.
	wantRow(t, got[6], pos(path, s, 8), cells(txt("date"), num(1), num(1), empty(), formula(date(19724), "DATE(2024,1,2)")))
	const advice = "; open the workbook in a spreadsheet application and save it, so that its formulas are calculated"
	wantError(t, got[7].Err, cellAt(path, s, 9, 2, "compositions"),
		`sheet Releases, row 9, column C (compositions): the formula =WEBSERVICE("http://example.com") in cell C9 has no computed value, and riskbatch cannot compute it: riskbatch's calculation engine has no function WEBSERVICE`+advice)
	wantError(t, got[8].Err, cellAt(path, s, 10, 1, "epsilon"),
		"the formula =1/0 in cell B10 has no computed value, and riskbatch cannot compute it: it gives the error value #DIV/0!")
	wantError(t, got[9].Err, cellAt(path, s, 11, 2, "compositions"),
		"the formula =D11+1 in cell C11 has no computed value, and riskbatch cannot compute it: it is part of a circular reference (C11 → D11 → C11)")
	wantError(t, got[10].Err, cellAt(path, s, 12, 2, "compositions"),
		"the formula =[1]Sheet1!A1 in cell C12 has no computed value, and riskbatch cannot compute it: it holds a reference to another workbook, which riskbatch does not follow"+advice)
	wantError(t, got[11].Err, cellAt(path, s, 13, 2, "compositions"),
		`the formula =INDIRECT("B2") in cell C13 has no computed value, and riskbatch cannot compute it: it uses INDIRECT, whose references riskbatch cannot follow`+advice)
	wantError(t, got[12].Err, cellAt(path, s, 14, 2, "compositions"),
		`the formula =C9+1 in cell C14 has no computed value, and riskbatch cannot compute it: it depends on C9, whose formula =WEBSERVICE("http://example.com") cannot be computed: riskbatch's calculation engine has no function WEBSERVICE`+advice)
}

func TestXLSXFormulasCachedByLibreOffice(t *testing.T) {
	path, got := corpusEntries(t, "formulas-lo.xlsx", 7)
	s := "Releases"
	wantRow(t, got[0], pos(path, s, 2), cells(txt("const"), num(0.5), formula(num(10), "2*5"), num(1e-6), empty()))
	wantRow(t, got[4], pos(path, s, 6), cells(txt("shared3"), num(3), formula(num(6), "B6*2"), empty(), empty()))
	// LibreOffice caches 1/3 with 15 significant digits: the value as
	// cached.
	wantRow(t, got[5], pos(path, s, 7), cells(txt("types"), formula(num(0.333333333333333), "1/3"), formula(num(5), "2+3"), formula(boolean(true), "1<2"), formula(txt("ab"), `"a"&"b"`)))
	wantRow(t, got[6], pos(path, s, 8), cells(txt("date"), num(1), num(1), empty(), formula(date(19724), "DATE(2024,1,2)")))
}

func TestXLSXDates(t *testing.T) {
	for _, name := range []string{"dates.xlsx", "dates1904.xlsx"} {
		t.Run(name, func(t *testing.T) {
			path, got := corpusEntries(t, name, 3)
			s := "Dates"
			// released yyyy-mm-dd; at yyyy-mm-dd hh:mm:ss.000; time h:mm
			// AM/PM; custom 'd "de" mmmm yyyy' and '[$-409]m/d/yy h:mm
			// AM/PM;@'; elapsed [h]:mm (a duration: a number of days);
			// number 0.00; text. 2024-01-02 is day 19724; 2024-01-02
			// 10:30:00 is 1704191400 s; 2024-03-04 is day 19786.
			wantRow(t, got[0], pos(path, s, 2), cells(txt("d1"), num(1), date(19724), stamp(1704191400, table.Second),
				clock(37800, table.Second), date(19786), num(1.25), num(45293), txt("2024-01-02")))
			wantRow(t, got[1], pos(path, s, 3), cells(txt("d2"), num(1), date(10956), stamp(1704191401250, table.Millisecond),
				clock(86399, table.Second), stamp(1709528767, table.Second), num(0.0625), num(0.5), txt("x")))
			// A date format on 2024-01-02 12:00 keeps the time; serial
			// 45293 in format mm-dd-yy is 2024-01-02 in the 1900 system,
			// 2028-01-03 (day 21186) in the 1904 system.
			day := date(19724)
			if name == "dates1904.xlsx" {
				day = date(21186)
			}
			wantRow(t, got[2], pos(path, s, 4), cells(txt("d3"), num(1), stamp(1704196800, table.Second), empty(), empty(), empty(), empty(), day, empty()))
		})
	}
}

func TestXLSXHeaderBelowTitle(t *testing.T) {
	path := filepath.Join("testdata", "header.xlsx")
	tb, got := corpus(t, "header.xlsx")
	names, _ := columnNames(tb.Columns())
	if !reflect.DeepEqual(names, []string{"id", "epsilon", "delta", "baseline", "candidates"}) {
		t.Errorf("header %q", names)
	}
	if note := tb.(HeaderNoter).HeaderNote(); note != "header on row 3; rows 1–2 above it are not read" {
		t.Errorf("note %q", note)
	}
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	wantRow(t, got[0], pos(path, "Q3", 4), cells(txt("r1"), num(1), num(1e-6), num(0.01), empty()))
	wantRow(t, got[1], pos(path, "Q3", 5), cells(txt("r2"), num(2), empty(), empty(), num(100)))

	// Without Known the first non-empty row is the header, as before.
	tb = openOne(t, path, Options{})
	if names, _ := columnNames(tb.Columns()); !reflect.DeepEqual(names, []string{"Q3 releases of the census tables"}) {
		t.Errorf("header without Known: %q", names)
	}
	if note := tb.(HeaderNoter).HeaderNote(); note != "" {
		t.Errorf("note without Known: %q", note)
	}
}

func TestXLSXMacroEnabled(t *testing.T) {
	path, got := corpusEntries(t, "macro.xlsm", 2)
	wantRow(t, got[0], pos(path, "Releases", 2), cells(txt("a"), num(1), formula(num(10), "2*5")))
	wantRow(t, got[1], pos(path, "Releases", 3), cells(txt("b"), num(0.5), num(3)))
}

func TestSpreadsheetsRefused(t *testing.T) {
	ods := "this is an OpenDocument spreadsheet (.ods), which riskbatch does not read: save it as .xlsx (File › Save As › Excel 2007-365 (.xlsx)) or export CSV"
	xls := "this is an Excel 97-2003 workbook (.xls), which riskbatch does not read: save it as an Excel Workbook (.xlsx) (File › Save As) or export CSV"
	numbers := "this is an Apple Numbers document, which riskbatch does not read: export it as Excel (File › Export To › Excel…, .xlsx) or CSV"
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct{ name, fixture, want string }{
		// By extension and content.
		{"releases.ods", "releases.ods", ods},
		{"releases.xls", "releases.xls", xls},
		{"releases.numbers", "releases.numbers", numbers},
		// By content, whatever the extension says.
		{"releases.xlsx", "releases.ods", ods},
		{"renamed.xlsx", "releases.numbers", numbers},
		{"releases.csv", "releases.ods", ods},
		{"releases.parquet", "releases.xls", "this is an Excel 97-2003 workbook (.xls) or a password-protected workbook"},
		{"releases.csv", "macro.xlsm", "this is an XLSX workbook, not a CSV file: rename it to .xlsx or pass --input-format xlsx"},
		// By extension, whatever the content.
		{"text.ods", "", ods},
		{"text.numbers", "", numbers},
	} {
		data := []byte("id,epsilon\na,1\n")
		if c.fixture != "" {
			data = read(c.fixture)
		}
		path := writeFile(t, c.name, data)
		_, err := Open(path, Options{})
		wantError(t, err, pos(path, "", 0), path+": "+c.want)
	}
	// A Numbers document saved as a package is a folder.
	dir := filepath.Join(t.TempDir(), "package.numbers")
	if err := mkdir(dir); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantError(t, err, pos(dir, "", 0), dir+": "+numbers)

	// An .xlsx renamed .xls is read.
	path := writeFile(t, "really.xls", read("macro.xlsm"))
	tb := openOne(t, path, Options{})
	if got := drain(t, tb); len(got) != 2 {
		t.Errorf("%d entries: %+v", len(got), got)
	}
}
