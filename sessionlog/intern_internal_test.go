package sessionlog

import (
	"testing"
	"unsafe"
)

// TestInternTable: every word of the table comes back as the table's own
// string, and no slot holds more than a few words (a lookup compares each).
func TestInternTable(t *testing.T) {
	for w := range internWords() {
		got := Intern([]byte(w))
		if got != w || unsafe.StringData(got) != unsafe.StringData(Intern([]byte(w))) {
			t.Errorf("Intern(%q) = %q, not shared", w, got)
		}
	}
	for slot, words := range interned {
		if len(words) > 4 {
			t.Errorf("slot %d holds %d words: %q", slot, len(words), words)
		}
	}
}
