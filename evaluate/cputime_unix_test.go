//go:build unix

package evaluate

import "syscall"

// cpuSeconds is the CPU time (user and system) the process has used, or 0
// where it cannot be read: on a machine shared with other work it
// measures the cost of a benchmark better than the wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
