//go:build !unix

package writers

import "os"

// processGone reports whether no process pid runs on this machine
// (os.FindProcess fails for one that does not exist).
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	_ = p.Release()
	return false
}
