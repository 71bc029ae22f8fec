package terminal

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// role is a palette colour role (terminal.md §8). Colours are ANSI-16
// foregrounds only; no role sets a background.
type role uint8

const (
	fgText role = iota // the terminal default
	fgAccent
	fgCode
	fgSuccess
	fgWarning
	fgError
	fgBrand
	numRoles
)

// attr is a set of SGR attributes that compose freely with a colour.
type attr uint8

const (
	atBold attr = 1 << iota
	atDim
	atItalic
	atUnderline
	atStrike
	numAttrs = 1 << iota
)

// sty is a span's style: one colour role (colours never nest) plus
// attributes.
type sty struct {
	fg role
	at attr
}

var (
	plain     = sty{}
	dimSty    = sty{at: atDim}
	boldSty   = sty{at: atBold}
	headerSty = sty{fg: fgAccent, at: atBold | atUnderline}
	reasonSty = sty{at: atDim | atItalic}
	codeSty   = sty{fg: fgCode}
	greenSty  = sty{fg: fgSuccess}
	yellowSty = sty{fg: fgWarning}
	redSty    = sty{fg: fgError}
)

// with returns s with the attributes a added.
func (s sty) with(a attr) sty { s.at |= a; return s }

// palette holds one lipgloss style per (role, attributes) pair of a scheme.
// It is built once at package initialisation and only read afterwards.
type palette [numRoles][numAttrs]brush

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
var palettes = [2]palette{buildPalette(SchemeDark), buildPalette(SchemeLight)}

// schemeColours maps a role to its ANSI-16 colour in a scheme. The dark and
// light schemes differ in the code colour (cyan 36 / blue 34, as upstream)
// and in the accent (bright magenta 95 / magenta 35, which reads better on
// a light background).
func schemeColours(s Scheme) [numRoles]ansi.BasicColor {
	c := [numRoles]ansi.BasicColor{
		fgAccent:  ansi.BrightMagenta,
		fgCode:    ansi.Cyan,
		fgSuccess: ansi.Green,
		fgWarning: ansi.Yellow,
		fgError:   ansi.Red,
		fgBrand:   ansi.Blue,
	}
	if s == SchemeLight {
		c[fgCode] = ansi.Blue
		c[fgAccent] = ansi.Magenta
	}
	return c
}

func buildPalette(s Scheme) palette {
	var p palette
	colours := schemeColours(s)
	for r := range numRoles {
		for a := range attr(numAttrs) {
			st := lipgloss.NewStyle()
			if r != fgText {
				st = st.Foreground(colours[r])
			}
			if a&atBold != 0 {
				st = st.Bold(true)
			}
			if a&atDim != 0 {
				st = st.Faint(true)
			}
			if a&atItalic != 0 {
				st = st.Italic(true)
			}
			if a&atUnderline != 0 {
				st = st.Underline(true)
			}
			if a&atStrike != 0 {
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
func (p *palette) write(b *strings.Builder, s sty, text string) {
	if text == "" {
		return
	}
	if s == plain {
		b.WriteString(text)
		return
	}
	// Every cell of a span carries the span's whole style, spaces of
	// underlined or struck text included (lipgloss's Render would give
	// those spaces the colour and the line only, dropping bold and dim:
	// upstream's "# Two words" heading is one bold underlined run).
	sgr := &p[s.fg][s.at]
	b.WriteString(sgr.pre)
	b.WriteString(text)
	b.WriteString(sgr.suf)
}

// sgrLen is the bytes write adds around a span in style s.
func (p *palette) sgrLen(s sty) int {
	if s == plain {
		return 0
	}
	sgr := &p[s.fg][s.at]
	return len(sgr.pre) + len(sgr.suf)
}

// span is a run of display-safe text in one style.
type span struct {
	text string
	st   sty
}

// line is one logical line of styled spans.
type line []span

func textLine(s string, st sty) line { return line{{text: s, st: st}} }

// width returns the line's display width in cells.
func (l line) width() int {
	w := 0
	for _, sp := range l {
		w += textWidth(sp.text)
	}
	return w
}

// plainText returns the line's text without styles.
func (l line) plainText() string {
	var b strings.Builder
	for _, sp := range l {
		b.WriteString(sp.text)
	}
	return b.String()
}

// row renders a line as one styled row. With pad, the row is padded with
// spaces to width; padAttr, when non-zero, is added to every span and to the
// padding (the "whole row" style of generic card bodies).
func (p *palette) row(l line, width int, pad bool, padAttr attr) string {
	return p.styledRow(l, width, pad, padAttr, plain.with(padAttr))
}

// styledRow renders l as one row, add added to each span's style, and
// with pad, padded to width with spaces in padStyle. It is written in one
// buffer, sized first: rows are most of what a render allocates.
func (p *palette) styledRow(l line, width int, pad bool, add attr, padStyle sty) string {
	n, w := 0, 0
	for _, sp := range l {
		n += len(sp.text) + p.sgrLen(sp.st.with(add))
		w += textWidth(sp.text)
	}
	fill := 0
	if pad && w < width {
		fill = width - w
		n += fill + p.sgrLen(padStyle)
	}
	var b strings.Builder
	b.Grow(n)
	for _, sp := range l {
		p.write(&b, sp.st.with(add), sp.text)
	}
	for fill > 0 {
		k := min(fill, len(spaces))
		p.write(&b, padStyle, spaces[:k])
		fill -= k
	}
	return b.String()
}

// spaces is padding, written a slice at a time.
var spaces = strings.Repeat(" ", 128)
