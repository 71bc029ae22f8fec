// Package picture draws recorded screens: a fixture's rows and style runs
// become a grid of cells in the scheme's ANSI-16 palette, written as SVG,
// as HTML (a page, or the cards of a review report) or as ANSI text for a
// terminal. Pictures are for pull requests and issues; they are made from
// the fixture text alone, so they need no terminal and no network.
//
// Everything written is escaped for its medium: HTML and SVG text through
// html.EscapeString, ANSI text with control characters shown as \xNN.
package picture

import (
	"fmt"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// RGB is a 24-bit colour.
type RGB struct{ R, G, B uint8 }

// Hex is the colour as "#rrggbb".
func (c RGB) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// mix returns c moved toward d by the fraction f.
func (c RGB) mix(d RGB, f float64) RGB {
	m := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*f + 0.5) }
	return RGB{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B)}
}

// Palette is a scheme's colours: the terminal's default foreground and
// background and the 16 ANSI colours, by index (black … bright-white).
type Palette struct {
	Name   string
	Fg, Bg RGB
	ANSI   [16]RGB
	// Changed frames a run of changed cells (a frame inside the run's
	// edges, so its cells' own colours stay visible).
	Changed RGB
}

var (
	darkPalette = Palette{
		Name: "dark",
		Fg:   RGB{0xd4, 0xd4, 0xd4}, Bg: RGB{0x1e, 0x1e, 0x1e},
		ANSI: [16]RGB{
			{0x00, 0x00, 0x00}, {0xcd, 0x31, 0x31}, {0x0d, 0xbc, 0x79}, {0xe5, 0xe5, 0x10},
			{0x24, 0x72, 0xc8}, {0xbc, 0x3f, 0xbc}, {0x11, 0xa8, 0xcd}, {0xe5, 0xe5, 0xe5},
			{0x66, 0x66, 0x66}, {0xf1, 0x4c, 0x4c}, {0x23, 0xd1, 0x8b}, {0xf5, 0xf5, 0x43},
			{0x3b, 0x8e, 0xea}, {0xd6, 0x70, 0xd6}, {0x29, 0xb8, 0xdb}, {0xff, 0xff, 0xff},
		},
		Changed: RGB{0xff, 0x9f, 0x1c},
	}
	lightPalette = Palette{
		Name: "light",
		Fg:   RGB{0x1f, 0x1f, 0x1f}, Bg: RGB{0xff, 0xff, 0xff},
		ANSI: [16]RGB{
			{0x00, 0x00, 0x00}, {0xcd, 0x31, 0x31}, {0x00, 0xbc, 0x00}, {0x94, 0x98, 0x00},
			{0x04, 0x51, 0xa5}, {0xbc, 0x05, 0xbc}, {0x05, 0x98, 0xbc}, {0x55, 0x55, 0x55},
			{0x66, 0x66, 0x66}, {0xcd, 0x31, 0x31}, {0x14, 0xce, 0x14}, {0xb5, 0xba, 0x00},
			{0x04, 0x51, 0xa5}, {0xbc, 0x05, 0xbc}, {0x05, 0x98, 0xbc}, {0xa5, 0xa5, 0xa5},
		},
		Changed: RGB{0xff, 0x6a, 0x00},
	}
)

// PaletteFor returns the palette of a scheme.
func PaletteFor(s display.Scheme) Palette {
	if s == display.SchemeLight {
		return lightPalette
	}
	return darkPalette
}

// FixturePalette returns the palette of a fixture's scheme setting
// ("scheme=light"); a fixture that names no scheme, or none known, is dark.
func FixturePalette(f *screen.Fixture) Palette {
	s, _ := display.ParseScheme(f.Setting("scheme"))
	return PaletteFor(s)
}

// colourIndex maps the fixture's colour names to palette indices.
var colourIndex = map[string]int{
	"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
	"bright-black": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11,
	"bright-blue": 12, "bright-magenta": 13, "bright-cyan": 14, "bright-white": 15,
}

// Style is a cell's attributes. Fg and Bg are palette indices, -1 for the
// default colour.
type Style struct {
	Fg, Bg                                int
	Bold, Dim, Italic, Underline, Inverse bool
	Strike, Invisible, Blink              bool
}

var plainStyle = Style{Fg: -1, Bg: -1}

