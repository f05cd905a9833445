package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// readRows reads the rows of the first table of a workbook that read
// without error, with their positions.
func readRows(t *testing.T, path string) ([]table.Column, []table.Row) {
	t.Helper()
	voc := evaluate.NewVocabulary()
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
			fin, err := excelize.OpenFile(in)
			if err != nil {
				t.Fatal(err)
			}
			defer fin.Close()
			fout, err := excelize.OpenFile(out)
			if err != nil {
				t.Fatal(err)
			}
			defer fout.Close()
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

// TestXLSXFormulaEvaluated runs the row the issue reports: compositions
// given as =2*5 without a cached value (openpyxl) is evaluated with 10
// compositions, as the same row with compositions 10 typed in, and the
// formula survives in the output workbook.
func TestXLSXFormulaEvaluated(t *testing.T) {
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
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
