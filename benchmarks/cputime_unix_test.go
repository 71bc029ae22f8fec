//go:build unix

package benchmarks

import "syscall"

// processCPU is the process's user+system CPU time in ns, or -1.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
