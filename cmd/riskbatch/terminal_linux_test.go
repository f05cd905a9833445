package main

import (
	"bytes"
	"path/filepath"
	"strings"
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

// TestStdinTerminal: "-" when standard input is a terminal is a usage
// error, not a run waiting silently for typing.
func TestStdinTerminal(t *testing.T) {
	tty := testenv.Terminal(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"eval", "-", "-o", filepath.Join(dir, "out.csv")}, {"priors", "-", "-o", filepath.Join(dir, "p.csv")}} {
		var stderr bytes.Buffer
		code := run(append([]string{"riskbatch"}, args...), tty, new(bytes.Buffer), &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "is a terminal: pipe or redirect a table") {
			t.Errorf("%q: exit %d, %q", args, code, stderr.String())
		}
	}
}
