//go:build !unix

package terminal

func cpuNanos() int64 { return 0 }
