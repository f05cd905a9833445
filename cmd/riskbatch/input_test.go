package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
	"github.com/xuri/excelize/v2"
)

// writeInput writes an input file into a temporary directory.
func writeInput(t *testing.T, name string, data []byte) string {
	t.Helper()
	return writeBytes(t, filepath.Join(t.TempDir(), name), data)
}

// outputRow returns the first row of an output CSV as a map from header to
// cell text.
func outputRow(t *testing.T, path string) map[string]string {
	t.Helper()
	header, rows := readAll(t, path)
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", path)
	}
	m := map[string]string{}
	for i, h := range header {
		m[h] = rows[0][i]
	}
	return m
}

// A σ written "2,500" is an error naming the column and both readings;
// --decimal-comma reads it as 2.5 and --decimal-point as 2500, and a
// semicolon-delimited file reads it as 2.5 by itself.
func TestDecimalCommaEndToEnd(t *testing.T) {
	in := writeInput(t, "de.csv", []byte("id,sigma,baseline\nde,\"2,500\",10%\n"))
	out := filepath.Join(t.TempDir(), "out.csv")
	code, stderr := riskbatch(t, "eval", in, "-o", out, "-q")
	if code != exitRowErrors {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := outputRow(t, out)
	if want := `sigma: "2,500" reads as 2500 with a decimal point or 2.5 with a decimal comma; pass --decimal-comma or --decimal-point, or write it unambiguously`; r["status"] != "error" || r["message"] != want {
		t.Errorf("status %s, message %q\nwant %q", r["status"], r["message"], want)
	}

	// fdp_advantage of σ = 2.5 (μ = 0.4) at baseline 0.1: 1 − Φ(Φ⁻¹(0.9) −
	// 0.4) − 0.1, and of σ = 2500 (μ = 0.0004), as Python's
	// statistics.NormalDist computes them.
	semi := writeInput(t, "semi.csv", []byte("id;sigma;baseline\nde;2,500;10%\n"))
	for _, c := range []struct {
		args []string
		want float64
	}{
		{[]string{in, "--decimal-comma"}, 0.08900967851770922},
		{[]string{"--decimal-point", in}, 7.021732678810788e-05},
		{[]string{semi}, 0.08900967851770922},
	} {
		code, stderr := riskbatch(t, append([]string{"eval", "-o", out, "-q"}, c.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		r := outputRow(t, out)
		v, err := parseFloat(r["fdp_advantage"])
		if r["status"] == "error" || err != nil || math.Abs(v-c.want) > 1e-9*c.want {
			t.Errorf("%v: status %s (%s), fdp_advantage %s; want %g", c.args, r["status"], r["message"], r["fdp_advantage"], c.want)
		}
	}

	// The same rule for text in a workbook; a typed number is exact.
	book := filepath.Join(t.TempDir(), "de.xlsx")
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"id", "sigma", "baseline"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"text", "2,500", 0.1})
	f.SetSheetRow("Sheet1", "A3", &[]any{"typed", 2.5, 0.1})
	if err := f.SaveAs(book); err != nil {
		t.Fatal(err)
	}
	if code, stderr := riskbatch(t, "eval", book, "-o", out, "-q"); code != exitRowErrors {
		t.Fatalf("workbook: exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	st, msg, adv := column(header, "status"), column(header, "message"), column(header, "fdp_advantage")
	if rows[0][st] != "error" || !strings.HasPrefix(rows[0][msg], `sigma: "2,500" reads as 2500 with a decimal point or 2.5 with a decimal comma`) {
		t.Errorf("workbook text: %s %q", rows[0][st], rows[0][msg])
	}
	if v, err := parseFloat(rows[1][adv]); err != nil || math.Abs(v-0.08900967851770922) > 1e-9 {
		t.Errorf("workbook number: %s %q, fdp_advantage %s", rows[1][st], rows[1][msg], rows[1][adv])
	}

	code, stderr = riskbatch(t, "eval", in, "-o", out, "--decimal-comma", "--decimal-point")
	if code != exitUsage || !strings.Contains(stderr, "--decimal-comma and --decimal-point contradict each other") {
		t.Errorf("both flags: exit %d: %s", code, stderr)
	}
}

// What riskbatch assumed or detected to read a CSV file is said once on
// stderr, before the run's summary.
func TestDialectNotes(t *testing.T) {
	legacy := writeInput(t, "legacy.csv", []byte("id,epsilon\ncaf\xE9,1\n"))
	semi := writeInput(t, "semi.csv", []byte("id;epsilon\na;1,5\n"))
	out := filepath.Join(t.TempDir(), "out.csv")
	code, stderr := riskbatch(t, "eval", legacy, semi, "-o", out, "-q")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "riskbatch: " + legacy + ": read as Windows-1252 (not valid UTF-8); pass --encoding to choose another\n" +
		"riskbatch: " + semi + ": fields separated by ';' (detected from the header); pass --delimiter to choose another; its numbers are read with decimal commas, as it is semicolon-delimited (pass --decimal-point if they have decimal points)\n"
	if stderr != want {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
	_, rows := readAll(t, out)
	if rows[0][0] != "café" || rows[1][1] != "1,5" {
		t.Errorf("rows %q", rows)
	}
	// Told, riskbatch says nothing.
	code, stderr = riskbatch(t, "eval", legacy, "-o", out, "-q", "--encoding", "windows-1252")
	if code != exitOK || stderr != "" {
		t.Errorf("--encoding: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct{ flag, value, want string }{
		{"--encoding", "klingon", `unknown encoding "klingon"`},
		{"--delimiter", "ab", `--delimiter: "ab" is not a delimiter`},
	} {
		code, stderr := riskbatch(t, "eval", legacy, "-o", out, c.flag, c.value)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s %s: exit %d: %q", c.flag, c.value, code, stderr)
		}
	}
}

// A file whose header names no input column is refused at once, with one
// line: what was read, the closest known names, and the likely cause.
func TestNoKnownColumn(t *testing.T) {
	utf16 := []byte{}
	for _, c := range "id,dlta\nx,1\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	book := filepath.Join(t.TempDir(), "book.xlsx")
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"epsilo", "dlta", "sgma"})
	f.SetSheetRow("Sheet1", "A2", &[]any{1, 2, 3})
	if err := f.SaveAs(book); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data []byte
		args []string
		want string // the line after "riskbatch: PATH"
	}{
		{"typos.csv", []byte("id,dlta,epsilo,sgma\na,1,2,3\n"), nil,
			`: the header names no input column riskbatch knows (read as UTF-8, fields separated by ','): "id", "dlta", "epsilo", "sgma"; closest known names: "dlta" → delta, "epsilo" → epsilon, "sgma" → sigma; ` + "`riskbatch columns` lists the input columns"},
		{"semi.csv", []byte("id;epsilon\na;1\n"), []string{"--delimiter", ","},
			`: the header names no input column riskbatch knows (read as UTF-8, fields separated by ','): "id;epsilon"; the header holds ';': if it separates the fields, pass --delimiter ;; ` + "`riskbatch columns` lists the input columns"},
		{"wide.csv", utf16, []string{"--encoding", "utf-8"},
			`: the header names no input column riskbatch knows (read as UTF-8, fields separated by ','): "i\x00d\x00", "\x00d\x00l\x00t\x00a\x00"; closest known names: "\x00d\x00l\x00t\x00a\x00" → delta; the header holds zero bytes or undecodable ones: the file may be UTF-16 or another encoding (pass --encoding, e.g. utf-16le); ` + "`riskbatch columns` lists the input columns"},
		{"book.csv", readback.ReadFile(t, book), nil,
			`: this is an XLSX workbook, not a CSV file: rename it to .xlsx or pass --input-format xlsx`},
		{"book.xlsx", nil, nil,
			`: no sheet has a header row with known columns; the sheets are "Sheet1" (header: "epsilo", "dlta", "sgma"); closest known names: "epsilo" → epsilon, "dlta" → delta, "sgma" → sigma`},
	}
	for _, c := range cases {
		path := book
		if c.data != nil {
			path = writeInput(t, c.name, c.data)
		}
		out := filepath.Join(t.TempDir(), "out.csv")
		code, stderr := riskbatch(t, append([]string{"eval", path, "-o", out}, c.args...)...)
		want := "riskbatch: " + path + strings.ReplaceAll(c.want, "\x00", "\\x00") + "\n"
		if code != exitUsage || stderr != want {
			t.Errorf("%s: exit %d:\n%q\nwant\n%q", c.name, code, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: an output was written", c.name)
		}
	}
}

// readTable reads a file's first table: header and every row's cells,
// kept even when the row is an error.
func readTable(t *testing.T, path string) ([]string, [][]table.Cell) {
	t.Helper()
	tables, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer func() {
		for _, tb := range tables {
			tb.Close()
		}
	}()
	header := headerNames(tables[0])
	var rows [][]table.Cell
	for {
		r, err := tables[0].Next()
		if err == io.EOF {
			break
		}
		if err != nil && readers.IsFatal(err) {
			t.Fatalf("read %s: %v", path, err)
		}
		rows = append(rows, r.Cells)
	}
	return header, rows
}

// Round trip: every CSV and TSV file of the readers' corpus that riskbatch
// reads, written back with --pass-through to CSV (always UTF-8 with commas),
// holds the same header and the same values, row by row, the rows that are
// errors (a cut record, a cell that is not text of its encoding) included.
func TestCSVCorpusPassThrough(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "readers", "testdata", "csv", "*.?sv"))
	if len(files) < 10 {
		t.Fatalf("%d corpus files", len(files))
	}
	read := 0
	for _, in := range files {
		if _, err := readers.Open(in, readers.Options{}); err != nil {
			continue // not readable on purpose (a workbook named .csv)
		}
		read++
		out := filepath.Join(t.TempDir(), "out.csv")
		code, stderr := riskbatch(t, "eval", "--pass-through", in, "-o", out, "-q")
		if code == exitUsage {
			t.Errorf("%s: exit %d: %s", in, code, stderr)
			continue
		}
		wantHeader, wantRows := readTable(t, in)
		gotHeader, gotRows := readTable(t, out)
		if !reflect.DeepEqual(gotHeader[:len(wantHeader)], wantHeader) || len(gotRows) != len(wantRows) {
			t.Errorf("%s: header %q and %d rows, want %q and %d", in, gotHeader, len(gotRows), wantHeader, len(wantRows))
			continue
		}
		for i := range wantRows {
			if got := gotRows[i][:len(wantHeader)]; !reflect.DeepEqual(got, wantRows[i]) {
				t.Errorf("%s: row %d: %#v, want %#v", filepath.Base(in), i+2, got, wantRows[i])
			}
		}
	}
	if read < 10 {
		t.Errorf("only %d corpus files read", read)
	}
}

