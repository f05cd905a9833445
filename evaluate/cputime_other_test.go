//go:build !unix

package evaluate

// cpuSeconds is 0 where the process's CPU time is not read: the
// benchmarks then report rows per wall-clock second only.
func cpuSeconds() float64 { return 0 }
