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
	var n atomic.Int64
	fifo := filepath.Join(t.TempDir(), "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString(countedText)
			f.Close()
		}
	}()
	readCounting(t, fifo, &n)
	if got := n.Load(); got != int64(len(countedText)) {
		t.Errorf("pipe: %d bytes read, want %d", got, len(countedText))
	}
}
