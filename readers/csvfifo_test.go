//go:build linux || darwin

package readers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fifo makes a named pipe that yields data, written by a goroutine, and
// returns its path: Open reads it as a stream, without seeking.
func fifo(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return path
}

// Every corpus file reads the same through a pipe, where the reader
// cannot read the file twice and judges it by its first lines.
func TestCSVCorpusThroughPipe(t *testing.T) {
	for _, c := range csvCorpus() {
		t.Run(c.name, func(t *testing.T) {
			path := fifo(t, c.data)
			// The pipe's name has no extension: give the format.
			format := strings.TrimPrefix(filepath.Ext(c.name), ".")
			c.openErr = strings.Replace(c.openErr, filepath.Join(csvCorpusDir, c.name), path, 1)
			checkCSVCase(t, c, path, Options{Format: format})
		})
	}
}

// The encoding of a large file: a file that can be read twice is checked
// for UTF-8 in its first 16 MiB, so a legacy byte after 64 KiB still
// makes it Windows-1252; a stream is judged by its first lines (up to
// 64 KiB), and a later byte that is not UTF-8 is an error of its cell.
func TestCSVEncodingOfLargeFile(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("id,epsilon\n")
	for b.Len() < 100<<10 {
		b.WriteString("row,1\n")
	}
	b.WriteString("caf\xE9,2\n")
	rows := strings.Count(b.String(), "\n")
	tb, got := readCSV(t, "big.csv", b.Bytes(), Options{})
	if d := tb.(DialectTable).Dialect(); d.Encoding != "Windows-1252" {
		t.Errorf("dialect %+v", d)
	}
	wantRow(t, got[len(got)-1], pos("big.csv", "", rows), cells(txt("café"), txt("2")))

	tables, err := Open(fifo(t, b.Bytes()), Options{Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	defer tables[0].Close()
	got = drain(t, tables[0])
	last := got[len(got)-1]
	if d := tables[0].(DialectTable).Dialect(); d.Encoding != "UTF-8" {
		t.Errorf("stream dialect %+v", d)
	}
	if last.Err == nil || IsFatal(last.Err) || !strings.Contains(last.Err.Error(), `column id: this cell is not valid UTF-8 (byte 0xE9 after "caf")`) {
		t.Errorf("stream: last row %+v", last)
	}
}
