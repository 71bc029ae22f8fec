package cards

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
)

// TestDiffTraceBounded: ten diffs of 501 lines against 501 others, each at
// the 1,000-edit limit, allocate at most 4 MB each, not the 16 MB each
// that a copy of the whole V array at every step had cost (a tool result
// of 3,000 such diffs took render 65 s; the steps' stretches kept in one
// reused buffer take 9.5 s).
func TestDiffTraceBounded(t *testing.T) {
	a, b := make([]string, 501), make([]string, 501)
	for i := range a {
		a[i], b[i] = "a"+strconv.Itoa(i), "b"+strconv.Itoa(i)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection empties the pool meanwhile
	lineDiff(a, b, 1002)                             // the buffer made once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		ops, ok := lineDiff(a, b, 1002)
		if !ok || len(ops) != 1002 {
			t.Fatalf("%d ops, ok %t", len(ops), ok)
		}
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 48<<20 { // a pool may drop its buffer (the race detector makes it): 4 MB a diff at most
		t.Errorf("ten diffs of 1,002 edits allocate %d bytes", alloc)
	}
}
