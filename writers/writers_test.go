package writers

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/table"
)

// The sample table: inputs of every kind, then status, message and two
// outputs with notes.
const (
	fdpNote = "fdp_success = Φ(−μ/2 + ε/μ)·… ≤ 1\nSource: Dong, Roth & Su (2022), Theorem 2.2"
	muNote  = "μ = √(2·ln(1.25/δ))/σ — Balle & Wang (2018)"
)

func sampleCols() []table.Column {
	return []table.Column{
		{Name: "release", Kind: table.Text},                                                                     // A
		{Name: "epsilon", Kind: table.Number, Format: table.Real},                                               // B
		{Name: "n", Kind: table.Integer, Format: table.Count},                                                   // C
		{Name: "public", Kind: table.Bool},                                                                      // D
		{Name: "comment", Kind: table.Empty},                                                                    // E: unknown type
		{Name: "status", Kind: table.Text, Role: table.Status},                                                  // F
		{Name: "message", Kind: table.Text, Role: table.Message},                                                // G
		{Name: "fdp_success", Kind: table.Number, Role: table.Output, Format: table.Probability, Note: fdpNote}, // H
		{Name: "mu", Kind: table.Number, Role: table.Output, Format: table.Real, Note: muNote},                  // I
	}
}

// Short cell constructors for the tables below.
func num(v float64) table.Cell { return table.NumberCell(v) }
func integ(v int64) table.Cell { return table.IntegerCell(v) }
func text(s string) table.Cell { return table.TextCell(s) }
func boo(b bool) table.Cell    { return table.BoolCell(b) }
func empty() table.Cell        { return table.Cell{} }

func sampleRows() [][]table.Cell {
	return [][]table.Cell{
		{text("q1"), num(1), integ(1000), boo(true), text("note"), text("ok"), empty(), num(0.05), num(1.25)},
		{text("q2"), num(0.5), empty(), boo(false), integ(7), text("partial"), text("n missing: fdp_success needs n"), num(1e-300), empty()},
		{text("q3"), empty(), integ(10), empty(), empty(), text("error"), text("epsilon: missing"), empty(), empty()},
		{text("q4 ünïcødé, \"quoted\"\tand\nnewline"), text("abc"), num(12), text("yes"), num(2.5), text("ok"), empty(), integ(1), num(3.5)},
		{text("q5"), num(1e-7), num(12.5), boo(true), empty(), text("partial"), empty(), num(5e-324), text("  ")},
		{text("q6"), num(2), integ(1 << 60), boo(false), text("  "), text("ok"), empty(), num(0.999), integ(1<<53 + 1)},
	}
}

// nulledInSample is how many sample cells Parquet cannot represent: "abc"
// as a number, "yes" as a bool, 12.5 as an integer, 2^53+1 as a float64.
const nulledInSample = 4

func sampleDocs() [][]string {
	return [][]string{
		{"column", "role", "meaning"},
		{"fdp_success", "output", fdpNote},
		{"mu", "output", muNote},
	}
}

// writeTable writes cols and rows to path and closes the writer.
func writeTable(t *testing.T, path string, opts Options, cols []table.Column, rows [][]table.Cell) Writer {
	t.Helper()
	w := mustCreate(t, path, opts)
	fill(t, w, cols, rows)
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return w
}

// manyRows returns n rows that repeat sampleRows, each a copy of its own.
func manyRows(n int) [][]table.Cell {
	rows := make([][]table.Cell, n)
	for i := range rows {
		rows[i] = sampleRows()[i%len(sampleRows())]
	}
	return rows
}

// sameRows compares the rows read back, got, with want, cell by cell;
// first is the number of want's first row in messages.
func sameRows[T comparable](t *testing.T, cols []table.Column, got, want [][]T, first int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("row %d, %s: %#v, want %#v", first+i, cols[j].Name, got[i][j], want[i][j])
			}
		}
	}
}

// mustCreate is Create, failing the test on an error.
func mustCreate(t *testing.T, path string, opts Options) Writer {
	t.Helper()
	w, err := Create(path, opts)
	if err != nil {
		t.Fatalf("Create(%s): %v", path, err)
	}
	return w
}

