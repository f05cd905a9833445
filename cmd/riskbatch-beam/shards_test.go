package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// TestShardsOfSeveralBundles drives the writing steps as a runner does
// with three bundles (the local runner gives this small pipeline one):
// each bundle's file becomes one shard, PREFIX-i-of-00003, and together
// they hold every row once.
func TestShardsOfSeveralBundles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	header := []column{{Name: "id", Kind: table.Text}, {Name: "x", Kind: table.Number}}
	prefix := filepath.Join(dir, "out", "risk")
	temp := tempDir(prefix)
	w := &writeShardFn{TempDir: temp, Format: "csv", Header: header}
	var written []shardFile
	want := [][]string{}
	for b := 0; b < 3; b++ {
		for i := 0; i < 4; i++ {
			id := "r" + strconv.Itoa(10*b+i)
			if err := w.ProcessElement(ctx, outputRow{Cells: []table.Cell{table.TextCell(id), table.NumberCell(float64(i) / 3)}}, nil); err != nil {
				t.Fatal(err)
			}
			want = append(want, []string{id, strconv.FormatFloat(float64(i)/3, 'g', -1, 64)})
		}
		if err := w.FinishBundle(ctx, func(f shardFile) { written = append(written, f) }); err != nil {
			t.Fatal(err)
		}
	}
	// A bundle that failed before FinishBundle leaves a file nobody names.
	if err := os.WriteFile(filepath.Join(temp, "orphan.csv"), []byte("id,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.FinishBundle(ctx, func(shardFile) { t.Error("an empty bundle emitted a file") }); err != nil {
		t.Fatal(err)
	}
	// Two input files gave the twelve rows.
	done := []fileDone{{Path: "a.csv", Rows: 5}, {Path: "b.csv", Rows: 7}}
	f := &finalizeFn{Output: prefix, TempDir: temp, Format: "csv", Header: header, Files: 3}
	if err := f.ProcessElement(ctx, nil, iterOf(written), iterOf(done)); err == nil {
		t.Fatal("finalised with 2 of 3 input files read")
	}
	if left, _ := filepath.Glob(prefix + "-*"); len(left) > 0 {
		t.Fatalf("an incomplete output was published: %q", left)
	}
	f.Files = 2
	if err := f.ProcessElement(ctx, nil, iterOf(written[:2]), iterOf(done)); err == nil {
		t.Fatal("finalised with 8 of 12 rows written")
	}
	if err := f.ProcessElement(ctx, nil, iterOf(written), iterOf(done)); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for i, sh := range shards(t, prefix, "csv") {
		if want := shardName(prefix, i, 3, "csv"); sh != want {
			t.Errorf("shard %s, want %s", sh, want)
		}
		h, rows := readCSV(t, sh)
		if !slices.Equal(h, []string{"id", "x"}) || len(rows) != 4 {
			t.Errorf("%s: header %q, %d rows; want id,x and 4", sh, h, len(rows))
		}
		got = append(got, rows...)
	}
	compareRows(t, []string{"id", "x"}, got, want)
	if _, err := os.Stat(temp); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is still there (%v)", temp, err)
	}
}

// iterOf is a side input's iterator over xs.
func iterOf[T any](xs []T) func(*T) bool {
	next := 0
	return func(x *T) bool {
		if next == len(xs) {
			return false
		}
		*x, next = xs[next], next+1
		return true
	}
}
