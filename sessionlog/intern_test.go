package sessionlog_test

import (
	"testing"
	"unsafe"

	"github.com/dshtest/dshtest/sessionlog"
)

// TestIntern: a word of the table comes back shared, anything else as a
// copy of itself.
func TestIntern(t *testing.T) {
	for _, w := range []string{"type", sessionlog.TypeAssistantChunk, "text-delta", "tool-call", "user", "x", "", "assistant/chunk\x00"} {
		b := []byte(w)
		got := sessionlog.Intern(b)
		copy(b, make([]byte, len(b))) // the result must not share b
		if got != w {
			t.Errorf("Intern(%q) = %q", w, got)
		}
	}
	if a, b := sessionlog.Intern([]byte("text")), sessionlog.Intern([]byte("text")); unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error(`Intern("text") is not shared`)
	}
}
