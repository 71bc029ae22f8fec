package display

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// segmentedWidth is TextWidth through the segmenter alone, every cluster
// of it, printable ASCII included.
func segmentedWidth(s string) int {
	w := 0
	for rest := s; rest != ""; {
		if c := rest[0]; c < 0x20 || c == 0x7f {
			return ansi.StringWidth(s)
		}
		n, gw, ok := segmented(rest)
		if !ok {
			return ansi.StringWidth(s)
		}
		w, rest = w+gw, rest[n:]
	}
	return w
}

// segmentedCells is Cells of one unstyled span through the segmenter
// alone, every cluster of it.
func segmentedCells(s string) []Cell {
	var cells []Cell
	for s != "" {
		g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if g == "" {
			break
		}
		termCells(g, w, func(p string, w int) { cells = append(cells, Cell{Text: p, Width: int8(min(w, 127))}) })
		s = s[len(g):]
	}
	return cells
}

// checkLone holds TextWidth and Cells of s to the segmenter's.
func checkLone(t *testing.T, s string) {
	t.Helper()
	if got, want := TextWidth(s), segmentedWidth(s); got != want {
		t.Fatalf("TextWidth(%+q) = %d, the segmenter's %d", s, got, want)
	}
	if got, want := Cells(Line{{Text: s}}), segmentedCells(s); !slices.Equal(got, want) {
		t.Fatalf("Cells(%+q) = %+v, the segmenter's %+v", s, got, want)
	}
}

// TestLoneRunes: every rune below loneLimit, lone or not, measures and
// splits as the segmenter has it, alone, after and before ASCII, doubled,
// before the runes after it, and next to lone runes of other scripts; so do random pairs and runs of
// lone runes, and lone runes next to the marks that attach to them.
func TestLoneRunes(t *testing.T) {
	partners := []string{"a", " ", "é", "漢", "🙂", "❤", "ｌ", "\u3000", "\u2028", "ก", "ﷺ", "─", "→", "“", "…", "😀", "я", "α"}
	attach := []string{"\u0301", "\u200d", "\ufe0f", "\U0001f3fb", "\u0e33", "\u094d", "\u093f", "\u0600"}
	var lone []rune
	for r := rune(0x80); r < loneLimit; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		checkLone(t, s)
		checkLone(t, "a"+s+"a")
		checkLone(t, s+s)
		checkLone(t, s+string(r+1)) // a script's own rules join its neighbours
		checkLone(t, s+string(r+2)+string(r+1))
		_, ok := loneWidth(r)
		if ok {
			lone = append(lone, r)
		}
		if testing.Short() && r%7 != 0 {
			continue
		}
		for _, p := range partners {
			checkLone(t, p+s)
			checkLone(t, s+p)
		}
		if ok {
			for _, m := range attach {
				checkLone(t, s+m+"a")
			}
		}
	}
	if len(lone) < 50000 {
		t.Fatalf("%d lone runes: the table rules out what it should not", len(lone))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for range n {
		var b []byte
		for range 1 + rng.IntN(4) {
			b = utf8.AppendRune(b, lone[rng.IntN(len(lone))])
		}
		checkLone(t, string(b))
	}
}

// FuzzLone holds TextWidth and Cells to the segmenter's on any text.
func FuzzLone(f *testing.F) {
	for _, s := range []string{"漢é🙂", "e\u0301漢", "👩\u200d💻", "❤\ufe0f", "🇯🇵", "한국어", "a\x80b", "x\u2028y", "ก\u0e33", "क\u094dष",
		// TextWidth's eight-byte runs: a mark, a control or DEL just past one.
		"abcdefgh\u0301", "abcdefghi\u0301", "abcdefghijklmnop\u0301q", "1234567\x7f9abcdefgh", "abcdefgh\x1fz", "abcdefgh ~~~~~~~~\u20dd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLone(t, s)
	})
}

// TestTextWidthASCIIRuns: runs of printable ASCII of every length up to
// 40, TextWidth counts eight bytes at a time, followed by what may join the
// last of them (a mark, a joiner), by a control or DEL, or by a lone rune,
// are measured as the segmenter measures them.
func TestTextWidthASCIIRuns(t *testing.T) {
	after := []string{"", "\u0301", "\u200d", "\ufe0f", "\U0001f3fb", "\x1f", "\x7f", "\x00", "漢", "é", "\u0e33", "~"}
	for n := range 41 {
		run := strings.Repeat("ab cd~!09", 5)[:n]
		for _, a := range after {
			checkLone(t, run+a)
			checkLone(t, run+a+run)
		}
	}
}
