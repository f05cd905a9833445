package readers

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// Options.BytesRead counts the bytes read from every file: a CSV file read
// to its end counts its whole size; two files share one counter.
func TestBytesRead(t *testing.T) {
	dir := t.TempDir()
	text := "id,epsilon\n" + "a,1\n" + "b,2\n"
	path := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	for range 2 {
		tables, err := Open(path, Options{BytesRead: &n})
		if err != nil {
			t.Fatal(err)
		}
		drain(t, tables[0])
		tables[0].Close()
	}
	if got, want := n.Load(), int64(2*len(text)); got != want {
		t.Errorf("two files: %d bytes read, want %d", got, want)
	}
}

// A Parquet table knows its rows from the footer before reading them.
func TestParquetNumRows(t *testing.T) {
	// samples/releases.parquet is the sample release table: 28 rows, as
	// samples/releases.csv (28 lines after the header).
	tables, err := Open(filepath.Join("..", "samples", "releases.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	rc, ok := tables[0].(RowCounter)
	if !ok {
		t.Fatal("a Parquet table is not a RowCounter")
	}
	if got := rc.NumRows(); got != 28 {
		t.Errorf("NumRows %d, want 28", got)
	}
	if got := len(drain(t, tables[0])); got != 28 {
		t.Errorf("read %d rows, want 28", got)
	}
}
