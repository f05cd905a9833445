package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riskbatch/riskbatch/internal/testfiles"
)

// TestParquetBinaryValuesKept checks that binary values of a Parquet
// input come out of a Parquet output as they went in: an empty value and
// one of spaces are values, not nulls, and a null stays null: as arrays
// (a plain run) and as cells (a run with a dataset column writes its rows
// as cells, with the groups' totals between them).
func TestParquetBinaryValuesKept(t *testing.T) {
	// base64 in Arrow's JSON: "" is empty, "ICA=" two spaces, "eA==" "x".
	arr, _, err := array.FromJSON(memory.DefaultAllocator, arrow.BinaryTypes.Binary, strings.NewReader(`["", "ICA=", null, "eA=="]`))
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	mech, _, err := array.FromJSON(memory.DefaultAllocator, arrow.BinaryTypes.String, strings.NewReader(`["pure", "pure", "pure", "pure"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer mech.Release()
	half, _, err := array.FromJSON(memory.DefaultAllocator, arrow.PrimitiveTypes.Float64, strings.NewReader(`[0.5, 0.5, 0.5, 0.5]`))
	if err != nil {
		t.Fatal(err)
	}
	defer half.Release()
	fields := []arrow.Field{
		{Name: "blob", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "mechanism", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "epsilon", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "baseline", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "dataset", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	// One dataset of the four rows: its total row comes after them.
	dataset, _, err := array.FromJSON(memory.DefaultAllocator, arrow.BinaryTypes.String, strings.NewReader(`["d", "d", "d", "d"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer dataset.Release()
	dir := t.TempDir()
	plain := array.NewRecordBatch(arrow.NewSchema(fields[:4], nil), []arrow.Array{arr, mech, half, half}, 4)
	defer plain.Release()
	testfiles.WriteParquetFile(t, filepath.Join(dir, "plain.parquet"), plain)
	grouped := array.NewRecordBatch(arrow.NewSchema(fields, nil), []arrow.Array{arr, mech, half, half, dataset}, 4)
	defer grouped.Release()
	testfiles.WriteParquetFile(t, filepath.Join(dir, "grouped.parquet"), grouped)
	// Arrow prints a binary value in base64.
	want := strings.Join([]string{`column "blob" binary`, `""`, `"ICA="`, "∅", `"eA=="`}, "\n")
	for _, args := range [][]string{{"plain.parquet", "--pass-through"}, {"plain.parquet"}, {"grouped.parquet"}} {
		in := filepath.Join(dir, args[0])
		out := filepath.Join(dir, "out.parquet")
		mustRun(t, 0, append([]string{"eval", "-q", in, "-o", out, "--force"}, args[1:]...)...)
		dump := parquetDump(t, out)
		// The blob column's lines: its header without metadata, then its values.
		start := strings.Index(dump, `column "blob" binary`)
		if start < 0 {
			t.Fatalf("%v: no binary blob column in\n%s", args, dump)
		}
		lines := strings.Split(dump[start:], "\n")
		lines[0] = lines[0][:len(`column "blob" binary`)]
		if got := strings.Join(lines[:5], "\n"); got != want {
			t.Errorf("%v: blob column\n%s\nwant\n%s", args, got, want)
		}
	}
}
