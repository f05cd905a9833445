package testenv

import (
	"io"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// Terminal opens a pseudo-terminal and returns its terminal side, for
// tests of what riskbatch does when its output is a terminal. What is
// written to it is drained from the other side, so that writes never
// block. A machine without pseudo-terminals skips the test.
func Terminal(t *testing.T) *os.File {
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
