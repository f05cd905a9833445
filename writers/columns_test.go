package writers

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/table"
)

// columnsCase is a table of input columns as Arrow arrays (with the
// column each describes, typed as a reader would describe it), then a
// status column of cells: the rows' cells are the arrays' values as
// readers.ArrowCells makes them.
type columnsCase struct {
	cols   []table.Column
	arrays []arrow.Array
	rows   [][]table.Cell // every cell
}

// newColumnsCase builds a columnsCase of n rows from JSON arrays, one per
// type, cycled to n values.
func newColumnsCase(t *testing.T, n int, specs []columnSpec) columnsCase {
	t.Helper()
	var c columnsCase
	for _, s := range specs {
		vals := strings.Split(s.json, "|")
		var b strings.Builder
		b.WriteString("[")
		for r := range n {
			if r > 0 {
				b.WriteString(",")
			}
			b.WriteString(vals[r%len(vals)])
		}
		b.WriteString("]")
		arr, _, err := array.FromJSON(memory.DefaultAllocator, s.dt, strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		t.Cleanup(arr.Release)
		col := table.Column{Name: s.name, Kind: s.kind, Role: table.Input}
		if s.typed {
			col.Source = s.dt
		}
		c.cols = append(c.cols, col)
		c.arrays = append(c.arrays, arr)
	}
	c.cols = append(c.cols, table.Column{Name: "status", Kind: table.Text, Role: table.Status})
	c.arrays = append(c.arrays, nil)
	for r := range n {
		row := make([]table.Cell, len(c.cols))
		for i, arr := range c.arrays[:len(specs)] {
			cell, err := readers.ArrowCells(arr)
			if err != nil {
				t.Fatal(err)
			}
			if row[i], err = cell(r); err != nil {
				t.Fatal(err)
			}
		}
		row[len(specs)] = table.TextCell([]string{"ok", "error", "partial"}[r%3])
		c.rows = append(c.rows, row)
	}
	return c
}

// columnSpec is a column of a columnsCase: its values as JSON separated by
// "|", its kind, and whether it carries its Arrow type as Source (a
// Parquet input's column).
type columnSpec struct {
	name  string
	dt    arrow.DataType
	kind  table.Kind
	typed bool
	json  string
}

// writeColumns writes c with w: by Write, row by row, or by WriteColumns
// in runs of run rows, the input columns as arrays and their cells empty.
func writeColumns(t *testing.T, w Writer, c columnsCase, run int) {
	t.Helper()
	if err := w.WriteHeader(c.cols); err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(c.rows); start += run {
		end := min(start+run, len(c.rows))
		if run == 0 {
			for _, row := range c.rows {
				if err := w.Write(row); err != nil {
					t.Fatal(err)
				}
			}
			break
		}
		part := make([][]table.Cell, 0, end-start)
		for _, row := range c.rows[start:end] {
			cells := make([]table.Cell, len(row))
			cells[len(row)-1] = row[len(row)-1]
			part = append(part, cells)
		}
		arrays := make([]arrow.Array, len(c.arrays))
		for i, a := range c.arrays {
			if a != nil {
				arrays[i] = array.NewSlice(a, int64(start), int64(end))
				defer arrays[i].Release()
			}
		}
		if err := w.(ColumnsWriter).WriteColumns(part, arrays); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestParquetWriteColumns checks that columns given to WriteColumns as
// arrays are written as Write writes the cells a reader makes of them:
// the same schema and the same values, nulls included, in runs of 3 and
// 7 rows across row groups of 5, with a column given as an array of
// Arrow's Null type (empty cells).
func TestParquetWriteColumns(t *testing.T) {
	specs := []columnSpec{
		{"text", arrow.BinaryTypes.String, table.Text, false, `"a"|""|null|" 1.5 "|"x,y"`},
		{"count", arrow.PrimitiveTypes.Int64, table.Integer, true, `1|null|-9223372036854775808|0`},
		{"ratio", arrow.PrimitiveTypes.Float64, table.Number, true, `0.1|null|1e300|-0.0`},
		{"small", arrow.PrimitiveTypes.Float32, table.Number, true, `0.1|null|3`},
		{"day", arrow.FixedWidthTypes.Date32, table.Date, true, `19000|null|-1`},
		{"at", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, table.Timestamp, true, `"2024-01-02T03:04:05.123456789Z"|null`},
		{"amount", &arrow.Decimal128Type{Precision: 9, Scale: 2}, table.Decimal, true, `"1.50"|null|"-0.01"`},
		{"flag", arrow.FixedWidthTypes.Boolean, table.Bool, true, `true|null|false`},
		{"none", arrow.Null, table.Number, false, `null`},
	}
	c := newColumnsCase(t, 23, specs)
	dir := t.TempDir()
	for i := range c.arrays {
		if c.arrays[i] == nil {
			continue
		}
		w := mustCreate(t, filepath.Join(dir, "probe.parquet"), Options{}).(*parquetWriter)
		if err := w.WriteHeader(c.cols); err != nil {
			t.Fatal(err)
		}
		if !w.TakesArray(i, c.arrays[i].DataType()) {
			t.Errorf("column %s: %s not taken", c.cols[i].Name, c.arrays[i].DataType())
		}
		_ = w.Abort()
	}
	sameRunTables(t, dir, c, 5, 3, 7)
	// Runs of one and two rows in row groups of 128: the columns' small
	// chunks are merged (coalesce), the values the same.
	sameRunTables(t, dir, newColumnsCase(t, 300, specs), 128, 1, 2)
	// Runs as long as a batch (kept as they come, not merged), and runs
	// that end a row group within them.
	sameRunTables(t, dir, newColumnsCase(t, 1500, specs), 1024, largeChunkRows, 300)
}

// sameRunTables checks that c written in runs of each length of runs, in row
// groups of groupRows, is c written row by row.
func sameRunTables(t *testing.T, dir string, c columnsCase, groupRows int, runs ...int) {
	t.Helper()
	want := parquetTable(t, filepath.Join(dir, "rows.parquet"), c, 0, groupRows)
	for _, run := range runs {
		got := parquetTable(t, filepath.Join(dir, "runs.parquet"), c, run, groupRows)
		if !got.Schema().Equal(want.Schema()) {
			t.Fatalf("runs of %d: schema\n%s\nwant\n%s", run, got.Schema(), want.Schema())
		}
		for i := range int(want.NumCols()) {
			if !array.ChunkedEqual(got.Column(i).Data(), want.Column(i).Data()) {
				t.Errorf("runs of %d: column %s differs:\n%v\nwant\n%v", run, want.Column(i).Name(), got.Column(i).Data(), want.Column(i).Data())
			}
		}
	}
}

// TestParquetChunksCoalesce checks that a column given in many short runs
// holds few arrays until its row group is written: runs of one row.
func TestParquetChunksCoalesce(t *testing.T) {
	w := mustCreate(t, filepath.Join(t.TempDir(), "short.parquet"), Options{}).(*parquetWriter)
	cols := []table.Column{{Name: "ratio", Kind: table.Number}, {Name: "note", Kind: table.Text}}
	if err := w.WriteHeader(cols); err != nil {
		t.Fatal(err)
	}
	most := 0
	for r := range 1000 {
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		b.Append(float64(r))
		arr := b.NewArray()
		if err := w.WriteColumns([][]table.Cell{{{}, table.TextCell("x")}}, []arrow.Array{arr, nil}); err != nil {
			t.Fatal(err)
		}
		arr.Release()
		most = max(most, len(w.columns[0].chunks))
	}
	if most > coalesceChunks {
		t.Errorf("a column of 1,000 runs of one row held %d arrays, want at most %d", most, coalesceChunks)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestParquetLongChunksKept checks that runs as long as a batch of rows
// are held as the arrays given, not copied into merged ones (their values
// are the given arrays' own buffers until the row group is written), and
// that the short runs before one (a row group's end cuts a batch so) are
// merged into one array: five short runs, a long one, a short one, long
// ones. The file reads back as the runs' values in order.
func TestParquetLongChunksKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.parquet")
	w := mustCreate(t, path, Options{}).(*parquetWriter)
	cols := []table.Column{{Name: "ratio", Kind: table.Number}}
	if err := w.WriteHeader(cols); err != nil {
		t.Fatal(err)
	}
	runs := []int{10, 10, 10, 10, 10, largeChunkRows, 7}
	for range 2 * coalesceChunks {
		runs = append(runs, largeChunkRows)
	}
	all := array.NewFloat64Builder(memory.DefaultAllocator)
	defer all.Release()
	var long [][]byte // the buffers of the long runs, in order
	for _, n := range runs {
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		rows := make([][]table.Cell, n)
		for i := range rows {
			v := float64(all.Len())
			b.Append(v)
			all.Append(v)
			rows[i] = []table.Cell{{}}
		}
		arr := b.NewArray()
		if n >= largeChunkRows {
			long = append(long, arr.Data().Buffers()[1].Bytes())
		}
		if err := w.WriteColumns(rows, []arrow.Array{arr}); err != nil {
			t.Fatal(err)
		}
		arr.Release()
	}
	chunks := w.columns[0].chunks
	// The five short runs merged, the long one, the short one, the long ones.
	if want := 1 + 1 + 1 + 2*coalesceChunks; len(chunks) != want {
		t.Fatalf("%d runs held as %d arrays, want %d", len(runs), len(chunks), want)
	}
	if chunks[0].Len() != 50 {
		t.Errorf("the short runs before the first long one held as %d values, want 50 in one array", chunks[0].Len())
	}
	var held [][]byte
	for _, c := range chunks {
		if c.Len() >= largeChunkRows {
			held = append(held, c.Data().Buffers()[1].Bytes())
		}
	}
	if len(held) != len(long) {
		t.Fatalf("%d long arrays held, want %d", len(held), len(long))
	}
	for i := range long {
		if &held[i][0] != &long[i][0] {
			t.Errorf("long run %d was copied", i)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := all.NewArray()
	defer want.Release()
	checkValues(t, data, want)
}

// parquetTable writes c to a Parquet file at path (see writeColumns), with
// row groups of groupRows rows, and reads it back whole.
func parquetTable(t *testing.T, path string, c columnsCase, run, groupRows int) arrow.Table {
	t.Helper()
	w := mustCreate(t, path, Options{}).(*parquetWriter)
	w.rowGroupRows = groupRows
	writeColumns(t, w, c, run)
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	if want := (len(c.rows) + groupRows - 1) / groupRows; rdr.NumRowGroups() != want {
		t.Errorf("%d row groups, want %d", rdr.NumRowGroups(), want)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

// TestCSVWriteColumns checks that the CSV writer writes strings, integers,
// floats and nulls given as arrays as it writes the cells a reader makes
// of them: the same bytes.
func TestCSVWriteColumns(t *testing.T) {
	specs := []columnSpec{
		{"text", arrow.BinaryTypes.String, table.Text, false, `"a"|""|null|" 1.5 "|"x,y"|"say \"hi\""|"\\."|"two\nlines"`},
		{"count", arrow.PrimitiveTypes.Int64, table.Integer, true, `1|null|-9223372036854775808|0`},
		{"ratio", arrow.PrimitiveTypes.Float64, table.Number, true, `0.1|null|1e300|-0.0|5e-324`},
		{"none", arrow.Null, table.Text, false, `null`},
	}
	c := newColumnsCase(t, 17, specs)
	dir := t.TempDir()
	write := func(name string, run int) []byte {
		path := filepath.Join(dir, name)
		writeColumns(t, mustCreate(t, path, Options{}), c, run)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	want := write("rows.csv", 0)
	if !bytes.Contains(want, []byte(`"say ""hi"""`)) || !bytes.Contains(want, []byte("-9223372036854775808")) {
		t.Fatalf("the cells' file lacks its quoted text or its integer:\n%s", want)
	}
	for _, run := range []int{1, 5} {
		if got := write("runs.csv", run); !bytes.Equal(got, want) {
			t.Errorf("runs of %d:\n%s\nwant\n%s", run, got, want)
		}
	}
}

// TestParquetWriteColumnsTextLimit checks that the values of a column
// given as arrays count towards the row group's text limit as its cells'
// text does: with a limit of 10 bytes, each run of two values of 10 bytes
// ends its row group, for a string and a fixed-size binary column (whose
// array has no value buffer to measure).
func TestParquetWriteColumnsTextLimit(t *testing.T) {
	// Arrow's JSON gives binary values in base64: "YWFhYWFhYWFhYQ==" is
	// ten a's.
	for _, c := range []struct {
		dt   arrow.DataType
		json string
	}{
		{arrow.BinaryTypes.String, `["aaaaaaaaaa", "bbbbbbbbbb"]`},
		{&arrow.FixedSizeBinaryType{ByteWidth: 10}, `["YWFhYWFhYWFhYQ==", "YWFhYWFhYWFhYQ=="]`},
	} {
		path := filepath.Join(t.TempDir(), "out.parquet")
		w := mustCreate(t, path, Options{}).(*parquetWriter)
		w.rowGroupBytes = 10
		if err := w.WriteHeader([]table.Column{{Name: "s", Kind: table.Text, Source: c.dt}}); err != nil {
			t.Fatal(err)
		}
		arr, _, err := array.FromJSON(memory.DefaultAllocator, c.dt, strings.NewReader(c.json))
		if err != nil {
			t.Fatal(err)
		}
		defer arr.Release()
		if !w.TakesArray(0, c.dt) {
			t.Fatalf("%s: not taken as an array", c.dt)
		}
		rows := [][]table.Cell{make([]table.Cell, 1), make([]table.Cell, 1)} // ignored: the column comes as an array
		for range 3 {
			if err := w.WriteColumns(rows, []arrow.Array{arr}); err != nil {
				t.Fatal(err)
			}
		}
		rdr := closeAndOpen(t, w, path)
		if got := rdr.NumRowGroups(); got != 3 {
			t.Errorf("%s: %d row groups, want 3 (one per run)", c.dt, got)
		}
		_ = rdr.Close()
	}
}
