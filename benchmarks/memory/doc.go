// Package memory holds the memory test of dshtest's commands (TestMemory):
// the peak RSS of check, render, history and repro, run as processes on
// generated 100k-event logs of the small and the dense shape, against
// their budgets (benchmarks/internal/targets). It is a benchmark, run by
// make bench-shapes; the package has no code of its own.
package memory