// writeSheets is writeTable for an XLSX workbook whose sheets hold
// maxRows rows each, the header included (so that a few rows continue on
// further sheets).
func writeSheets(t *testing.T, path string, opts Options, maxRows int, cols []table.Column, rows [][]table.Cell) {
	t.Helper()
	w := mustCreate(t, path, opts)
	w.(*xlsxWriter).maxRows = maxRows
	fill(t, w, cols, rows)
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// headerError returns the error of writing the header cols with a writer
// of path made with opts, which it then aborts.
func headerError(t *testing.T, path string, opts Options, cols []table.Column) error {
	t.Helper()
	w := mustCreate(t, path, opts)
	defer w.Abort()
	return w.WriteHeader(cols)
}

// fill writes the header and the rows.
func fill(t *testing.T, w Writer, cols []table.Column, rows [][]table.Cell) {
	t.Helper()
	if err := w.WriteHeader(cols); err != nil {
		t.Fatalf("WriteHeader: %v", err)
	}
	for i, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write row %d: %v", i+1, err)
		}
	}
}

// dirNames lists a directory, sorted by name (as os.ReadDir sorts).
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names
}

func TestFormatOf(t *testing.T) {
	for _, tc := range []struct{ path, format, want string }{
		{"a.csv", "", "csv"},
		{"dir.x/A.TSV", "", "tsv"},
		{"a.XLSX", "", "xlsx"},
		{"a.parquet", "", "parquet"},
		{"a.dat", "CSV", "csv"},
		{"a.csv", ".parquet", "parquet"},
	} {
		got, err := FormatOf(tc.path, tc.format)
		if err != nil || got != tc.want {
			t.Errorf("FormatOf(%q, %q) = %q, %v; want %q", tc.path, tc.format, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ path, format string }{{"a.txt", ""}, {"a", ""}, {"a.csv", "json"}, {"a.xls", ""}} {
		_, err := FormatOf(tc.path, tc.format)
		if err == nil || !strings.Contains(err.Error(), "csv") || !strings.Contains(err.Error(), "parquet") {
			t.Errorf("FormatOf(%q, %q): error %v should list the formats", tc.path, tc.format, err)
		}
	}
	dir := t.TempDir()
	if _, err := Create(filepath.Join(dir, "out.txt"), Options{}); err == nil {
		t.Error("Create accepted .txt")
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("a refused Create left %v", names)
	}
}

func TestCSVAndTSV(t *testing.T) {
	for _, tc := range []struct {
		name string
		sep  rune
	}{{"out.csv", ','}, {"out.tsv", '\t'}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.name)
			writeTable(t, path, Options{Docs: sampleDocs()}, sampleCols(), sampleRows())
			recs := readback.ReadCSV(t, path, tc.sep)
			rows := sampleRows()
			if len(recs) != 1+len(rows) {
				t.Fatalf("%d records, want %d", len(recs), 1+len(rows))
			}
			for i, c := range sampleCols() {
				if recs[0][i] != c.Name {
					t.Errorf("header %d = %q, want %q", i, recs[0][i], c.Name)
				}
			}
			for i, row := range rows {
				for j, c := range row {
					if got, want := recs[i+1][j], c.String(); got != want {
						t.Errorf("row %d col %d = %q, want %q", i+1, j, got, want)
					}
				}
			}
			// The forms that matter, spelled out.
			for _, chk := range []struct {
				row, col int
				want     string
			}{
				{2, 7, "1e-300"}, {5, 7, "5e-324"}, {1, 7, "0.05"}, {2, 2, ""}, {3, 1, ""},
				{1, 3, "true"}, {6, 2, "1152921504606846976"}, {4, 0, "q4 ünïcødé, \"quoted\"\tand\nnewline"},
				{3, 5, "error"}, {6, 4, "  "},
			} {
				if got := recs[chk.row][chk.col]; got != chk.want {
					t.Errorf("record %d field %d = %q, want %q", chk.row, chk.col, got, chk.want)
				}
			}
		})
	}
}

