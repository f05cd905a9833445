package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/cellfiles/cellreaders"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
	"github.com/riskbatch/riskbatch/readers"
)

// TestCellFilesRead: the files cells name, read as eval reads them (a
// cellfiles.Loader with cellreaders.Read): a CSV file's header and cells,
// a reference without an extension by the extension of the file it leads
// to, and a workbook the readers refuse, named with no word of its
// content. (Which files a cell may name: package cellfiles' tests.)
func TestCellFilesRead(t *testing.T) {
	data := t.TempDir()
	const secret = "SECRET-c0ffee"
	for name, text := range map[string]string{"vals.csv": "x,y\n0,1\n1,0\n", "broken.xlsx": secret} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("vals.csv", filepath.Join(data, "noext")); err != nil {
		t.Skip("no links here:", err)
	}
	in := filepath.Join(data, "in.csv")
	l, err := cellfiles.New(cellfiles.Options{Read: cellreaders.Read(readers.Limits{})})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"vals.csv", "noext"} {
		dt, err := l.OpenData(in, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if got := readback.Text(t, dt); got != "x y 0 1 1 0" {
			t.Errorf("%s: read %q", ref, got)
		}
		if err := dt.Close(); err != nil {
			t.Error(err)
		}
	}
	// A file the readers refuse: its position, not the readers' message.
	if _, err := l.OpenData(in, "broken.xlsx"); err == nil || err.Error() != "file broken.xlsx: not a table riskbatch can read (CSV, TSV, XLSX or Parquet)" {
		t.Errorf("broken workbook: %v", err)
	}
}
