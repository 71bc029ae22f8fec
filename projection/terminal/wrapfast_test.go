package terminal

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// segmentSlow is toCells without its ASCII fast path: every cluster from
// the segmenter.
func segmentSlow(l line) []cell {
	var cells []cell
	for _, sp := range l {
		s := sp.text
		for s != "" {
			g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			cells = append(cells, cell{g: g, w: w, st: sp.st})
			s = s[len(g):]
		}
	}
	return cells
}

// TestASCIIFastPaths checks toCells and textWidth against the segmenter
// and ansi.StringWidth on random text that mixes ASCII with what joins it:
// combining marks, ZWJ sequences, variation selectors, wide runes,
// regional indicators, controls and broken UTF-8.
func TestASCIIFastPaths(t *testing.T) {
	pieces := []string{"a", "b", " ", "~", "1", ".", "e\u0301", "\u0301", "\u200d", "\ufe0f", "👍",
		"👩\u200d💻", "漢", "🇫🇷", "\x1b", "\t", "\n", "\x7f", "\xff", "é", "a\u0308", "\r\n", "ก\u0e33"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var l line
		for range 1 + r.IntN(3) {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			l = append(l, span{text: b.String(), st: sty{fg: role(r.IntN(3))}})
		}
		if got, want := toCells(l), segmentSlow(l); !slices.Equal(got, want) {
			t.Fatalf("toCells(%q) = %v, want %v", l, got, want)
		}
		for _, sp := range l {
			if got, want := textWidth(sp.text), ansi.StringWidth(sp.text); got != want {
				t.Fatalf("textWidth(%q) = %d, want %d", sp.text, got, want)
			}
		}
	}
}