// readParquet reads a Parquet file with pqarrow: its Arrow schema, its rows
// (nil for a null), its number of row groups and the codec of its first
// column chunk.
func readParquet(t *testing.T, path string) (*arrow.Schema, [][]any, int, compress.Compression) {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var rows [][]any
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				col := rec.Column(c)
				if col.IsNull(r) {
					continue
				}
				switch a := col.(type) {
				case *array.Float64:
					row[c] = a.Value(r)
				case *array.Int64:
					row[c] = a.Value(r)
				case *array.Boolean:
					row[c] = a.Value(r)
				case *array.String:
					row[c] = a.Value(r)
				default:
					t.Fatalf("column %d: unexpected array type %T", c, col)
				}
			}
			rows = append(rows, row)
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	codec := compress.Codecs.Uncompressed
	if rdr.NumRowGroups() > 0 {
		cc, err := rdr.MetaData().RowGroup(0).ColumnChunk(0)
		if err != nil {
			t.Fatal(err)
		}
		codec = cc.Compression()
	}
	return schema, rows, rdr.NumRowGroups(), codec
}

func TestParquet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.parquet")
	w := mustCreate(t, path, Options{})
	w.(*parquetWriter).rowGroupRows = 4 // 6 rows → two row groups
	fill(t, w, sampleCols(), sampleRows())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := w.(NullReporter).NulledCells(); n != nulledInSample {
		t.Errorf("NulledCells = %d, want %d", n, nulledInSample)
	}

	schema, rows, groups, codec := readParquet(t, path)
	wantTypes := []arrow.DataType{
		arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64,
		arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String, arrow.BinaryTypes.String,
		arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float64,
	}
	cols := sampleCols()
	if schema.NumFields() != len(cols) {
		t.Fatalf("%d fields, want %d", schema.NumFields(), len(cols))
	}
	for i, f := range schema.Fields() {
		if f.Name != cols[i].Name || !arrow.TypeEqual(f.Type, wantTypes[i]) || !f.Nullable {
			t.Errorf("field %d = %s %s nullable=%v, want %s %s nullable", i, f.Name, f.Type, f.Nullable, cols[i].Name, wantTypes[i])
		}
	}
	if note, ok := schema.Field(7).Metadata.GetValue(ParquetNoteKey); !ok || note != fdpNote {
		t.Errorf("fdp_success note = %q, %v", note, ok)
	}
	if role, _ := schema.Field(5).Metadata.GetValue(ParquetRoleKey); role != "status" {
		t.Errorf("status role = %q", role)
	}
	if format, _ := schema.Field(7).Metadata.GetValue(ParquetFormatKey); format != "probability" {
		t.Errorf("fdp_success format = %q", format)
	}
	if groups != 2 {
		t.Errorf("%d row groups, want 2", groups)
	}
	if codec != compress.Codecs.Snappy {
		t.Errorf("codec %v, want snappy", codec)
	}
	want := [][]any{
		{"q1", 1.0, int64(1000), true, "note", "ok", nil, 0.05, 1.25},
		{"q2", 0.5, nil, false, "7", "partial", "n missing: fdp_success needs n", 1e-300, nil},
		{"q3", nil, int64(10), nil, nil, "error", "epsilon: missing", nil, nil},
		{"q4 ünïcødé, \"quoted\"\tand\nnewline", nil, int64(12), nil, "2.5", "ok", nil, 1.0, 3.5},
		{"q5", 1e-7, nil, true, nil, "partial", nil, 5e-324, nil},
		{"q6", 2.0, int64(1 << 60), false, "  ", "ok", nil, 0.999, nil},
	}
	sameRows(t, cols, rows, want, 1)
}

func TestParquetConversions(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want bool
	}{{0, true}, {1 << 53, true}, {1<<53 + 1, false}, {math.MaxInt64, false}, {math.MinInt64, true}, {-(1 << 62), true}} {
		if got := exactFloat(tc.v); got != tc.want {
			t.Errorf("exactFloat(%d) = %v", tc.v, got)
		}
	}
	for _, tc := range []struct {
		v    float64
		want bool
	}{{0, true}, {-3, true}, {2.5, false}, {math.NaN(), false}, {math.Inf(1), false}, {1 << 63, false}, {-(1 << 63), true}, {1e300, false}} {
		if got := integral(tc.v); got != tc.want {
			t.Errorf("integral(%g) = %v", tc.v, got)
		}
	}
}

