//go:build unix

package surface

import "syscall"

// processCPUTime returns the user+system CPU time this process has used, in
// nanoseconds, or -1 when it is not available. Benchmarks report it next to
// wall time because the wall time of a shared machine is noisy.
func processCPUTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