// ParseLabels reads a style run's labels ("fg=bright-magenta bold
// underline"). Colours outside the 16 (which the theme rule forbids) are
// drawn in the default colour.
func ParseLabels(labels string) Style {
	s := plainStyle
	for _, l := range strings.Fields(labels) {
		k, v, _ := strings.Cut(l, "=")
		switch k {
		case "fg", "bg":
			i, ok := colourIndex[v]
			if !ok {
				i = -1
			}
			if k == "fg" {
				s.Fg = i
			} else {
				s.Bg = i
			}
		case "bold":
			s.Bold = true
		case "dim":
			s.Dim = true
		case "italic":
			s.Italic = true
		case "underline":
			s.Underline = true
		case "inverse":
			s.Inverse = true
		case "strike":
			s.Strike = true
		case "invisible":
			s.Invisible = true
		case "blink":
			s.Blink = true
		}
	}
	return s
}

// Colours returns the cell's foreground and background in a palette,
// after inverse and dim.
func (s Style) Colours(p Palette) (fg, bg RGB) {
	fg, bg = p.Fg, p.Bg
	if s.Fg >= 0 {
		fg = p.ANSI[s.Fg]
	}
	if s.Bg >= 0 {
		bg = p.ANSI[s.Bg]
	}
	if s.Inverse {
		fg, bg = bg, fg
	}
	if s.Dim {
		fg = fg.mix(bg, 0.45)
	}
	return fg, bg
}

// Cell is one terminal cell. A wide character's cell has Width 2 and is
// followed by a placeholder cell with Width 0.
type Cell struct {
	Text  string
	Width int
	Style Style
}

// Grid is a screen (or a document) as cells, row by row. Rows are as long
// as their written cells; Width is the terminal's width.
type Grid struct {
	Width int
	Rows  [][]Cell
}

// FromRows makes the grid of decoded or parsed rows: each row's text is
// split into cells (graphemes and their widths, as the terminal's cell
// model does) and its style runs are applied by column.
func FromRows(rows []screen.Row, width int) Grid {
	g := Grid{Width: width}
	for _, r := range rows {
		var cells []Cell
		if r.Text != "" {
			// Control characters (which no fixture should hold) are shown
			// as \xNN rather than handed to the cell reader.
			lines := uv.NewStyledString(visible(r.Text)).Lines(ansi.GraphemeWidth)
			if len(lines) > 0 {
				// One cell per column: a wide character's cell is
				// followed by placeholders (Width 0), so that style runs,
				// which count columns, index cells directly.
				for _, c := range lines[0] {
					if c.Width == 0 && c.Content == "" {
						continue // the reader's own placeholder, if any
					}
					w := max(c.Width, 1)
					cells = append(cells, Cell{Text: c.Content, Width: w, Style: plainStyle})
					for range w - 1 {
						cells = append(cells, Cell{Style: plainStyle})
					}
				}
			}
		}
		for _, run := range r.Runs {
			st := ParseLabels(run.Labels)
			for col := run.Start; col <= run.End && col < len(cells); col++ {
				cells[col].Style = st
			}
		}
		g.Rows = append(g.Rows, cells)
	}
	g.Width = max(g.Width, g.widest())
	return g
}

func (g Grid) widest() int {
	w := 0
	for _, r := range g.Rows {
		w = max(w, len(r))
	}
	return w
}

// At returns the cell at row, col: an unwritten cell is a blank in the
// default style.
func (g Grid) At(row, col int) Cell {
	if row < len(g.Rows) && col < len(g.Rows[row]) {
		return g.Rows[row][col]
	}
	return Cell{Text: " ", Width: 1, Style: plainStyle}
}

// Changes marks the cells that differ between two grids (text or style),
// over the larger of their sizes: changes[row][col].
func Changes(a, b Grid) [][]bool {
	h := max(len(a.Rows), len(b.Rows))
	w := max(a.Width, b.Width)
	out := make([][]bool, h)
	for r := range h {
		out[r] = make([]bool, w)
		for c := range w {
			out[r][c] = a.At(r, c) != b.At(r, c)
		}
	}
	return out
}

// ChangedRows counts the rows of changes that hold a changed cell. Rows,
// not cells, are how a change reads: a rewrapped line shifts every cell
// after the wrap, so one changed line may be hundreds of changed cells.
func ChangedRows(changes [][]bool) int {
	n := 0
	for _, r := range changes {
		for _, c := range r {
			if c {
				n++
				break
			}
		}
	}
	return n
}

// ChangeSummary is how a change is counted where it is shown: "3 rows
// changed".
func ChangeSummary(changes [][]bool) string {
	n := ChangedRows(changes)
	return fmt.Sprintf("%d %s changed", n, plural(n, "row", "rows"))
}

// visible is a fixture's text as every output shows it: through the one
// escaper (control characters as \xNN, BiDi and other reordering
// characters as \uNNNN). A fixture is input too.
func visible(s string) string { return display.EscapeInline(s) }
