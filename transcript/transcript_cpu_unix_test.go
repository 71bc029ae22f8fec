//go:build unix

package transcript_test

import "syscall"

// trCPUTime is the process's user+system CPU time in ns. Benchmarks report
// it per event next to wall time: on a shared machine the wall clock also
// counts time spent waiting for a CPU.
func trCPUTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
