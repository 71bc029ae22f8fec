//go:build !unix

package projection

func processCPUTime() int64 { return -1 }