// LibreOffice set to German writes CSV with semicolons and decimal
// commas; riskbatch reads it to the same values as the workbook it came
// from, so every bound agrees.
func TestLibreOfficeGermanCSV(t *testing.T) {
	testenv.SkipUnlessLong(t, "a LibreOffice conversion")
	dir := t.TempDir()
	book := filepath.Join(dir, "de.xlsx")
	f := excelize.NewFile()
	rows := [][]any{
		{"id", "epsilon", "delta", "sigma", "baseline"},
		{"Müller", 1.5, 1e-5, nil, 0.1},
		{"b", nil, nil, 2.5, 0.25},
		{"c", 1234.5, 0, nil, 0.5},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		f.SetSheetRow("Sheet1", cell, &r)
	}
	if err := f.SaveAs(book); err != nil {
		t.Fatal(err)
	}
	// 59,34,76,1: semicolons, double quotes, UTF-8, from line 1; the
	// German locale makes LibreOffice write decimal commas.
	testfiles.Convert(t, []string{"LC_ALL=de_DE.UTF-8", "LANG=de_DE.UTF-8"}, "csv:Text - txt - csv (StarCalc):59,34,76,1", filepath.Join(dir, "csv"), book)
	csvPath := filepath.Join(dir, "csv", "de.csv")
	data, _ := os.ReadFile(csvPath)
	if !strings.Contains(string(data), "1,5;0,00001") || !strings.Contains(string(data), "Müller") {
		t.Fatalf("LibreOffice did not write German CSV:\n%s", data)
	}
	fromBook, fromCSV := filepath.Join(dir, "book-out.csv"), filepath.Join(dir, "csv-out.csv")
	for _, run := range [][2]string{{book, fromBook}, {csvPath, fromCSV}} {
		if code, stderr := riskbatch(t, "eval", run[0], "-o", run[1], "-q"); code != exitOK {
			t.Fatalf("%s: exit %d: %s", run[0], code, stderr)
		}
	}
	wantHeader, want := readAll(t, fromBook)
	header, got := readAll(t, fromCSV)
	if !reflect.DeepEqual(header, wantHeader) || len(got) != len(want) {
		t.Fatalf("header %q, %d rows; want %q, %d", header, len(got), wantHeader, len(want))
	}
	inputs := len(rows[0])
	for i := range want {
		if got[i][0] != want[i][0] {
			t.Errorf("row %d: id %q, want %q", i+2, got[i][0], want[i][0])
		}
		for j := inputs; j < len(header); j++ {
			if !sameValue(got[i][j], want[i][j]) {
				t.Errorf("row %d, %s: %q from the CSV, %q from the workbook", i+2, header[j], got[i][j], want[i][j])
			}
		}
	}
}

