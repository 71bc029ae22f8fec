package terminal

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/terminal/display"
)

var (
	plain     = display.Style{}
	dimSty    = display.Style{Attrs: display.Dim}
	boldSty   = display.Style{Attrs: display.Bold}
	headerSty = display.Style{Fg: display.FgAccent, Attrs: display.Bold | display.Underline}
	reasonSty = display.Style{Attrs: display.Dim | display.Italic}
	codeSty   = display.Style{Fg: display.FgCode}
	greenSty  = display.Style{Fg: display.FgSuccess}
	yellowSty = display.Style{Fg: display.FgWarning}
	redSty    = display.Style{Fg: display.FgError}
)

// palette holds one lipgloss style per (role, attributes) pair of a scheme.
// It is built once at package initialisation and only read afterwards.
type palette [display.NumRoles][display.NumAttrs]brush

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
var palettes = [2]palette{buildPalette(display.SchemeDark), buildPalette(display.SchemeLight)}

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

func buildPalette(s display.Scheme) palette {
	var p palette
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
func (p *palette) write(b *strings.Builder, s display.Style, text string) {
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
	sgr := &p[s.Fg][s.Attrs]
	b.WriteString(sgr.pre)
	b.WriteString(text)
	b.WriteString(sgr.suf)
}

// sgrLen is the bytes write adds around a span in style s.
func (p *palette) sgrLen(s display.Style) int {
	if s == plain {
		return 0
	}
	sgr := &p[s.Fg][s.Attrs]
	return len(sgr.pre) + len(sgr.suf)
}

// row renders a line as one styled row. With pad, the row is padded with
// spaces to width; padAttr, when non-zero, is added to every span and to the
// padding (the "whole row" style of generic card bodies).
func (p *palette) row(l display.Line, width int, pad bool, padAttr display.Attr) string {
	return p.styledRow(l, width, pad, padAttr, plain.With(padAttr))
}

// styledRow renders l as one row, add added to each span's style, and
// with pad, padded to width with spaces in padStyle. It is written in one
// buffer, sized first: rows are most of what a render allocates.
func (p *palette) styledRow(l display.Line, width int, pad bool, add display.Attr, padStyle display.Style) string {
	n, w := 0, 0
	for _, sp := range l {
		n += len(sp.Text) + p.sgrLen(sp.Style.With(add))
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
		p.write(&b, sp.Style.With(add), sp.Text)
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
