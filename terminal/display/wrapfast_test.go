package display

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// segmentSlow is Cells without its ASCII fast path: every cluster from
// the segmenter.
func segmentSlow(l Line) []Cell {
	var cells []Cell
	for _, sp := range l {
		s := sp.Text
		for s != "" {
			g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if g == "" {
				break
			}
			cells = append(cells, Cell{Text: g, Width: int8(min(w, 127)), Style: sp.Style})
			s = s[len(g):]
		}
	}
	return cells
}

// randomLine returns a line of 1 to maxSpans spans of up to 16 pieces
// each, in up to styles foreground styles.
func randomLine(r *rand.Rand, pieces []string, maxSpans, styles int) Line {
	var l Line
	for range 1 + r.IntN(maxSpans) {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		l = append(l, Span{Text: b.String(), Style: Style{Fg: Role(r.IntN(styles))}})
	}
	return l
}

// TestWrapKeepsText checks Wrap's invariants on random lines of words,
// space runs, long words, CJK and wide runes at widths from 2 up: no row
// is wider than the width, one padding style a row, and the rows hold the
// line's clusters in order, only spaces dropped.
func TestWrapKeepsText(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "supercalifragilistic", "漢字", "·", "，", "👍", "e\u0301", "x"}
	r := rand.New(rand.NewPCG(5, 6))
	noSpace := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	for range 5000 {
		l := randomLine(r, pieces, 3, 3)
		width := 2 + r.IntN(30)
		w := Wrap(l, width)
		var b strings.Builder
		for _, row := range w.Rows {
			if row.Width() > width {
				t.Fatalf("Wrap(%q, %d): row %q is wider", l, width, row.PlainText())
			}
			b.WriteString(row.PlainText())
		}
		if len(w.Pads) != len(w.Rows) || noSpace(b.String()) != noSpace(l.PlainText()) {
			t.Fatalf("Wrap(%q, %d) = %q, %d pads", l, width, w.Rows, len(w.Pads))
		}
	}
}

// TestASCIIFastPaths checks Cells and TextWidth against the segmenter
// and ansi.StringWidth on random text that mixes ASCII with what joins it:
// combining marks, ZWJ sequences, variation selectors, wide runes,
// regional indicators, controls and broken UTF-8.
func TestASCIIFastPaths(t *testing.T) {
	pieces := []string{"a", "b", " ", "~", "1", ".", "e\u0301", "\u0301", "\u200d", "\ufe0f", "👍",
		"👩\u200d💻", "漢", "🇫🇷", "\x1b", "\t", "\n", "\x7f", "\xff", "é", "a\u0308", "\r\n", "ก\u0e33",
		"\u009b", "\x9b", "\xc2", "1\ufe0f\u20e3", "\U0001F44D\U0001F3FD", "\x1b[31m", "[", "\u00a0", "\u200b"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
		var l Line
		for range 1 + r.IntN(3) {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			l = append(l, Span{Text: b.String(), Style: Style{Fg: Role(r.IntN(3))}})
		}
		if got, want := Cells(l), segmentSlow(l); !slices.Equal(got, want) {
			t.Fatalf("Cells(%q) = %v, want %v", l, got, want)
		}
		for _, sp := range l {
			if got, want := TextWidth(sp.Text), ansi.StringWidth(sp.Text); got != want {
				t.Fatalf("TextWidth(%q) = %d, want %d", sp.Text, got, want)
			}
		}
	}
}

// TestRowCount holds RowCount, which counts rows without building them,
// to WrapLine's rows on random styled lines of both paths (printable ASCII
// and any other) at widths 1 to 48.
func TestRowCount(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "supercalifragilistic", "漢字", "·", "，", "👍", "e\u0301", "x", "\u00a0", "🙂_ab"}
	r := rand.New(rand.NewPCG(17, 18))
	for i := range 40000 {
		var l Line
		if i%2 == 0 {
			l = randomASCIILine(r)
		} else {
			l = randomLine(r, pieces, 4, 1+r.IntN(3))
		}
		width := 1 + r.IntN(48)
		if got, want := RowCount(l, width), len(WrapLine(l, width)); got != want {
			t.Fatalf("RowCount(%q, %d) = %d, WrapLine has %d rows", l, width, got, want)
		}
	}
}
