package display

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// sameWrapping reports whether two wrappings have the same rows, span by
// span, and the same pads.
func sameWrapping(x, y Wrapping) bool {
	return slices.EqualFunc(x.Rows, y.Rows, func(a, b Line) bool { return slices.Equal(a, b) }) &&
		slices.Equal(x.Pads, y.Pads)
}

// checkASCII fails t unless Wrap of l, a printable-ASCII line, at width is
// the cell path's wrapping, span by span and pad by pad.
func checkASCII(t *testing.T, l Line, width int) {
	t.Helper()
	n, ok := asciiLen(l)
	if !ok {
		t.Fatalf("asciiLen(%q): not ASCII", l)
	}
	got := Wrap(l, width)
	want := got
	if w := max(width, 1); n > w {
		want = wrapGeneral(l, w)
		if ascii := wrapASCII(l, n, w); !sameWrapping(ascii, want) {
			t.Fatalf("wrapASCII(%q, %d):\n rows %q pads %v\nwant %q pads %v", l, width, ascii.Rows, ascii.Pads, want.Rows, want.Pads)
		}
	}
	if !sameWrapping(got, want) {
		t.Fatalf("Wrap(%q, %d):\n rows %q pads %v\nwant %q pads %v", l, width, got.Rows, got.Pads, want.Rows, want.Pads)
	}
}

// asciiStyles are the styles of the random lines: plain, colours, and the
// attributes the pads depend on (underline, which a break closes).
var asciiStyles = []Style{
	{}, {Fg: FgAccent}, {Attrs: Dim}, {Attrs: Underline}, {Fg: FgAccent, Attrs: Underline | Bold},
	{Fg: FgCode}, {Attrs: Dim | Italic},
}

// randomASCIILine returns a printable-ASCII line of up to 6 spans, some
// empty, adjacent ones sometimes of one style, of words, space runs, long
// words and punctuation.
func randomASCIILine(r *rand.Rand) Line {
	pieces := []string{"a", "bb", "word", " ", "  ", "     ", "supercalifragilistic", "x.y", "-", "~", "(1)",
		strings.Repeat("z", 45)}
	var l Line
	for range 1 + r.IntN(6) {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		l = append(l, Span{Text: b.String(), Style: asciiStyles[r.IntN(1+r.IntN(len(asciiStyles)))]})
	}
	return l
}

// TestWrapASCII holds the printable-ASCII wrap to the cell path (and so to
// pi-tui, which TestWrapPiTUI holds the cell path to) on 50,000 random
// styled lines at widths 1 to 48, and on the printable-ASCII lines of
// pi-tui's comparison data at their widths and at every width from 1 to
// one past their own.
func TestWrapASCII(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 50000 {
		checkASCII(t, randomASCIILine(r), 1+r.IntN(48))
	}
	cases := 0
	for _, c := range piCases(t) {
		n, ok := asciiLen(c.line)
		if !ok {
			continue
		}
		cases++
		checkASCII(t, c.line, c.width)
		for w := 1; w <= n+1; w++ {
			checkASCII(t, c.line, w)
		}
	}
	if cases < 100 {
		t.Fatalf("%d printable-ASCII cases in pi-tui's data, want at least 100", cases)
	}
}

// FuzzWrapASCII holds the printable-ASCII wrap to the cell path on any
// printable-ASCII line: text's bytes folded into printable ASCII (a third
// of them spaces), cut into spans by cuts, a byte a span (its length, up
// to 15, and its style).
func FuzzWrapASCII(f *testing.F) {
	f.Add("the quick brown fox  jumps over the lazy dog", []byte{0x35, 0x17, 0x4f, 0x22}, uint8(10))
	f.Add("supercalifragilisticexpialidocious   and more", []byte{0x0f, 0x3f, 0x1f}, uint8(7))
	f.Add("   leading and trailing   ", []byte{0x13, 0x3a}, uint8(4))
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", []byte{0x3c, 0x3c, 0x1c}, uint8(1))
	f.Fuzz(func(t *testing.T, text string, cuts []byte, width uint8) {
		b := []byte(text)
		for i, c := range b {
			if c%3 == 0 {
				b[i] = ' '
			} else {
				b[i] = 0x20 + c%95
			}
		}
		s := string(b)
		var l Line
		for _, c := range cuts {
			k := min(int(c&15), len(s))
			l = append(l, Span{Text: s[:k], Style: asciiStyles[int(c>>4)%len(asciiStyles)]})
			s = s[k:]
		}
		if s != "" || len(l) == 0 {
			l = append(l, Span{Text: s})
		}
		checkASCII(t, l, int(width%64))
	})
}
