package readers

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/table"
)

// gzipped is data compressed with gzip.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStdinFormats: standard input ("-" with Options.Stdin) is read as
// its first bytes say, compressed or not, with the rows of the same file
// opened by name, and named "standard input"; without Options.Stdin, "-"
// is a file name like another.
func TestStdinFormats(t *testing.T) {
	for _, name := range []string{"duckdb_v2.parquet", "dates.xlsx"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		want := drain(t, openOne(t, "testdata/"+name, Options{}))
		for _, in := range [][]byte{data, gzipped(t, data)} {
			tb := openOne(t, StdinPath, Options{Stdin: bytes.NewReader(in)})
			if tb.File() != StdinName {
				t.Errorf("%s: File() = %q", name, tb.File())
			}
			got := drain(t, tb)
			if len(got) != len(want) {
				t.Fatalf("%s on standard input: %d rows, want %d", name, len(got), len(want))
			}
			for i := range got {
				if !reflect.DeepEqual(got[i].Row.Cells, want[i].Row.Cells) {
					t.Fatalf("%s on standard input, row %d: %v, want %v", name, i, got[i].Row.Cells, want[i].Row.Cells)
				}
			}
		}
	}
	tsv := "epsilon\tdelta\n1\t1e-6\n"
	tb := openOne(t, StdinPath, Options{Stdin: strings.NewReader(tsv)})
	if got := drain(t, tb); len(got) != 1 || len(tb.Columns()) != 2 || tb.(DialectTable).Dialect().Delimiter != '\t' {
		t.Errorf("TSV on standard input: %d rows, %d columns", len(got), len(tb.Columns()))
	}
	if _, err := Open(StdinPath, Options{}); err == nil || !strings.Contains(err.Error(), "no extension") {
		t.Errorf(`"-" without Options.Stdin: %v`, err)
	}
}

// TestSpoolLimit: an XLSX or Parquet stream longer than Limits.SpoolBytes
// is refused with a *LimitError naming max-spool-bytes, before a row.
func TestSpoolLimit(t *testing.T) {
	data, err := os.ReadFile("testdata/duckdb_v2.parquet")
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{SpoolBytes: int64(len(data)) - 1}
	_, err = Open(StdinPath, Options{Stdin: bytes.NewReader(gzipped(t, data)), Limits: lim})
	var le *LimitError
	var te *table.Error
	if !errors.As(err, &le) || le.Name != "max-spool-bytes" || !errors.As(err, &te) || te.Pos.File != StdinName {
		t.Fatalf("a stream one byte over the limit: %v", err)
	}
	lim.SpoolBytes++
	tables, err := Open(StdinPath, Options{Stdin: bytes.NewReader(data), Limits: lim})
	if err != nil {
		t.Fatalf("a stream at the limit: %v", err)
	}
	for _, tb := range tables {
		tb.Close()
	}
}