func TestLargeParquetAndCSV(t *testing.T) {
	t.Parallel()
	const n = 200_000
	dir := t.TempDir()
	cols := []table.Column{
		{Name: "id", Kind: table.Integer},
		{Name: "epsilon", Kind: table.Number},
		{Name: "status", Kind: table.Text, Role: table.Status},
		{Name: "message", Kind: table.Text, Role: table.Message},
		{Name: "fdp_success", Kind: table.Number, Role: table.Output, Format: table.Probability},
	}
	for _, name := range []string{"big.parquet", "big.csv"} {
		path := filepath.Join(dir, name)
		w := mustCreate(t, path, Options{})
		if err := w.WriteHeader(cols); err != nil {
			t.Fatal(err)
		}
		row := make([]table.Cell, len(cols))
		for i := 0; i < n; i++ {
			row[0] = integ(int64(i))
			row[1] = num(float64(i) / 1000)
			row[2], row[3], row[4] = text("ok"), empty(), num(math.Exp(-float64(i%700)))
			if i%10 == 0 {
				row[2], row[3], row[4] = text("error"), text("epsilon: must be positive"), empty()
			}
			if err := w.Write(row); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".parquet":
			rdr, err := file.OpenParquetFile(path, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := rdr.NumRows(); got != n {
				t.Errorf("%d rows, want %d", got, n)
			}
			want := (n + DefaultParquetRowGroupRows - 1) / DefaultParquetRowGroupRows
			if got := rdr.NumRowGroups(); got != want {
				t.Errorf("%d row groups, want %d", got, want)
			}
			rdr.Close()
		case ".csv":
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r := csv.NewReader(f)
			count := 0
			for {
				rec, err := r.Read()
				if err != nil {
					break
				}
				if count == n && rec[0] != strconv.Itoa(n-1) {
					t.Errorf("last id %q", rec[0])
				}
				count++
			}
			f.Close()
			if count != n+1 {
				t.Errorf("%d records, want %d", count, n+1)
			}
		}
	}
}

// TestAtomic checks, for every format, that the target appears only on
// Close, that Abort leaves nothing, and that an existing target is kept
// until Close replaces it (with its permissions).
func TestAtomic(t *testing.T) {
	for _, ext := range []string{".csv", ".tsv", ".xlsx", ".parquet"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out"+ext)
			w := mustCreate(t, path, Options{Docs: sampleDocs()})
			fill(t, w, sampleCols(), sampleRows())
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("target exists before Close: %v", err)
			}
			names := dirNames(t, dir)
			want := 1
			if ext == ".xlsx" {
				want = 2 // and excelize's folder for its spill files, removed by Close
			}
			own := TempPrefix + strconv.Itoa(os.Getpid()) + "-"
			if len(names) != want || !strings.HasPrefix(names[0], own) || !strings.HasPrefix(names[len(names)-1], own) {
				t.Errorf("while writing the directory holds %v, want %d entries %s…", names, want, own)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if names := dirNames(t, dir); len(names) != 1 || names[0] != "out"+ext {
				t.Errorf("after Close the directory holds %v", names)
			}
			if err := w.Abort(); err != nil {
				t.Errorf("Abort after Close: %v", err)
			}
			if err := w.Close(); err == nil {
				t.Error("second Close succeeded")
			}
			if err := w.Write(sampleRows()[0]); err == nil {
				t.Error("Write after Close succeeded")
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("Abort after Close removed the target: %v", err)
			}

			// Abort: nothing left, not even a target.
			other := filepath.Join(dir, "aborted"+ext)
			w = mustCreate(t, other, Options{})
			fill(t, w, sampleCols(), sampleRows())
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
			if err := w.Abort(); err != nil {
				t.Errorf("second Abort: %v", err)
			}
			if err := w.Close(); err == nil {
				t.Error("Close after Abort succeeded")
			}
			if names := dirNames(t, dir); len(names) != 1 || names[0] != "out"+ext {
				t.Errorf("after Abort the directory holds %v", names)
			}

			// An existing target is left alone until Close.
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, abort := range []bool{true, false} {
				w = mustCreate(t, path, Options{})
				fill(t, w, sampleCols(), sampleRows())
				if b, _ := os.ReadFile(path); string(b) != "old" {
					t.Fatal("target changed before Close")
				}
				if abort {
					if err := w.Abort(); err != nil {
						t.Fatal(err)
					}
					if b, _ := os.ReadFile(path); string(b) != "old" {
						t.Fatal("Abort changed the target")
					}
					continue
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Size() <= 3 {
					t.Error("Close did not replace the target")
				}
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("replaced target has mode %v, want the old 0600", fi.Mode().Perm())
				}
			}
			if names := dirNames(t, dir); len(names) != 1 {
				t.Errorf("the directory holds %v", names)
			}
		})
	}
}

