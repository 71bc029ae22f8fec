// Package palette writes styled lines as terminal rows: each span's text
// between the SGR sequences of its style, in a scheme's ANSI-16 colours
// (terminal.md §8). Colours are foregrounds only, no backgrounds. The dark
// scheme uses bright magenta (95) for the accent and cyan (36) for code;
// the light scheme magenta (35) and blue (34).
//
// The sequences are lipgloss v2's, worked out once per style when the
// package is initialised; a row is then written in one buffer. This is the
// one place the renderer links lipgloss: terminal/display, below it, is
// text and widths only.
package palette

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/terminal/display"
)

// Palette holds one lipgloss style per (role, attributes) pair of a scheme.
// The two schemes' palettes are built once at package initialisation and
// only read afterwards: For hands them out, read-only.
type Palette [display.NumRoles][display.NumAttrs]brush

// brush is a lipgloss style and the SGR sequences its Render puts around a
// single-line text, precomputed: Style.Render does far more work (lines,
// margins, borders) than a one-row span needs. TestWriteMatchesLipgloss
// pins that the two agree cell for cell, but for the spaces of underlined
// or struck text, to which write gives the whole style (see write).
type brush struct {
	style    lipgloss.Style
	pre, suf string
}

// palettes is indexed by Scheme.
var palettes = [2]Palette{buildPalette(display.SchemeDark), buildPalette(display.SchemeLight)}

// For returns the palette of scheme s. It is shared: do not modify it.
func For(s display.Scheme) *Palette {
	if s == display.SchemeLight {
		return &palettes[1]
	}
	return &palettes[0]
}

// unstyled writes no sequence at all: its brushes are all zero.
var unstyled Palette

// Unstyled returns the palette that writes text alone: a row it writes is
// a styled row with its sequences removed and its trailing spaces (its
// padding, and any its text ends in) cut. It is shared: do not modify it.
func Unstyled() *Palette { return &unstyled }

// Styled reports whether p writes styles: Unstyled does not, and a style
// changes nothing of its rows but where they break.
func (p *Palette) Styled() bool { return p != &unstyled }

// schemeColours maps a role to its ANSI-16 colour in a scheme. The dark and
// light schemes differ in the code colour (cyan 36 / blue 34, as upstream)
// and in the accent (bright magenta 95 / magenta 35, which reads better on
// a light background).
func schemeColours(s display.Scheme) [display.NumRoles]ansi.BasicColor {
	c := [display.NumRoles]ansi.BasicColor{
		display.FgAccent:  ansi.BrightMagenta,
		display.FgCode:    ansi.Cyan,
		display.FgSuccess: ansi.Green,
		display.FgWarning: ansi.Yellow,
		display.FgError:   ansi.Red,
		display.FgBrand:   ansi.Blue,
	}
	if s == display.SchemeLight {
		c[display.FgCode] = ansi.Blue
		c[display.FgAccent] = ansi.Magenta
	}
	return c
}

func buildPalette(s display.Scheme) Palette {
	var p Palette
	colours := schemeColours(s)
	for r := range display.NumRoles {
		for a := range display.Attr(display.NumAttrs) {
			st := lipgloss.NewStyle()
			if r != display.FgText {
				st = st.Foreground(colours[r])
			}
			if a&display.Bold != 0 {
				st = st.Bold(true)
			}
			if a&display.Dim != 0 {
				st = st.Faint(true)
			}
			if a&display.Italic != 0 {
				st = st.Italic(true)
			}
			if a&display.Underline != 0 {
				st = st.Underline(true)
			}
			if a&display.Strike != 0 {
				st = st.Strikethrough(true)
			}
			const probe = "x"
			pre, suf, _ := strings.Cut(st.Render(probe), probe)
			p[r][a] = brush{style: st, pre: pre, suf: suf}
		}
	}
	return p
}

// write writes text in style s to b: SGR sequences only.
func (p *Palette) write(b *strings.Builder, s display.Style, text string) {
	if text == "" {
		return
	}
	if s == (display.Style{}) {
		b.WriteString(text)
		return
	}
	// Every cell of a span carries the span's whole style, spaces of
	// underlined or struck text included (lipgloss's Render would give
	// those spaces the colour and the line only, dropping bold and dim:
	// upstream's "# Two words" heading is one bold underlined run).
	sgr := &p[s.Fg][s.Attrs]
	b.WriteString(sgr.pre)
	b.WriteString(text)
	b.WriteString(sgr.suf)
}

// sgrLen is the bytes write adds around a span in style s.
func (p *Palette) sgrLen(s display.Style) int {
	if s == (display.Style{}) {
		return 0
	}
	sgr := &p[s.Fg][s.Attrs]
	return len(sgr.pre) + len(sgr.suf)
}

// Padded renders l as one row padded with spaces to width, the padding in
// style pad.
func (p *Palette) Padded(l display.Line, width int, pad display.Style) string {
	return p.styledRow(l, width, true, pad)
}

// PaddedText is Padded of the line of text in style s alone, padded
// plainly: the row of a one-style line that fits the width.
func (p *Palette) PaddedText(text string, s display.Style, width int) string {
	return p.styledRow(display.Line{{Text: text, Style: s}}, width, true, display.Style{})
}

// Unpadded renders l as one row, not padded.
func (p *Palette) Unpadded(l display.Line) string {
	return p.styledRow(l, 0, false, display.Style{})
}

// Wrapped wraps each logical line to width and renders its rows padded,
// as pi-tui's Text pads them: each row's padding in the style its text
// leaves open (display.Wrapping.Pads; presenters.md §3.6).
func (p *Palette) Wrapped(lines []display.Line, width int) []string {
	var rows []string
	for _, l := range lines {
		w := display.Wrap(l, width)
		for i, row := range w.Rows {
			rows = append(rows, p.Padded(row, width, w.Pads[i]))
		}
	}
	return rows
}

// styledRow renders l as one row and, with pad, pads it to width with
// spaces in padStyle. It is written in one buffer, sized first: rows are
// most of what a render allocates.
func (p *Palette) styledRow(l display.Line, width int, pad bool, padStyle display.Style) string {
	if p == &unstyled {
		return textRow(l)
	}
	n, w := 0, 0
	for _, sp := range l {
		n += len(sp.Text) + p.sgrLen(sp.Style)
		w += display.TextWidth(sp.Text)
	}
	fill := 0
	if pad && w < width {
		fill = width - w
		n += fill + p.sgrLen(padStyle)
	}
	var b strings.Builder
	b.Grow(n)
	for _, sp := range l {
		p.write(&b, sp.Style, sp.Text)
	}
	for fill > 0 {
		k := min(fill, len(spaces))
		p.write(&b, padStyle, spaces[:k])
		fill -= k
	}
	return b.String()
}

// textRow is l's text with its trailing spaces cut: an unstyled row,
// which needs no width for padding it does not write. A row of one span,
// most of them, is a slice of its text.
func textRow(l display.Line) string {
	end := len(l) // l[:end] holds the text before the trailing spaces
	for end > 0 && strings.TrimRight(l[end-1].Text, " ") == "" {
		end--
	}
	if end == 0 {
		return ""
	}
	last := strings.TrimRight(l[end-1].Text, " ")
	if end == 1 {
		return last
	}
	n := len(last)
	for _, sp := range l[:end-1] {
		n += len(sp.Text)
	}
	var b strings.Builder
	b.Grow(n)
	for _, sp := range l[:end-1] {
		b.WriteString(sp.Text)
	}
	b.WriteString(last)
	return b.String()
}

// spaces is padding, written a slice at a time.
var spaces = strings.Repeat(" ", 128)
