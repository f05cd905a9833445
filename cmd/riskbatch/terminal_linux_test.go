package main

import (
	"path/filepath"
	"testing"

	"github.com/riskbatch/riskbatch/internal/testenv"
)

// TestBinaryToTerminal: XLSX and Parquet are refused on a terminal with
// one line saying what to do; CSV is written to it.
func TestBinaryToTerminal(t *testing.T) {
	tty := testenv.Terminal(t)
	in := writeFile(t, filepath.Join(t.TempDir(), "in.csv"), releasesCSV)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", in, "-o", "-", "--format", "xlsx"}, "riskbatch: cannot write an XLSX workbook to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o\n"},
		{[]string{"eval", in, "-o", "-", "--format", "parquet"}, "riskbatch: cannot write a Parquet file to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o\n"},
		{[]string{"template", "-o", "-"}, "riskbatch: cannot write an XLSX workbook to standard output: it is a terminal; redirect the output to a file or a pipe, or name a file with -o\n"},
	} {
		if code, stderr := riskbatchTo(t, tty, tc.args...); code != exitUsage || stderr != tc.want {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
		}
	}
	if code, stderr := riskbatchTo(t, tty, "eval", in, "-o", "-", "-q"); code != exitOK || stderr != "" {
		t.Errorf("CSV to a terminal: exit %d, %q", code, stderr)
	}
}