// TestCloseFailure makes the rename fail (a directory has taken the
// target's place) and checks that the temporary file goes.
func TestCloseFailure(t *testing.T) {
	for _, ext := range []string{".csv", ".xlsx", ".parquet"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out"+ext)
			w := mustCreate(t, path, Options{})
			fill(t, w, sampleCols(), sampleRows())
			if err := os.MkdirAll(filepath.Join(path, "inside"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err == nil {
				t.Fatal("Close succeeded onto a directory")
			} else if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the target", err)
			}
			if names := dirNames(t, dir); len(names) != 1 || names[0] != "out"+ext {
				t.Errorf("after a failed Close the directory holds %v", names)
			}
			if err := w.Abort(); err != nil {
				t.Errorf("Abort after a failed Close: %v", err)
			}
		})
	}
}

// TestMisuse checks the errors of calls out of order; after one the
// writer is broken and Close leaves nothing behind.
func TestMisuse(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(filepath.Join(dir, "no", "such", "dir.csv"), Options{}); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
	if _, err := Create(dir+string(filepath.Separator), Options{Format: "csv"}); err == nil {
		t.Error("Create on a directory succeeded")
	}
	for _, ext := range []string{".csv", ".xlsx", ".parquet"} {
		path := filepath.Join(dir, "m"+ext)
		w := mustCreate(t, path, Options{})
		if err := w.Write(sampleRows()[0]); err == nil {
			t.Errorf("%s: Write before WriteHeader succeeded", ext)
		}
		if err := w.Close(); err == nil {
			t.Errorf("%s: Close of a broken writer succeeded", ext)
		}

		if err := headerError(t, path, Options{}, nil); err == nil {
			t.Errorf("%s: empty header accepted", ext)
		}

		w = mustCreate(t, path, Options{})
		if err := w.WriteHeader(sampleCols()); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteHeader(sampleCols()); err == nil {
			t.Errorf("%s: second header accepted", ext)
		}
		_ = w.Abort()

		w = mustCreate(t, path, Options{})
		if err := w.WriteHeader(sampleCols()); err != nil {
			t.Fatal(err)
		}
		if err := w.Write([]table.Cell{text("short")}); err == nil || !strings.Contains(err.Error(), "1 cells") {
			t.Errorf("%s: short row: %v", ext, err)
		}
		if err := w.Write(sampleRows()[0]); err == nil {
			t.Errorf("%s: broken writer accepted a row", ext)
		}
		if err := w.Close(); err == nil {
			t.Errorf("%s: Close of a broken writer succeeded", ext)
		}

		w = mustCreate(t, path, Options{})
		if err := w.Close(); err == nil {
			t.Errorf("%s: Close without a header succeeded", ext)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Fatalf("%s: misuse left %v", ext, names)
		}
	}
}

// TestCSVSingleEmptyField checks that a row of one empty cell survives:
// encoding/csv would write an empty line, which readers skip.
func TestCSVSingleEmptyField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.csv")
	writeTable(t, path, Options{}, []table.Column{{Name: "x"}}, [][]table.Cell{{empty()}, {text("a")}, {text("")}})
	recs := readback.ReadCSV(t, path, 0)
	if len(recs) != 4 || recs[1][0] != "" || recs[2][0] != "a" || recs[3][0] != "" {
		t.Errorf("records %q", recs)
	}
}
