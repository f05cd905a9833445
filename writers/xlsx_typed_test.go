package writers

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// typedCols and typedRows are input cells of every kind, with formulas.
func typedCols() []table.Column {
	names := []string{"id", "day", "at", "at_ms", "clock", "dec", "long_dec", "nested", "const", "same_row", "other_row", "old", "micro", "utc"}
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n, Role: table.Input}
	}
	return append(cols, table.Column{Name: "status", Role: table.Status}, table.Column{Name: "fdp_success", Role: table.Output, Format: table.Probability})
}

func withFormula(c table.Cell, f string) table.Cell { c.Formula = f; return c }

func typedRows() [][]table.Cell {
	row := func(id string) []table.Cell {
		return []table.Cell{
			text(id),
			table.DateCell(19724), // 2024-01-02
			table.TimestampCell(1704191400, table.Second),            // 2024-01-02 10:30:00
			table.TimestampCell(1704191401250, table.Millisecond),    // 2024-01-02 10:30:01.250
			table.TimeOfDayCell(37800, table.Second),                 // 10:30:00
			table.DecimalCell("12.340"),                              // a number shown 12.340
			table.DecimalCell("12345678901234567890.5"),              // more digits than a double: text
			table.NestedCell(`{"a":[1,2]}`),                          // JSON text
			withFormula(num(10), "2*5"),                              // no reference: kept
			withFormula(num(30), "I7*3"),                             // I7 is const on input row 7
			withFormula(num(1), "A6+1"),                              // another row: written as its value
			table.DateCell(-30000),                                   // 1887-11-12: before 1900, ISO text
			table.TimestampCell(1704191400000001, table.Microsecond), // a microsecond: ISO text
			table.TimestampCell(1704191400, table.Second.InUTC()),    // UTC: its UTC wall time
			text("ok"),
			num(0.25),
		}
	}
	return [][]table.Cell{row("r1"), row("r2")}
}

