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
			cells = append(cells, cell{g: g, w: int8(min(w, 127)), st: sp.st})
			s = s[len(g):]
		}
	}
	return cells
}

// wrapLineCopying is wrapLine as it was before rows became sub-slices of
// the line's cells: every row copied cell by cell.
func wrapLineCopying(l line, width int) []line {
	width = max(width, 1)
	if l.width() <= width {
		return []line{l}
	}
	cells := toCells(l)
	var rows [][]cell
	var cur, pend []cell
	curW, pendW := 0, 0
	flush := func() {
		rows = append(rows, cur)
		cur, curW = nil, 0
	}
	for i := 0; i < len(cells); {
		j, w := i, 0
		if cells[i].g == " " {
			for j < len(cells) && cells[j].g == " " {
				w++
				j++
			}
			pend, pendW = cells[i:j], w
			i = j
			continue
		}
		for j < len(cells) && cells[j].g != " " {
			if int(cells[j].w) > width {
				cells[j].g, cells[j].w = "\uFFFD", 1
			}
			w += int(cells[j].w)
			j++
		}
		word := cells[i:j]
		i = j
		if len(cur) == 0 && len(rows) > 0 {
			pend, pendW = nil, 0 // no indentation on continuation rows
		}
		if curW+pendW+w <= width {
			cur = append(append(cur, pend...), word...)
			curW += pendW + w
			pend, pendW = nil, 0
			continue
		}
		pend, pendW = nil, 0
		if len(cur) > 0 {
			flush()
		}
		if w <= width {
			cur, curW = append(cur, word...), w
			continue
		}
		for _, c := range word { // hard break
			if curW+int(c.w) > width {
				flush()
			}
			cur = append(cur, c)
			curW += int(c.w)
		}
	}
	if len(cur) > 0 || len(rows) == 0 {
		if curW+pendW <= width {
			cur = append(cur, pend...)
		}
		rows = append(rows, cur)
	}
	out := make([]line, len(rows))
	for i, r := range rows {
		out[i] = fromCells(r)
	}
	return out
}

// randomLine returns a line of 1 to maxSpans spans of up to 16 pieces
// each, in up to styles foreground styles.
func randomLine(r *rand.Rand, pieces []string, maxSpans, styles int) line {
	var l line
	for range 1 + r.IntN(maxSpans) {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		l = append(l, span{text: b.String(), st: sty{fg: role(r.IntN(styles))}})
	}
	return l
}

// TestWrapLineRows checks wrapLine against wrapLineCopying on random lines
// of words, space runs, long words and wide runes, at widths from 1 up.
func TestWrapLineRows(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "supercalifragilistic", "漢字", "👍", "e\u0301", "x"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		l := randomLine(r, pieces, 3, 3)
		width := 1 + r.IntN(30)
		if got, want := wrapLine(l, width), wrapLineCopying(l, width); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("wrapLine(%q, %d) = %q, want %q", l, width, got, want)
		}
	}
}

// TestWrapASCII checks wrapLine's printable-ASCII path against
// wrapLineCopying (which goes through the cells) on random lines of words,
// space runs and long words in up to four spans, some of equal style, at
// widths from 1 up.
func TestWrapASCII(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "   ", "supercalifragilistic", "x", "~.!"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		l := randomLine(r, pieces, 4, 2)
		if !printableASCII(l) {
			t.Fatalf("%q is not printable ASCII", l)
		}
		width := 1 + r.IntN(30)
		if got, want := wrapLine(l, width), wrapLineCopying(l, width); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("wrapLine(%q, %d) = %q, want %q", l, width, got, want)
		}
	}
}

// TestASCIIFastPaths checks toCells and textWidth against the segmenter
// and ansi.StringWidth on random text that mixes ASCII with what joins it:
// combining marks, ZWJ sequences, variation selectors, wide runes,
// regional indicators, controls and broken UTF-8.
func TestASCIIFastPaths(t *testing.T) {
	pieces := []string{"a", "b", " ", "~", "1", ".", "e\u0301", "\u0301", "\u200d", "\ufe0f", "👍",
		"👩\u200d💻", "漢", "🇫🇷", "\x1b", "\t", "\n", "\x7f", "\xff", "é", "a\u0308", "\r\n", "ก\u0e33",
		"\u009b", "\x9b", "\xc2", "1\ufe0f\u20e3", "\U0001F44D\U0001F3FD", "\x1b[31m", "[", "\u00a0", "\u200b"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
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
