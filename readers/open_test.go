package readers

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

func TestOpenMissing(t *testing.T) {
	for _, name := range []string{"releases.csv", "releases.tsv", "releases.xlsx", "releases.parquet"} {
		path := filepath.Join(t.TempDir(), name)
		_, err := Open(path, Options{})
		wantError(t, err, pos(path, "", 0), path+": cannot open the file: no such file or directory")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v is not fs.ErrNotExist", err)
		}
	}
}

func TestOpenDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dir.csv")
	if err := mkdir(dir); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantError(t, err, pos(dir, "", 0), dir+": is a directory")
}

func TestOpenFormat(t *testing.T) {
	path := writeFile(t, "releases.txt", []byte("a,b\n1,2\n"))
	_, err := Open(path, Options{})
	wantError(t, err, pos(path, "", 0), path+`: unknown file type ".txt"`, "csv, tsv, xlsx and parquet")

	_, err = Open(path, Options{Format: "xls"})
	wantError(t, err, pos(path, "", 0), path+`: unknown format "xls"`, "csv, tsv, xlsx and parquet")

	noext := writeFile(t, "releases", []byte("a,b\n1,2\n"))
	_, err = Open(noext, Options{})
	wantError(t, err, pos(noext, "", 0), noext+": the file name has no extension")

	// An explicit format, in any case, with or without a dot; an upper-case
	// extension.
	for _, opts := range []Options{{Format: "CSV"}, {Format: ".csv"}} {
		tb := openOne(t, path, opts)
		if len(tb.Columns()) != 2 {
			t.Errorf("%+v: columns %v", opts, tb.Columns())
		}
	}
	upper := writeFile(t, "R.CSV", []byte("a\n1\n"))
	if tb := openOne(t, upper, Options{}); len(tb.Columns()) != 1 {
		t.Errorf("columns %v", tb.Columns())
	}
}

func TestOpenReaderErrors(t *testing.T) {
	_, err := OpenReader("x.csv", nil, 0, Options{})
	wantError(t, err, pos("x.csv", "", 0), "x.csv: no data to read")
	_, err = OpenReader("x.doc", bytes.NewReader(nil), 0, Options{})
	wantError(t, err, pos("x.doc", "", 0), `x.doc: unknown file type ".doc"`)
	_, err = OpenReader("x.xlsx", bytes.NewReader(nil), 0, Options{})
	wantError(t, err, pos("x.xlsx", "", 0), "x.xlsx: not an XLSX workbook")
	_, err = OpenReader("x.parquet", bytes.NewReader(nil), 0, Options{})
	wantError(t, err, pos("x.parquet", "", 0), "x.parquet: not a readable Parquet file")
}
