package summary

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// TestPreviewHead: the preview of a text's head is the preview of the
// whole text, on random texts of letters, white space, controls, wide,
// reordering and invalid bytes.
func TestPreviewHead(t *testing.T) {
	pieces := []string{"a", "bc", " ", "  ", "\t", "\n", "\r", "\x01", "宽", "\u00a0", "\u0085", "\u202e", "\xff", "\xe4\xb8", "é"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s, n := b.String(), rng.IntN(15)
		got := screen.Preview(display.Escape(previewHead(s, n)), n)
		if want := screen.Preview(display.Escape(s), n); got != want {
			t.Fatalf("%q, %d: head's preview %s, want %s", s, n, got, want)
		}
	}
}
