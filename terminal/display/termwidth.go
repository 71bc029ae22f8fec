package display

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/internal/ground/swar"
)

// Widths as terminals measure them. The segmenter (ansi.GraphemeWidth)
// measures a grapheme cluster as its first rune's width. Terminals that
// measure by code point (glibc's wcwidth, as xterm, VTE and tmux do) draw
// some clusters wider, and a row measured by the segmenter alone can then
// overflow its width:
//
//   - an emoji modifier (U+1F3FB–U+1F3FF) that does not follow an emoji
//     modifier base is a swatch of its own, 2 cells, though UAX #29 puts it
//     in the cluster before it (" " + 30×U+1F3FB is one cluster of 1 cell
//     to the segmenter, 61 cells on screen). Such a modifier starts a cell
//     of its own here, 2 cells wide, so that wrapping can break before it;
//   - a few format and prepended characters the segmenter measures as 0
//     take 1 cell in wcwidth (U+00AD, U+0600–U+0605, U+06DD, U+070F,
//     U+0890–U+0891, U+08E2, U+110BD, U+110CD), and U+3248–U+324F take 2.
//
// Where the segmenter is wider than wcwidth (Hangul medial vowels, the
// trigrams and Tai Xuan Jing symbols, a lone regional indicator), its
// width is kept: a row then fits either way. widthtable_test.go compares
// both against glibc.

