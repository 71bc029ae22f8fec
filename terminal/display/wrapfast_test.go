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

// wrapLineCopying is WrapLine as it was before rows became sub-slices of
// the line's cells: every row copied cell by cell.
func wrapLineCopying(l Line, width int) []Line {
	width = max(width, 1)
	if l.Width() <= width {
		return []Line{l}
	}
	cells := Cells(l)
	var rows [][]Cell
	var cur, pend []Cell
	curW, pendW := 0, 0
	flush := func() {
		rows = append(rows, cur)
		cur, curW = nil, 0
	}
	for i := 0; i < len(cells); {
		j, w := i, 0
		if cells[i].Text == " " {
			for j < len(cells) && cells[j].Text == " " {
				w++
				j++
			}
			pend, pendW = cells[i:j], w
			i = j
			continue
		}
		for j < len(cells) && cells[j].Text != " " {
			if int(cells[j].Width) > width {
				cells[j].Text, cells[j].Width = "\uFFFD", 1
			}
			w += int(cells[j].Width)
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
			if curW+int(c.Width) > width {
				flush()
			}
			cur = append(cur, c)
			curW += int(c.Width)
		}
	}
	if len(cur) > 0 || len(rows) == 0 {
		if curW+pendW <= width {
			cur = append(cur, pend...)
		}
		rows = append(rows, cur)
	}
	out := make([]Line, len(rows))
	for i, r := range rows {
		out[i] = fromCells(r)
	}
	return out
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

// TestWrapLineRows checks WrapLine against wrapLineCopying on random lines
// of words, space runs, long words and wide runes, at widths from 1 up.
func TestWrapLineRows(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "supercalifragilistic", "漢字", "👍", "e\u0301", "x"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		l := randomLine(r, pieces, 3, 3)
		width := 1 + r.IntN(30)
		if got, want := WrapLine(l, width), wrapLineCopying(l, width); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("WrapLine(%q, %d) = %q, want %q", l, width, got, want)
		}
	}
}

// TestWrapASCII checks WrapLine's printable-ASCII path against
// wrapLineCopying (which goes through the cells) on random lines of words,
// space runs and long words in up to four spans, some of equal style, at
// widths from 1 up.
func TestWrapASCII(t *testing.T) {
	pieces := []string{"a", "bb", "word", "  ", " ", "   ", "supercalifragilistic", "x", "~.!"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		l := randomLine(r, pieces, 4, 2)
		if !PrintableASCII(l) {
			t.Fatalf("%q is not printable ASCII", l)
		}
		width := 1 + r.IntN(30)
		if got, want := WrapLine(l, width), wrapLineCopying(l, width); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("WrapLine(%q, %d) = %q, want %q", l, width, got, want)
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