// readRows reads the rows of the first table of a workbook that read
// without error, with their positions.
func readRows(t *testing.T, path string) ([]table.Column, []table.Row) {
	t.Helper()
	voc := release.NewVocabulary()
	tables, err := readers.Open(path, readers.Options{
		Accept: voc.Recognizes,
		Known:  func(n string) bool { _, ok := voc.Lookup(n); return ok },
	})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer func() {
		for _, tb := range tables {
			tb.Close()
		}
	}()
	var rows []table.Row
	for {
		r, err := tables[0].Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue // an error row: its cells are not compared
		}
		rows = append(rows, r)
	}
	return tables[0].Columns(), rows
}

// dateClass says whether a cell's number format shows a date or time.
func dateClass(t *testing.T, f *excelize.File, sheet, ref string) bool {
	t.Helper()
	s, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(s)
	if err != nil || st == nil {
		return false
	}
	if st.CustomNumFmt != nil {
		code := strings.ToLower(*st.CustomNumFmt)
		return strings.ContainsAny(code, "ydhs") && !strings.Contains(code, "[h]")
	}
	return st.NumFmt >= 14 && st.NumFmt <= 22 || st.NumFmt >= 45 && st.NumFmt <= 47
}

// TestXLSXPassThroughRoundTrip writes every workbook of the readers'
// corpus back with --pass-through and compares, cell by cell, what
// riskbatch reads (value, type and formula) and what excelize sees (cell
// type, formula, and a date format or not). Rows that cannot be read
// (formulas that cannot be computed) are kept as error rows, and not
// compared.
func TestXLSXPassThroughRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"formulas.xlsx", "formulas-lo.xlsx", "dates.xlsx", "dates1904.xlsx", "header.xlsx", "macro.xlsm"} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("..", "..", "readers", "testdata", name)
			out := filepath.Join(t.TempDir(), "out.xlsx")
			if code, stderr := riskbatch(t, "eval", in, "--pass-through", "-q", "-o", out); code != 0 && code != exitRowErrors {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			inCols, inRows := readRows(t, in)
			_, outRows := readRows(t, out)
			if len(outRows) < len(inRows) {
				t.Fatalf("%d rows read back, want at least %d", len(outRows), len(inRows))
			}
			fin := testfiles.OpenXLSX(t, in)
			fout := testfiles.OpenXLSX(t, out)
			inSheet, outSheet := fin.GetSheetName(0), fout.GetSheetName(0)
			// Output rows follow the input's rows that read, in order; the
			// error rows of the input are output rows too.
			o := 0
			for _, r := range inRows {
				for o < len(outRows) && outRows[o].Cells[0] != r.Cells[0] {
					o++
				}
				if o == len(outRows) {
					t.Fatalf("input row %d (%v) is not in the output", r.Pos.Row, r.Cells[0])
				}
				got := outRows[o]
				for j, c := range r.Cells {
					want := c
					if want.Formula != "" && got.Cells[j].Formula != "" {
						// A formula that refers to its own row moves with it.
						want.Formula = strings.ReplaceAll(want.Formula, itoa(r.Pos.Row), itoa(got.Pos.Row))
					}
					if !reflect.DeepEqual(got.Cells[j], want) {
						t.Errorf("%s row %d: %+v, read back as %+v", inCols[j].Name, r.Pos.Row, c, got.Cells[j])
					}
					inRef := table.ColumnLetter(j) + itoa(r.Pos.Row)
					outRef := table.ColumnLetter(j) + itoa(got.Pos.Row)
					inType, _ := fin.GetCellType(inSheet, inRef)
					outType, _ := fout.GetCellType(outSheet, outRef)
					inFormula, _ := fin.GetCellFormula(inSheet, inRef)
					outFormula, _ := fout.GetCellFormula(outSheet, outRef)
					cached, _ := fin.GetCellValue(inSheet, inRef, excelize.Options{RawCellValue: true})
					number := func(t excelize.CellType) bool { return t == excelize.CellTypeNumber || t == excelize.CellTypeUnset }
					if cached != "" && inType != outType && !(number(inType) && number(outType)) && !(c.Kind == table.Text && outType == excelize.CellTypeInlineString) && !(c.Formula != "" && c.Kind == table.Text) {
						t.Errorf("%s: cell type %v, written as %v", inRef, inType, outType)
					}
					if (inFormula == "") != (outFormula == "") {
						t.Errorf("%s: formula %q, written as %q", inRef, inFormula, outFormula)
					}
					if c.Kind != table.Empty && dateClass(t, fin, inSheet, inRef) != dateClass(t, fout, outSheet, outRef) {
						t.Errorf("%s: a date format: %v, written with one: %v", inRef, dateClass(t, fin, inSheet, inRef), dateClass(t, fout, outSheet, outRef))
					}
				}
				o++
			}
		})
	}
}

