package history

import (
	"testing"
	"unsafe"
)

// HistoryWideGroups is the number of group starts h keeps in its int64
// fallback, for tests that must reach that path.
func HistoryWideGroups(h *History) int { return len(h.wide) }

// TestHistoryLayout pins the sizes the index's cost rests on: a rank line
// is one cache line, and four group chunks share one.
func TestHistoryLayout(t *testing.T) {
	if got := unsafe.Sizeof(historyLine{}); got != 64 {
		t.Errorf("historyLine is %d bytes, want 64", got)
	}
	if got := unsafe.Sizeof(historyChunk{}); got != 16 {
		t.Errorf("historyChunk is %d bytes, want 16", got)
	}
}
