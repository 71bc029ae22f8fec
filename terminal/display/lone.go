package display

import (
	"sync/atomic"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Lone runes: the fast path of widths and cells past ASCII.
//
// Measuring a line through the segmenter costs a grapheme cluster's worth
// of state machine per character; text of CJK, accented letters or emoji
// spends most of a card's layout there. Most such characters are a cluster
// of their own whatever surrounds them, and a lone rune's width depends on
// the rune alone, so it is worked out once.
//
// A rune is lone when the segmenter breaks on both sides of it next to
// any other lone rune or any ASCII byte. Which runes are is asked of the
// segmenter itself, once per rune, so that the fast path cannot disagree
// with it: a rune is lone when nothing attaches it to an "a" before it
// (it is not Extend, ZWJ nor SpacingMark: UAX #29's GB9, GB9a), it
// attaches nothing to an "a" after it (not Prepend: GB9b), and two of it
// do not join (not a Hangul-like L, V or T, nor a regional indicator:
// GB6–GB8, GB12–GB13). Between two lone runes, or a lone rune and an ASCII
// byte, none of UAX #29's rules against a break can then apply: the rest
// (GB3, GB9c, GB11) each need a CR, a Linker or a ZWJ, none of which is
// lone; and LV, LVT and L, V, T runes of different classes join only
// where one of them joins its own kind. lone_test.go holds both paths
// equal on every rune and on random text.

// loneBlock is how many runes share one lazily built table.
const loneBlock = 128

// loneLimit bounds the runes with a table (the first three planes: the
// scripts, symbols, emoji and CJK ideographs text holds); the rest take
// the segmenter.
const loneLimit = 0x30000

// loneTables holds, per block of runes, each rune's width as a lone
// cluster, or -1 for a rune that is not lone. A block is built at its
// first use; two goroutines may both build it, and build the same.
var loneTables [loneLimit / loneBlock]atomic.Pointer[[loneBlock]int8]

// loneWidth reports whether r is lone and, if so, its width as a cluster
// of its own, as TextWidth's segmenter path measures it.
func loneWidth(r rune) (int, bool) {
	if r < 0x80 || r >= loneLimit {
		return 0, false
	}
	t := loneTables[r/loneBlock].Load()
	if t == nil {
		t = buildLone(r - r%loneBlock)
		loneTables[r/loneBlock].Store(t)
	}
	w := t[r%loneBlock]
	return int(w), w >= 0
}

func buildLone(from rune) *[loneBlock]int8 {
	var t [loneBlock]int8
	for i := range t {
		t[i] = -1
		r := from + rune(i)
		if !mayBeLone(r) {
			continue
		}
		s := string(r)
		if g, _ := ansi.FirstGraphemeCluster("a"+s, ansi.GraphemeWidth); g != "a" {
			continue // it attaches to what precedes it
		}
		if g, _ := ansi.FirstGraphemeCluster(s+s, ansi.GraphemeWidth); g != s {
			continue // two of it join
		}
		g, w := ansi.FirstGraphemeCluster(s+"a", ansi.GraphemeWidth)
		if g != s {
			continue // it attaches what follows it
		}
		termCells(g, w, func(_ string, pw int) { w = pw })
		if w >= 0 && w <= 127 {
			t[i] = int8(w)
		}
	}
	return &t
}

// mayBeLone rules out what TextWidth hands to ansi.StringWidth whole: a C1
// control and the replacement character (which invalid UTF-8 decodes
// to), and what is no rune (a surrogate).
func mayBeLone(r rune) bool {
	return !(r >= 0x80 && r <= 0x9f) && r != utf8.RuneError && utf8.ValidRune(r)
}

// loneAt reports whether s starts with a lone rune that is a cluster of
// its own there: the string ends after it, or an ASCII byte or another
// lone rune follows. It returns the rune's length and width.
func loneAt(s string) (n, w int, ok bool) {
	if s == "" || s[0] < 0x80 {
		return 0, 0, false
	}
	r, n := utf8.DecodeRuneInString(s)
	if w, ok = loneWidth(r); !ok {
		return 0, 0, false
	}
	if len(s) == n || s[n] < 0x80 || startsLone(s[n:]) {
		return n, w, true
	}
	return 0, 0, false
}

// asciiAlone reports whether s, not empty, starts with a printable ASCII
// byte that is a cluster of one cell of its own: the string ends after
// it, or another ASCII byte or a lone rune follows.
func asciiAlone(s string) bool {
	c := s[0]
	return c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < 0x80 || startsLone(s[1:]))
}

// startsLone reports whether s starts with a lone rune.
func startsLone(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	_, ok := loneWidth(r)
	return ok
}

// Simple reports whether every character of s is printable ASCII or a lone
// rune: text whose grapheme clusters are its runes wherever it is cut, so
// that a piece of it is as wide as its runes together (a row of its wrap
// needs no wrapping again). Most text of CJK, accented letters and emoji
// is simple.
func Simple(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return false
		}
		if _, ok := loneWidth(r); !ok {
			return false
		}
		i += n
	}
	return true
}
