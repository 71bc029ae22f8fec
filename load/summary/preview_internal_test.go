package summary

import (
	"math/rand/v2"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/hostile"
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
		s, n := hostile.Text(rng, pieces, 40), rng.IntN(15)
		got := screen.Preview(display.Escape(previewHead(s, n)), n)
		if want := screen.Preview(display.Escape(s), n); got != want {
			t.Fatalf("%q, %d: head's preview %s, want %s", s, n, got, want)
		}
	}
}
