//go:build unix

package readers

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
)

// Options.BytesRead counts the bytes of a CSV file read from a pipe too.
func TestBytesReadPipe(t *testing.T) {
	dir := t.TempDir()
	text := "id,epsilon\n" + "a,1\n" + "b,2\n"
	var n atomic.Int64
	fifo := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString(text)
			f.Close()
		}
	}()
	tables, err := Open(fifo, Options{BytesRead: &n})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, tables[0])
	tables[0].Close()
	if got := n.Load(); got != int64(len(text)) {
		t.Errorf("pipe: %d bytes read, want %d", got, len(text))
	}
}
