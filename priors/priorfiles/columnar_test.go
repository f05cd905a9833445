package priorfiles_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// rowBuild builds priors from the file at path the way every file was
// read before the column-at-a-time path: the reader's rows, cell by cell
// (build.Priors over the readers' tables as they are).
func rowBuild(path string, ropts readers.Options, opts build.Options) (*build.Result, error) {
	return buildWith(path, ropts, opts, func(tables []readers.Table) []priors.Rows {
		rows := make([]priors.Rows, len(tables))
		for i, t := range tables {
			rows[i] = t
		}
		return rows
	})
}

// batchBuild is BuildFile with CSV and TSV records read in batches of
// ropts.BatchRows.
func batchBuild(path string, ropts readers.Options, opts build.Options) (*build.Result, error) {
	return buildWith(path, ropts, opts, func(tables []readers.Table) []priors.Rows {
		return priorfiles.RowsInBatches(tables, ropts.BatchRows)
	})
}

// buildWith builds priors from the tables of the file at path, given to
// build.Priors as rows makes them.
func buildWith(path string, ropts readers.Options, opts build.Options, rows func([]readers.Table) []priors.Rows) (*build.Result, error) {
	tables, err := readers.Open(path, ropts)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, t := range tables {
			t.Close()
		}
	}()
	return build.Priors(rows(tables), opts)
}

// written returns the three CSV tables WriteResult writes for res, in
// order, read back as bytes.
func written(t *testing.T, res *build.Result) [][]byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.csv")
	if err := priorfiles.WriteResult(out, res, ""); err != nil {
		t.Fatal(err)
	}
	pp, fp, sp, err := priorfiles.OutputPaths(out, "")
	if err != nil {
		t.Fatal(err)
	}
	var files [][]byte
	for _, p := range []string{pp, fp, sp} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	return files
}

// sameAsRowBuild checks that BuildFile (which reads CSV and Parquet
// column by column) gives exactly what rowBuild gives: the same error
// message, or the same notes and the same bytes in the three tables
// written.
func sameAsRowBuild(t *testing.T, path string, ropts readers.Options, opts build.Options) {
	t.Helper()
	want, werr := rowBuild(path, ropts, opts)
	got, gerr := priorfiles.BuildFile(path, ropts, opts)
	if gerr == nil && ropts.BatchRows > 0 { // CSV records in batches of BatchRows too
		got, gerr = batchBuild(path, ropts, opts)
	}
	sameBuild(t, got, gerr, want, werr)
}

// sameBuild checks that a build gave what another gave: the same error
// message, or the same notes and the same bytes in the three tables
// written.
func sameBuild(t *testing.T, got *build.Result, gerr error, want *build.Result, werr error) {
	t.Helper()
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("error %v, want %v", gerr, werr)
	}
	if werr != nil {
		return
	}
	if strings.Contains(t.Name(), "/bad") {
		t.Fatal("the case builds priors; it should fail")
	}
	if want.Records == 0 || len(want.Entries) == 0 {
		t.Fatalf("the case builds no prior (%d records, %d entries): it tests nothing", want.Records, len(want.Entries))
	}
	if g, w := strings.Join(got.Notes, "\n"), strings.Join(want.Notes, "\n"); g != w {
		t.Errorf("notes:\n%s\nwant:\n%s", g, w)
	}
	gf, wf := written(t, got), written(t, want)
	for i := range wf {
		if !bytes.Equal(gf[i], wf[i]) {
			t.Errorf("table %d differs:\n%s\nwant:\n%s", i, clipText(gf[i]), clipText(wf[i]))
		}
	}
}

// clipText shortens a table shown in a failure message.
func clipText(b []byte) string {
	if len(b) > 3000 {
		return string(b[:3000]) + "…"
	}
	return string(b)
}

// columnarCase is a set of options tried on an input.
type columnarCase struct {
	name string
	opts build.Options
}

// TestColumnarPenguins compares the column-at-a-time build with the
// row-at-a-time one on the penguins sample.
func TestColumnarPenguins(t *testing.T) {
	cases := []columnarCase{
		{"default", build.Options{}},
		{"given", build.Options{Given: []string{"Species", "Island"}}},
		{"window", build.Options{Columns: []string{"Sex"}, Given: []string{"Species"}, Ordinal: []string{"Body Mass (g)", "Beak Length (mm)"}, Tolerance: 100}},
		{"joint", build.Options{Joint: [][]string{{"Species", "Sex"}}, Given: []string{"Island"}, MissingAsValue: true, Smoothing: 0.5}},
		{"few categories", build.Options{MaxCategories: 3, Given: []string{"Sex"}}},
	}
	for _, batch := range []int{0, 7} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/batch%d", c.name, batch), func(t *testing.T) {
				sameAsRowBuild(t, penguinsPath, readers.Options{BatchRows: batch}, c.opts)
			})
		}
	}
}

