package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// TestFinalizeInShardOrder drives the last step as a runner does: the
// shards' files arrive in any order (here reversed), a shard without rows
// has none, and the output shards PREFIX-i-of-n hold the rows in the order
// of the input files and of the shards within each. An output missing a
// shard, or a whole file, is not published.
func TestFinalizeInShardOrder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	header := []column{{Name: "id", Kind: table.Text}}
	prefix := filepath.Join(dir, "out", "risk")
	temp := tempDir(prefix)
	if err := os.MkdirAll(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	// File 0 in three shards (the second without rows), file 1 in one.
	var written []shardFile
	var want []string
	for _, sh := range []shardFile{{File: 0, Shard: 0, Shards: 3, Rows: 2}, {File: 0, Shard: 1, Shards: 3}, {File: 0, Shard: 2, Shards: 3, Rows: 1}, {File: 1, Shard: 0, Shards: 1, Rows: 2}} {
		if sh.Rows > 0 {
			sh.Name = filepath.Join(temp, fmt.Sprintf("%06d-%06d.csv", sh.File, sh.Shard))
			w, err := createFile(ctx, sh.Name, "csv")
			if err != nil {
				t.Fatal(err)
			}
			w.WriteHeader(tableColumns(header))
			for i := range sh.Rows {
				id := fmt.Sprintf("f%d-s%d-r%d", sh.File, sh.Shard, i)
				w.Write([]table.Cell{table.TextCell(id)})
				want = append(want, id)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		written = append(written, sh)
	}
	slices.Reverse(written)
	f := &finalizeFn{Output: prefix, TempDir: temp, Format: "csv", Header: header, Files: 3}
	if err := f.ProcessElement(ctx, nil, iterOf(written)); err == nil {
		t.Fatal("finalised with 2 of 3 input files")
	}
	f.Files = 2
	if err := f.ProcessElement(ctx, nil, iterOf(written[1:])); err == nil {
		t.Fatal("finalised without the last shard of file 1")
	}
	if left, _ := filepath.Glob(prefix + "-*"); len(left) > 0 {
		t.Fatalf("an incomplete output was published: %q", left)
	}
	if err := f.ProcessElement(ctx, nil, iterOf(written)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, sh := range shards(t, prefix, "csv") {
		if want := shardName(prefix, i, 3, "csv"); sh != want {
			t.Errorf("shard %s, want %s", sh, want)
		}
		_, rows := readCSV(t, sh)
		for _, r := range rows {
			got = append(got, r[0])
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
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

func TestGroupRuns(t *testing.T) {
	for _, tc := range []struct {
		groups []int64
		target int64
		want   [][2]int
	}{
		{nil, 10, [][2]int{{0, 0}}},
		{[]int64{5, 5, 5, 5, 5}, 10, [][2]int{{0, 2}, {2, 4}, {4, 5}}},
		{[]int64{5, 5, 5, 5}, 10, [][2]int{{0, 2}, {2, 4}}},
		{[]int64{30, 1, 1}, 10, [][2]int{{0, 1}, {1, 3}}},
		{[]int64{0, 0}, 1, [][2]int{{0, 2}}},
		{[]int64{3, 4}, 1, [][2]int{{0, 1}, {1, 2}}},
	} {
		if got := groupRuns(tc.groups, tc.target); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("groupRuns(%v, %d) = %v, want %v", tc.groups, tc.target, got, tc.want)
		}
	}
}