// TestXLSXFormulaEvaluated runs a row once misread: compositions
// given as =2*5 without a cached value (openpyxl) is evaluated with 10
// compositions, as the same row with compositions 10 typed in, and the
// formula survives in the output workbook.
func TestXLSXFormulaEvaluated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join("..", "..", "readers", "testdata", "formulas.xlsx")
	out := filepath.Join(dir, "out.xlsx")
	code, stderr := riskbatch(t, "eval", in, "-q", "-o", out)
	if code != exitRowErrors { // rows 9–14 cannot be computed, on purpose
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csvIn := filepath.Join(dir, "typed.csv")
	if err := os.WriteFile(csvIn, []byte("id,epsilon,compositions,delta,note\nconst,0.5,10,1e-06,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	csvOut := filepath.Join(dir, "typed-out.csv")
	if code, stderr := riskbatch(t, "eval", csvIn, "-q", "-o", csvOut); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, rows := readAll(t, out)
	wantHeader, wantRows := readAll(t, csvOut)
	if !reflect.DeepEqual(header, wantHeader) {
		t.Fatalf("header %q, want %q", header, wantHeader)
	}
	status := column(header, "status")
	for j := status; j < len(header); j++ {
		if !sameValue(rows[0][j], wantRows[0][j]) {
			t.Errorf("%s: %q with =2*5, %q with 10", header[j], rows[0][j], wantRows[0][j])
		}
	}
	// And the compositions matter: with one, the bounds differ.
	if err := os.WriteFile(csvIn, []byte("id,epsilon,compositions,delta,note\nconst,0.5,1,1e-06,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := riskbatch(t, "eval", csvIn, "-q", "-o", csvOut); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, oneRows := readAll(t, csvOut)
	differ := 0
	for j := status + 2; j < len(header); j++ {
		if !sameValue(oneRows[0][j], wantRows[0][j]) {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("no bound depends on compositions: %q", wantRows[0])
	}
	f := testfiles.OpenXLSX(t, out)
	sheet := f.GetSheetName(0)
	if formula, _ := f.GetCellFormula(sheet, "C2"); formula != "2*5" {
		t.Errorf("C2 formula %q, want 2*5", formula)
	}
	if v, _ := f.GetCellValue(sheet, "C2", excelize.Options{RawCellValue: true}); v != "10" {
		t.Errorf("C2 value %q, want 10", v)
	}
	// Row 9's error names the cell and the formula.
	msg := rows[7][status+1]
	if !strings.Contains(msg, "column C (compositions): the formula =WEBSERVICE") || !strings.Contains(msg, "in cell C9") {
		t.Errorf("row 9 message %q", msg)
	}
}

// TestXLSXHeaderNote checks the line that says which row a sheet's header
// was taken from.
func TestXLSXHeaderNote(t *testing.T) {
	in := filepath.Join("..", "..", "readers", "testdata", "header.xlsx")
	out := filepath.Join(t.TempDir(), "out.csv")
	code, stderr := riskbatch(t, "eval", in, "-q", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "riskbatch: " + in + ", sheet Q3: header on row 3; rows 1–2 above it are not read\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	header, rows := readAll(t, out)
	if len(rows) != 2 || header[0] != "id" || rows[0][0] != "r1" || rows[1][0] != "r2" {
		t.Errorf("header %q, rows %q", header, rows)
	}
}
