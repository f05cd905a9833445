//go:build unix

package main

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe, or skips the test where it cannot.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
}
