package readers

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// countedText is the CSV text whose bytes the tests of Options.BytesRead
// count.
const countedText = "id,epsilon\n" + "a,1\n" + "b,2\n"

// readCounting opens path, a file of one table, and reads it to its end,
// counting the bytes read into n.
func readCounting(t *testing.T, path string, n *atomic.Int64) {
	t.Helper()
	tables, err := Open(path, Options{BytesRead: n})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, tables[0])
	tables[0].Close()
}

// Options.BytesRead counts the bytes read from every file: a CSV file read
// to its end counts its whole size; two files share one counter.
func TestBytesRead(t *testing.T) {
	path := writeFile(t, "a.csv", []byte(countedText))
	var n atomic.Int64
	for range 2 {
		readCounting(t, path, &n)
	}
	if got, want := n.Load(), int64(2*len(countedText)); got != want {
		t.Errorf("two files: %d bytes read, want %d", got, want)
	}
}

// A Parquet table knows its rows from the footer before reading them.
func TestParquetNumRows(t *testing.T) {
	// samples/releases.parquet is the sample release table: as many rows
	// as samples/releases.csv has records after its header.
	records := readback.ReadCSV(t, filepath.Join("..", "samples", "releases.csv"), 0)
	want := len(records) - 1
	tables, err := Open(filepath.Join("..", "samples", "releases.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	rc, ok := tables[0].(RowCounter)
	if !ok {
		t.Fatal("a Parquet table is not a RowCounter")
	}
	if got := rc.NumRows(); got != int64(want) {
		t.Errorf("NumRows %d, want %d", got, want)
	}
	if got := len(drain(t, tables[0])); got != want {
		t.Errorf("read %d rows, want %d", got, want)
	}
}
