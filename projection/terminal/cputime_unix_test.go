//go:build unix

package terminal

import "syscall"

// cpuNanos is the process's user+system CPU time. Benchmarks report it next
// to wall time because the machine they run on is shared: under load, wall
// time measures the neighbours.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
