//go:build unix

package writers

import (
	"errors"
	"syscall"
)

// processGone reports whether no process pid runs on this machine. A
// process this one may not signal still runs (EPERM).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
