package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal: its terminal side, whose output
// the test drains from the other side.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("cannot unlock a pseudo-terminal:", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skip("no pseudo-terminal number:", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open the pseudo-terminal:", err)
	}
	t.Cleanup(func() { tty.Close() })
	go io.Copy(io.Discard, ptmx)
	return tty
}

// TestBinaryToTerminal: XLSX and Parquet are refused on a terminal with
// one line saying what to do; CSV is written to it.
func TestBinaryToTerminal(t *testing.T) {
	tty := openTerminal(t)
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