// isModifier reports whether r is an emoji modifier (skin tone).
func isModifier(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// modifierBases are the Emoji_Modifier_Base ranges of Unicode's
// emoji-data.txt (15.1).
var modifierBases = [][2]rune{
	{0x261d, 0x261d}, {0x26f9, 0x26f9}, {0x270a, 0x270d}, {0x1f385, 0x1f385},
	{0x1f3c2, 0x1f3c4}, {0x1f3c7, 0x1f3c7}, {0x1f3ca, 0x1f3cc}, {0x1f442, 0x1f443},
	{0x1f446, 0x1f450}, {0x1f466, 0x1f478}, {0x1f47c, 0x1f47c}, {0x1f481, 0x1f483},
	{0x1f485, 0x1f487}, {0x1f48f, 0x1f48f}, {0x1f491, 0x1f491}, {0x1f4aa, 0x1f4aa},
	{0x1f574, 0x1f575}, {0x1f57a, 0x1f57a}, {0x1f590, 0x1f590}, {0x1f595, 0x1f596},
	{0x1f645, 0x1f647}, {0x1f64b, 0x1f64f}, {0x1f6a3, 0x1f6a3}, {0x1f6b4, 0x1f6b6},
	{0x1f6c0, 0x1f6c0}, {0x1f6cc, 0x1f6cc}, {0x1f90c, 0x1f90c}, {0x1f90f, 0x1f90f},
	{0x1f918, 0x1f91f}, {0x1f926, 0x1f926}, {0x1f930, 0x1f939}, {0x1f93c, 0x1f93e},
	{0x1f977, 0x1f977}, {0x1f9b5, 0x1f9b6}, {0x1f9b8, 0x1f9b9}, {0x1f9bb, 0x1f9bb},
	{0x1f9cd, 0x1f9cf}, {0x1f9d1, 0x1f9dd}, {0x1fac3, 0x1fac5}, {0x1faf0, 0x1faf8},
}

func isModifierBase(r rune) bool {
	if r < 0x261d {
		return false
	}
	for _, b := range modifierBases {
		if r < b[0] {
			return false
		}
		if r <= b[1] {
			return true
		}
	}
	return false
}

// isPrepend reports whether r is one of the prepended (and format) marks
// the segmenter measures as 0 and wcwidth as 1.
func isPrepend(r rune) bool {
	return r >= 0x600 && r <= 0x605 || r == 0x6dd || r == 0x70f || r == 0x890 || r == 0x891 ||
		r == 0x8e2 || r == 0x110bd || r == 0x110cd
}

// extraWidth is what wcwidth adds to the segmenter's width for r inside a
// cluster, besides the prepended marks.
func extraWidth(r rune) int {
	if r == 0xad || r >= 0x3248 && r <= 0x324f {
		return 1
	}
	return 0
}

// mayDiffer reports whether the cluster g holds a rune whose width needs
// termCells.
func mayDiffer(g string) bool {
	for _, r := range g {
		if r >= 0xad && (r == 0xad || isPrepend(r) || r >= 0x3248 && r <= 0x324f || isModifier(r)) {
			return true
		}
	}
	return false
}

// termCells splits the cluster g (w cells to the segmenter) into the cells
// a terminal draws and calls cell with each piece and its width: a
// standalone emoji modifier starts a piece of 2 cells.
func termCells(g string, w int, cell func(piece string, w int)) {
	if !mayDiffer(g) {
		cell(g, w)
		return
	}
	start, prev := 0, rune(-1)
	for i, r := range g {
		if isModifier(r) && i > 0 && !isModifierBase(prev) {
			cell(g[start:i], pieceWidth(g[start:i], start == 0))
			start = i
		}
		prev = r
	}
	cell(g[start:], pieceWidth(g[start:], start == 0))
}

// pieceWidth measures a piece of a cluster as a code-point terminal draws
// it: prepended marks at its start 1 cell each and the rest as the
// segmenter measures it (at least 2 cells for a modifier base with its
// modifier); a piece that starts with a standalone modifier 2 cells; plus
// extraWidth.
func pieceWidth(p string, first bool) int {
	w, prepends, rest := 0, 0, p
	for rest != "" {
		r, n := utf8.DecodeRuneInString(rest)
		if !isPrepend(r) {
			break
		}
		prepends++
		rest = rest[n:]
	}
	r0, _ := utf8.DecodeRuneInString(rest)
	switch {
	case rest == "":
		w = 0
	case !first && isModifier(r0):
		w = 2
	default:
		_, w = ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
	}
	prev := rune(-1)
	for _, r := range rest {
		w += extraWidth(r)
		if isModifier(r) && isModifierBase(prev) {
			w = max(w, 2)
		}
		prev = r
	}
	return w + prepends
}

// TextWidth is ansi.StringWidth. A printable ASCII byte followed by another
// ASCII byte, a lone rune (lone.go) or the end is a cluster of one cell on
// its own, as in Cells, and so is a lone rune followed by either; the
// segmenter measures only the rest. A string with a control,
// a C1 control or invalid UTF-8 (which ansi's parser may read as the start
// of an escape) goes to ansi.StringWidth whole.
func TextWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		// A printable ASCII byte followed by an ASCII byte is asciiAlone's
		// first case: such runs, most text, are counted without a call,
		// eight bytes at a time while the byte after them is ASCII too.
		for i+9 <= len(s) && swar.Printable(swar.Load(s[i:])) && s[i+8] < 0x80 {
			w += 8
			i += 8
		}
		for i+1 < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i+1] < 0x80 {
			w++
			i++
		}
		c := s[i]
		if asciiAlone(s[i:]) {
			w++
			i++
			continue
		}
		if c < 0x20 || c == 0x7f {
			return ansi.StringWidth(s)
		}
		if n, lw, ok := loneAt(s[i:]); ok {
			w += lw
			i += n
			continue
		}
		n, gw, ok := segmented(s[i:])
		if !ok {
			return ansi.StringWidth(s)
		}
		w += gw
		i += n
	}
	return w
}

// segmented measures the grapheme cluster s starts with through the
// segmenter, as TextWidth does past its fast paths: its length and width,
// or false for a cluster TextWidth hands to ansi.StringWidth whole (none,
// or one holding a control, a C1 control or invalid UTF-8).
func segmented(s string) (n, w int, ok bool) {
	g, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if g == "" {
		return 0, 0, false
	}
	for _, r := range g {
		if r == utf8.RuneError || (r >= 0x80 && r <= 0x9f) || r < 0x20 || r == 0x7f {
			return 0, 0, false
		}
	}
	if !mayDiffer(g) {
		return len(g), gw, true
	}
	termCells(g, gw, func(_ string, pw int) { w += pw })
	return len(g), w, true
}

// Cut shortens a line that may hold escape sequences to at most w cells,
// ending a cut line with "…": the status and help rows of the full-screen
// programs (view, review), which never wrap.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}
