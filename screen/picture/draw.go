package picture

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
)

// Cell size in CSS pixels. Every cell is drawn in a box of exactly this
// size, so a picture's cells sit on a grid whatever the font.
const (
	CellWidth  = 9
	CellHeight = 18
)

// fontStack is the monospace font of every picture (system fonts only:
// nothing is fetched).
const fontStack = `ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace`

// cellCSS is the CSS of the HTML grids (GridHTML), for a page's <style>.
const cellCSS = `.grid{display:inline-block;font:14px/18px ` + fontStack + `;white-space:pre;vertical-align:top}
.grid .row{height:18px;overflow:hidden}
.grid .c{display:inline-block;width:9px;height:18px;overflow:hidden;vertical-align:top;text-align:center}
.grid .w{width:18px}
.grid .chg{display:inline-block;vertical-align:top;height:18px;outline:1px solid;outline-offset:-1px}
`

// cellStyle is the inline CSS of one cell.
func cellStyle(c Cell, p Palette) string {
	fg, bg := c.Style.Colours(p)
	var b strings.Builder
	if fg != p.Fg {
		fmt.Fprintf(&b, "color:%s;", fg.Hex())
	}
	if bg != p.Bg {
		fmt.Fprintf(&b, "background:%s;", bg.Hex())
	}
	if c.Style.Bold {
		b.WriteString("font-weight:bold;")
	}
	if c.Style.Italic {
		b.WriteString("font-style:italic;")
	}
	var deco []string
	if c.Style.Underline {
		deco = append(deco, "underline")
	}
	if c.Style.Strike {
		deco = append(deco, "line-through")
	}
	if len(deco) > 0 {
		b.WriteString("text-decoration:" + strings.Join(deco, " ") + ";")
	}
	if c.Style.Invisible {
		b.WriteString("visibility:hidden;")
	}
	return b.String()
}

// GridHTML writes g as an HTML grid (a <div class="grid">). Each run of
// cells marked in changed (which may be nil) on a row is framed as one
// (a <span class="chg">; changedRuns): a frame a cell would cross out a row of shifted
// dim text, a frame a run leaves its cells as they are drawn. id, when not
// empty, is the grid's element id. The page must carry PageCSS.
func GridHTML(b *bytes.Buffer, g Grid, p Palette, changed [][]bool, id string, height int) {
	rows := max(height, len(g.Rows))
	idAttr := ""
	if id != "" {
		idAttr = ` id="` + html.EscapeString(id) + `"`
	}
	fmt.Fprintf(b, `<div class="grid"%s style="background:%s;color:%s;width:%dpx">`, idAttr, p.Bg.Hex(), p.Fg.Hex(), g.Width*CellWidth)
	for r := range rows {
		b.WriteString(`<div class="row">`)
		framed := make([]bool, g.Width)
		if r < len(changed) {
			for _, run := range changedRuns(changed[r], g.Width) {
				for c := run[0]; c < run[1]; c++ {
					framed[c] = true
				}
			}
		}
		run := false // inside a framed run
		for c := 0; c < g.Width; c++ {
			cell := g.At(r, c)
			if cell.Width == 0 {
				continue // the placeholder after a wide cell
			}
			ch := framed[c]
			switch {
			case ch && !run:
				fmt.Fprintf(b, `<span class="chg" style="outline-color:%s">`, p.Changed.Hex())
			case !ch && run:
				b.WriteString("</span>")
			}
			run = ch
			class := "c"
			if cell.Width == 2 {
				class = "c w"
			}
			text := cell.Text
			if text == "" {
				text = " "
			}
			fmt.Fprintf(b, `<span class="%s"`, class)
			if st := cellStyle(cell, p); st != "" {
				fmt.Fprintf(b, ` style="%s"`, st)
			}
			b.WriteString(">" + html.EscapeString(visible(text)) + "</span>")
		}
		if run {
			b.WriteString("</span>")
		}
		b.WriteString("</div>")
	}
	b.WriteString("</div>")
}

// PageCSS is the style sheet pictures need in an HTML page.
func PageCSS() string { return cellCSS }

// HTMLPage is a self-contained page showing one grid.
func HTMLPage(title string, g Grid, p Palette, height int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>\n<style>body{margin:16px;background:%s}\n%s</style></head><body>\n",
		html.EscapeString(display.EscapeInline(title)), p.Bg.Hex(), cellCSS)
	GridHTML(&b, g, p, nil, "screen", height)
	b.WriteString("\n</body></html>\n")
	return b.Bytes()
}

// xmlText is text for an SVG document, which XML parses: escaped as HTML,
// and a character XML 1.0 does not allow (U+FFFE, U+FFFF; the escaper has
// made every control visible) replaced by U+FFFD, since one such
// character makes a whole SVG not well-formed, and a browser draws none
// of it.
func xmlText(s string) string {
	if strings.ContainsRune(s, 0xfffe) || strings.ContainsRune(s, 0xffff) {
		s = strings.Map(func(r rune) rune {
			if r == 0xfffe || r == 0xffff {
				return 0xfffd
			}
			return r
		}, s)
	}
	return html.EscapeString(s)
}

