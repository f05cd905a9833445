//go:build !linux && !aix && !solaris && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd && !windows

package writers

// isTerminal reports whether fd is a terminal: never known here.
func isTerminal(uintptr) bool { return false }
