//go:build !unix

package benchmarks

// processCPU is not available here; benchmarks report wall time only.
func processCPU() int64 { return -1 }
