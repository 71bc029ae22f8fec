//go:build !unix

package surface

func processCPUTime() int64 { return -1 }
