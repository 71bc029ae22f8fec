//go:build !unix

package transcript_test

// trCPUTime is unavailable here; the cpu-ns metrics read 0.
func trCPUTime() int64 { return 0 }