// quotedCSV is CSV with quoted fields (delimiters, quotes and line
// breaks inside them), spaces around values, empty fields, blank lines,
// short rows, a count column and a column of numbers for windows.
const quotedCSV = `name,"city, state",n,score,flag,note
alice,"Portland, OR",2,1.5,true,"said ""hi"""
bob,"Portland, OR",1, 2 ,false,
 alice ,Salem,3,2.5,TRUE,"two
lines"

carol,,0,,true,x
dave,"Salem",1,3,,
eve,"Portland, OR",4,1.5,false
,Bend,1,4,true,"a,b"
alice,"Bend",2,-0,true,y
`

// TestColumnarCSV compares the two builds on CSV with quoting.
func TestColumnarCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "quoted.csv")
	if err := os.WriteFile(path, []byte(quotedCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []columnarCase{
		{"default", build.Options{}},
		{"named", build.Options{Columns: []string{"name", "note", "flag"}, MissingAsValue: true}},
		{"given", build.Options{Columns: []string{"name"}, Given: []string{"city, state", "flag"}, Ordinal: []string{"score"}, Tolerance: 1}},
		{"counts", build.Options{CountColumn: "n", Given: []string{"city, state"}, Ordinal: []string{"score"}, Tolerance: 0.5, Smoothing: 1}},
		{"joint", build.Options{Joint: [][]string{{"name", "city, state"}}, MaxCategories: 3}},
		{"bad ordinal", build.Options{Ordinal: []string{"note"}}},
		{"bad count", build.Options{CountColumn: "name"}},
	}
	for _, batch := range []int{0, 1, 3} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/batch%d", c.name, batch), func(t *testing.T) {
				sameAsRowBuild(t, path, readers.Options{BatchRows: batch}, c.opts)
			})
		}
	}
	// Records that are errors, in a column the build does not use: the
	// build stops at them all the same.
	for name, tail := range map[string]string{
		"too many fields": "zed,Bend,1,2,true,y,extra\n",
		"not UTF-8":       "zed,Bend,1,2,true,\xff\n",
		"cut":             "zed,Bend,1,2,true,\"y\n",
	} {
		bad := filepath.Join(t.TempDir(), "bad.csv")
		if err := os.WriteFile(bad, []byte(quotedCSV+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run("bad: "+name, func(t *testing.T) {
			sameAsRowBuild(t, bad, readers.Options{Encoding: "utf-8", BatchRows: 4}, build.Options{Columns: []string{"name"}})
		})
	}
}

// columnarParquet writes a Parquet file of n rows in row groups of 700
// rows: strings dictionary-encoded (s_dict), plain (s_plain) and of an
// Arrow dictionary type (s_arrow), integers of several widths (u64 above
// math.MaxInt64 too), floats (−0 among them), dates, booleans, timestamps,
// decimals, binary values (not all text), counts, numbers as text and
// lists; with nulls, empty and all-space strings.
func columnarParquet(t *testing.T, n int) string {
	t.Helper()
	mem := memory.DefaultAllocator
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s_dict", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "s_plain", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "s_arrow", Type: dictType, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "cnt", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "num_s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "lst", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"red", " red", "green", "", "  ", "blue ", "Blue", "o'neil", "a,b", "x\"y"}
	null := func() bool { return rng.IntN(10) == 0 }
	for i := range n {
		appendOr := func(j int, app func()) {
			if null() {
				rb.Field(j).AppendNull()
			} else {
				app()
			}
		}
		appendOr(0, func() { rb.Field(0).(*array.StringBuilder).Append(words[rng.IntN(len(words))]) })
		appendOr(1, func() { rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("p%d", rng.IntN(40+i/50))) })
		appendOr(2, func() { _ = rb.Field(2).(*array.BinaryDictionaryBuilder).AppendString(words[rng.IntN(4)]) })
		appendOr(3, func() { rb.Field(3).(*array.Int32Builder).Append(int32(rng.IntN(7) - 3)) })
		appendOr(4, func() { rb.Field(4).(*array.Int64Builder).Append(int64(rng.IntN(60)) * 1e12) })
		appendOr(5, func() {
			rb.Field(5).(*array.Uint64Builder).Append([]uint64{0, 5, math.MaxUint64, 1 << 63}[rng.IntN(4)])
		})
		appendOr(6, func() { rb.Field(6).(*array.Float32Builder).Append([]float32{0.1, 2.5, -1, 1e-7}[rng.IntN(4)]) })
		appendOr(7, func() {
			rb.Field(7).(*array.Float64Builder).Append([]float64{0, math.Copysign(0, -1), 0.1, 1e21, 3}[rng.IntN(5)])
		})
		appendOr(8, func() { rb.Field(8).(*array.Date32Builder).Append(arrow.Date32(19000 + rng.IntN(3))) })
		appendOr(9, func() { rb.Field(9).(*array.BooleanBuilder).Append(rng.IntN(3) == 0) })
		appendOr(10, func() {
			rb.Field(10).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000 + int64(rng.IntN(3))))
		})
		appendOr(11, func() { rb.Field(11).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(rng.IntN(3)) * 150)) })
		appendOr(12, func() {
			rb.Field(12).(*array.BinaryBuilder).Append([][]byte{{0xff, 0}, []byte("ok"), []byte("0x00")}[rng.IntN(3)])
		})
		rb.Field(13).(*array.Int64Builder).Append(int64(rng.IntN(4)))
		appendOr(14, func() { rb.Field(14).(*array.StringBuilder).Append([]string{"1.5", " 2 ", "3", ""}[rng.IntN(4)]) })
		appendOr(15, func() {
			lb := rb.Field(15).(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, int32(rng.IntN(2))}, nil)
		})
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(700), parquet.WithDictionaryFor("s_plain", false),
		parquet.WithDictionaryPageSizeLimit(200))
	data := testfiles.WriteParquet(t, rec, props, pqarrow.WithStoreSchema())
	path := filepath.Join(t.TempDir(), "mixed.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestColumnarParquet compares the two builds on a Parquet file of many
// types, encodings and row groups: 1,500 rows in three row groups by
// default (s_plain and i64 still pass 50 values), 3,000 in five with
// RISKBATCH_LONG_TESTS=1.
func TestColumnarParquet(t *testing.T) {
	t.Parallel()
	path := columnarParquet(t, testenv.Count(1500, 3000))
	all := []string{"s_dict", "s_plain", "s_arrow", "i32", "i64", "u64", "f32", "f64", "day", "flag", "ts", "dec", "bin", "num_s", "lst"}
	cases := []columnarCase{
		{"default", build.Options{}},
		{"default, no bound", build.Options{MaxCategories: -1}},
		{"every column", build.Options{Columns: all}},
		{"missing as value", build.Options{Columns: all, MissingAsValue: true}},
		{"given", build.Options{Columns: []string{"s_plain", "f32", "u64", "bin"}, Given: []string{"s_dict", "flag"}, Ordinal: []string{"i64", "num_s"}, Tolerance: 1e12}},
		{"given dates", build.Options{Columns: []string{"i32"}, Given: []string{"day", "s_arrow"}}},
		{"counts", build.Options{CountColumn: "cnt", Given: []string{"i32"}, Ordinal: []string{"f64"}, Tolerance: 0.5, Smoothing: 0.5}},
		{"joint", build.Options{Joint: [][]string{{"s_dict", "i32"}, {"f64", "flag"}}, Given: []string{"s_arrow"}, MaxCategories: 4}},
		{"few categories", build.Options{MaxCategories: 3, Given: []string{"flag"}}},
		{"bad ordinal", build.Options{Ordinal: []string{"s_dict"}}},
		{"bad count", build.Options{CountColumn: "s_dict"}},
	}
	for bi, batch := range []int{0, 64} {
		for ci, c := range cases {
			if !testenv.Long() && (bi+ci)%2 == 1 {
				continue // by default each case once, in either batch size
			}
			t.Run(fmt.Sprintf("%s/batch%d", c.name, batch), func(t *testing.T) {
				sameAsRowBuild(t, path, readers.Options{BatchRows: batch}, c.opts)
			})
		}
	}
}

// TestColumnarFixtures compares the two builds on the Parquet files that
// DuckDB wrote for the readers' tests (version 2 data pages, LZ4_RAW and
// ZSTD, timestamps of each unit) and on the readers' CSV corpus (encodings,
// delimiters, quoting), every column an attribute.
func TestColumnarFixtures(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../../readers/testdata/*.parquet")
	if err != nil {
		t.Fatal(err)
	}
	csvs, err := filepath.Glob("../../readers/testdata/csv/*.csv")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, csvs...)
	if len(paths) < 4 {
		t.Fatalf("%d fixtures: %v", len(paths), paths)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			// Batches of 2 rows put a boundary everywhere; the Parquet
			// files' thousands of rows take 7 by default.
			batch := 2
			if strings.HasSuffix(path, ".parquet") {
				batch = testenv.Count(7, 2)
			}
			sameAsRowBuild(t, path, readers.Options{BatchRows: batch}, build.Options{MaxCategories: -1, MissingAsValue: true})
		})
	}
}