func TestXLSXTypedInputCells(t *testing.T) {
	path := filepath.Join(t.TempDir(), "typed.xlsx")
	cols, rows := typedCols(), typedRows()
	// The rows were read from sheet rows 7 and 9, their columns in order:
	// same_row's formula refers to const, in its own row.
	origin := make([]int, len(cols))
	for i := range origin {
		origin[i] = i
	}
	origin[len(cols)-1], origin[len(cols)-2] = -1, -1
	w := mustCreate(t, path, Options{})
	defer w.Abort()
	if err := w.WriteHeader(cols); err != nil {
		t.Fatal(err)
	}
	rows[1][9] = withFormula(num(30), "I9*3")
	for i, r := range rows {
		if err := w.(OriginWriter).WriteFrom(r, RowOrigin{Row: 7 + 2*i, Columns: origin}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// other_row of both rows could not be kept.
	if n := w.(FormulaReporter).FormulasAsValues(); n != 2 {
		t.Errorf("FormulasAsValues = %d, want 2", n)
	}

	f := testfiles.OpenXLSX(t, path)
	type want struct {
		ref, raw, formula, format string
		typ                       excelize.CellType
	}
	for _, c := range []want{
		{"B2", "45293", "", "yyyy-mm-dd", excelize.CellTypeUnset},
		{"C2", "45293.4375", "", "yyyy-mm-dd hh:mm:ss", excelize.CellTypeUnset},
		{"D2", "45293.437514467594", "", "yyyy-mm-dd hh:mm:ss.000", excelize.CellTypeUnset},
		{"E2", "0.4375", "", "hh:mm:ss", excelize.CellTypeUnset},
		{"F2", "12.34", "", "0.000", excelize.CellTypeUnset},
		{"G2", "12345678901234567890.5", "", "", excelize.CellTypeInlineString},
		{"H2", `{"a":[1,2]}`, "", "", excelize.CellTypeInlineString},
		{"I2", "10", "2*5", "", excelize.CellTypeUnset},
		{"J2", "30", "I2*3", "", excelize.CellTypeUnset},
		{"J3", "30", "I3*3", "", excelize.CellTypeUnset},
		{"K2", "1", "", "", excelize.CellTypeUnset},
		{"L2", "1887-11-12", "", "", excelize.CellTypeInlineString},
		{"M2", "2024-01-02T10:30:00.000001", "", "", excelize.CellTypeInlineString},
		{"N2", "45293.4375", "", "yyyy-mm-dd hh:mm:ss", excelize.CellTypeUnset},
	} {
		raw, _ := f.GetCellValue(DefaultSheetName, c.ref, excelize.Options{RawCellValue: true})
		formula, _ := f.GetCellFormula(DefaultSheetName, c.ref)
		typ, _ := f.GetCellType(DefaultSheetName, c.ref)
		format := ""
		if st := testfiles.StyleOf(t, f, DefaultSheetName, c.ref); st != nil && st.CustomNumFmt != nil {
			format = *st.CustomNumFmt
		}
		if raw != c.raw || formula != c.formula || format != c.format || typ != c.typ {
			t.Errorf("%s: %q =%q format %q type %v; want %q =%q format %q type %v", c.ref, raw, formula, format, typ, c.raw, c.formula, c.format, c.typ)
		}
	}

	// riskbatch's reader gives the cells back, as far as a workbook keeps
	// them: a decimal as its number, a nested value as its text, a
	// timestamp as a wall time.
	tables, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	got := readback.AllRows(t, tables[0])
	if len(got) != len(rows) {
		t.Fatalf("read back %d rows, want %d", len(got), len(rows))
	}
	wantCells := []table.Cell{
		text("r1"), table.DateCell(19724), table.TimestampCell(1704191400, table.Second),
		table.TimestampCell(1704191401250, table.Millisecond), table.TimeOfDayCell(37800, table.Second),
		num(12.34), text("12345678901234567890.5"), text(`{"a":[1,2]}`), withFormula(num(10), "2*5"),
		withFormula(num(30), "I2*3"), num(1), text("1887-11-12"), text("2024-01-02T10:30:00.000001"),
		table.TimestampCell(1704191400, table.Second), text("ok"), num(0.25),
	}
	if !reflect.DeepEqual(got[0], wantCells) {
		t.Errorf("read back\n got %+v\nwant %+v", got[0], wantCells)
	}
}

// dimensions returns the <dimension ref> of every worksheet part.
func dimensions(t *testing.T, path string) map[string]string {
	t.Helper()
	re := regexp.MustCompile(`<dimension ref="([^"]*)"`)
	out := map[string]string{}
	for _, name := range testfiles.ZipNames(t, path) {
		if !strings.HasPrefix(name, "xl/worksheets/") || !strings.HasSuffix(name, ".xml") {
			continue
		}
		m := re.FindSubmatch(testfiles.ZipPart(t, path, name))
		if m == nil {
			t.Errorf("%s has no dimension", name)
			continue
		}
		out[name] = string(m[1])
	}
	return out
}

// usedRange is the range a sheet's cells span, as excelize reads them.
func usedRange(t *testing.T, f *excelize.File, sheet string) string {
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	return "A1:" + table.ColumnLetter(cols-1) + strconv.Itoa(len(rows))
}

func TestXLSXDimension(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dim.xlsx")
	cols, rows := sampleCols(), sampleRows()
	writeSheets(t, path, Options{Docs: sampleDocs(), Summary: func() [][]string { return [][]string{{"a", "b", "c"}, {"1"}} }}, 3, cols, rows) // two data rows per sheet
	f := testfiles.OpenXLSX(t, path)
	dims := dimensions(t, path)
	sheets := f.GetSheetList()
	if len(dims) != len(sheets) || len(sheets) < 4 {
		t.Fatalf("sheets %v, dimensions %v", sheets, dims)
	}
	for _, s := range sheets {
		want := usedRange(t, f, s)
		got, err := f.GetSheetDimension(s)
		if err != nil || got != want {
			t.Errorf("sheet %s declares %q, holds %s", s, got, want)
		}
	}
}

func TestXLSXTemporaryFilesBesideOutput(t *testing.T) {
	sys := t.TempDir()
	t.Setenv("TMPDIR", sys)
	dir := t.TempDir()
	path := filepath.Join(dir, "big.xlsx")
	w := mustCreate(t, path, Options{})
	defer w.Abort()
	if err := w.WriteHeader([]table.Column{{Name: "text"}}); err != nil {
		t.Fatal(err)
	}
	// 1,200 rows of 16 KB: the sheet outgrows the 16 MiB excelize holds
	// in memory and spills to a temporary file.
	long := text(strings.Repeat("x", 16<<10))
	for range 1200 {
		if err := w.Write([]table.Cell{long}); err != nil {
			t.Fatal(err)
		}
	}
	if names := dirNames(t, sys); len(names) != 0 {
		t.Errorf("the system's temporary folder holds %v", names)
	}
	var spill []string
	for _, n := range dirNames(t, dir) {
		if strings.HasPrefix(n, TempPrefix) {
			m, _ := filepath.Glob(filepath.Join(dir, n, "excelize-*"))
			spill = append(spill, m...)
		}
	}
	if len(spill) == 0 {
		t.Errorf("no excelize temporary file beside the output: %v", dirNames(t, dir))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"big.xlsx"}) {
		t.Errorf("after Close the folder holds %v", names)
	}
}

// TestXLSXReadByOthers checks that openpyxl (in normal and read-only
// mode, which trusts the declared dimension), pandas and LibreOffice read
// every row and column of a workbook with typed cells, with its values.
// LibreOffice's part runs with RISKBATCH_LONG_TESTS=1 (TestXLSXWithLibreOffice
// opens a workbook in it by default).
func TestXLSXReadByOthers(t *testing.T) {
	t.Parallel() // Python runs while the other tests do
	python := testenv.Python(t, "openpyxl", "pandas")
	dir := t.TempDir()
	path := filepath.Join(dir, "typed.xlsx")
	cols := typedCols()
	rows := typedRows()
	writeTable(t, path, Options{Docs: sampleDocs()}, cols, rows)
	script := `
import json, sys, openpyxl, pandas
path = sys.argv[1]
out = {}
for ro in (False, True):
    wb = openpyxl.load_workbook(path, read_only=ro, data_only=True)
    ws = wb["Results"]
    out["openpyxl_ro" if ro else "openpyxl"] = [[None if v is None else str(v) for v in r] for r in ws.iter_rows(values_only=True)]
df = pandas.read_excel(path, sheet_name="Results")
out["pandas_shape"] = list(df.shape)
out["pandas_day"] = str(df["day"][0])
out["pandas_dec"] = float(df["dec"][0])
print(json.dumps(out))
`
	cmd := exec.Command(python, "-c", script, path)
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var got struct {
		Openpyxl, OpenpyxlRO [][]*string
		PandasShape          []int   `json:"pandas_shape"`
		PandasDay            string  `json:"pandas_day"`
		PandasDec            float64 `json:"pandas_dec"`
	}
	if err := json.Unmarshal(bytes.ReplaceAll(data, []byte(`"openpyxl_ro"`), []byte(`"OpenpyxlRO"`)), &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	for name, sheet := range map[string][][]*string{"openpyxl": got.Openpyxl, "openpyxl read-only": got.OpenpyxlRO} {
		if len(sheet) != len(rows)+1 {
			t.Fatalf("%s sees %d rows, want %d", name, len(sheet), len(rows)+1)
		}
		for i, r := range sheet {
			if len(r) != len(cols) {
				t.Errorf("%s row %d has %d columns, want %d", name, i+1, len(r), len(cols))
			}
		}
		if v := sheet[1][1]; v == nil || *v != "2024-01-02 00:00:00" {
			t.Errorf("%s reads day as %v", name, v)
		}
		if v := sheet[1][8]; v == nil || *v != "10" {
			t.Errorf("%s reads const as %v", name, v)
		}
	}
	if !reflect.DeepEqual(got.PandasShape, []int{len(rows), len(cols)}) || got.PandasDay != "2024-01-02 00:00:00" || got.PandasDec != 12.34 {
		t.Errorf("pandas: shape %v, day %q, dec %v", got.PandasShape, got.PandasDay, got.PandasDec)
	}

	if !testenv.Long() {
		t.Logf("LibreOffice's part runs with %s=1", testenv.LongEnv)
		return
	}
	outDir := filepath.Join(dir, "csv")
	testfiles.Convert(t, nil, "csv:Text - txt - csv (StarCalc):44,34,76", outDir, path)
	recs := readback.ReadCSV(t, filepath.Join(outDir, "typed.csv"), 0)
	want := []string{"r1", "2024-01-02", "2024-01-02 10:30:00", "2024-01-02 10:30:01.250", "10:30:00", "12.340",
		"12345678901234567890.5", `{"a":[1,2]}`, "10", "30", "1", "1887-11-12", "2024-01-02T10:30:00.000001", "2024-01-02 10:30:00", "ok"}
	if len(recs) != len(rows)+1 || !reflect.DeepEqual(recs[1][:len(want)], want) {
		t.Errorf("LibreOffice reads %q\nwant %q", recs, want)
	}
}