// SVG draws g as a standalone SVG picture, height rows tall (at least the
// grid's rows).
func SVG(g Grid, p Palette, changed [][]bool, height int) []byte {
	rows := max(height, len(g.Rows))
	w, h := g.Width*CellWidth, rows*CellHeight
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family='%s' font-size="14">`+"\n",
		w, h, w, h, strings.ReplaceAll(fontStack, `"`, ""))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="%s"/>`+"\n", w, h, p.Bg.Hex())
	for r := range rows {
		y := r * CellHeight
		for c := 0; c < g.Width; c++ {
			cell := g.At(r, c)
			if cell.Width == 0 {
				continue
			}
			fg, bg := cell.Style.Colours(p)
			cw := cell.Width * CellWidth
			x := c * CellWidth
			if bg != p.Bg {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", x, y, cw, CellHeight, bg.Hex())
			}
			if strings.TrimSpace(cell.Text) == "" || cell.Style.Invisible {
				continue
			}
			attrs := fmt.Sprintf(`fill="%s"`, fg.Hex())
			if cell.Style.Bold {
				attrs += ` font-weight="bold"`
			}
			if cell.Style.Italic {
				attrs += ` font-style="italic"`
			}
			if cell.Style.Underline {
				attrs += ` text-decoration="underline"`
			} else if cell.Style.Strike {
				attrs += ` text-decoration="line-through"`
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" %s>%s</text>`+"\n",
				x+cw/2, y+CellHeight-5, attrs, xmlText(visible(cell.Text)))
		}
	}
	// One frame a run of changed cells, over the text, as GridHTML.
	for r := range min(rows, len(changed)) {
		for _, run := range changedRuns(changed[r], g.Width) {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s" stroke-width="2"/>`+"\n",
				run[0]*CellWidth+1, r*CellHeight+1, (run[1]-run[0])*CellWidth-2, CellHeight-2, p.Changed.Hex())
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// frameGap is the most unchanged cells between two changed ones that a
// frame spans: a rewrapped line matches the old one by chance here and
// there ("bui l d"), and a stretch framed in pieces reads worse than one.
const frameGap = 2

// changedRuns returns the runs of changed cells of a row within width, as
// [start, end) columns, joined across gaps of at most frameGap cells.
func changedRuns(row []bool, width int) [][2]int {
	var out [][2]int
	n := min(width, len(row))
	for c := 0; c < n; c++ {
		if !row[c] {
			continue
		}
		start := c
		for c < n && row[c] {
			c++
		}
		if k := len(out) - 1; k >= 0 && start-out[k][1] <= frameGap {
			out[k][1] = c
		} else {
			out = append(out, [2]int{start, c})
		}
	}
	return out
}

// ANSI writes g's rows as text with SGR sequences (ANSI-16 colours and the
// attributes), one line per row, each ending in a reset.
func ANSI(g Grid) string {
	var b strings.Builder
	for _, row := range g.Rows {
		cur := plainStyle
		for _, cell := range row {
			if cell.Width == 0 {
				continue
			}
			if cell.Style != cur {
				b.WriteString(sgr(cell.Style))
				cur = cell.Style
			}
			b.WriteString(cell.Text)
		}
		b.WriteString("\x1b[0m\n")
	}
	return b.String()
}

// sgr is the SGR sequence that sets s from a reset.
func sgr(s Style) string {
	codes := []string{"0"}
	add := func(on bool, code string) {
		if on {
			codes = append(codes, code)
		}
	}
	add(s.Bold, "1")
	add(s.Dim, "2")
	add(s.Italic, "3")
	add(s.Underline, "4")
	add(s.Blink, "5")
	add(s.Inverse, "7")
	add(s.Invisible, "8")
	add(s.Strike, "9")
	if s.Fg >= 0 {
		codes = append(codes, fmt.Sprint(colourCode(s.Fg, 30, 90)))
	}
	if s.Bg >= 0 {
		codes = append(codes, fmt.Sprint(colourCode(s.Bg, 40, 100)))
	}
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

func colourCode(i, base, bright int) int {
	if i < 8 {
		return base + i
	}
	return bright + i - 8
}

// HighlightBg is the background (a palette index, bright black) that
// ANSIRow gives a marked cell, keeping its own foreground visible; a marked
// inverse cell, whose background is its colour, is underlined instead.
const HighlightBg = 8

// ANSIRow writes row r of g as SGR text exactly width cells wide (cut or
// padded with blanks); cells marked in mark (which may be nil) are
// highlighted.
func ANSIRow(g Grid, r, width int, mark []bool) string {
	var b strings.Builder
	cur := plainStyle
	for c := 0; c < width; c++ {
		cell := g.At(r, c)
		if cell.Width == 0 {
			continue // the placeholder after a wide cell
		}
		if cell.Width == 2 && c+1 >= width {
			cell = Cell{Text: " ", Width: 1, Style: plainStyle} // a wide cell cut at the edge
		}
		st := cell.Style
		if c < len(mark) && mark[c] {
			if st.Inverse {
				st.Underline = true
			} else {
				st.Bg = HighlightBg
			}
		}
		if st != cur {
			b.WriteString(sgr(st))
			cur = st
		}
		text := cell.Text
		if text == "" {
			text = " "
		}
		b.WriteString(text)
	}
	if cur != plainStyle {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}
