// Package screen turns styled terminal rows into cells and writes them in
// the fixture text format: one quoted string per row, which keeps the
// meaning of trailing spaces, followed by its style runs with named
// attributes. The format follows upstream dsh's .expected.txt snapshots
// (terminal.md §9), so a person can read and diff it and no raw escape byte
// ever reaches a fixture.
//
// Rows are decoded with ultraviolet's styled-string reader, the same cell
// model the terminal uses, so a fixture records what a terminal would show.
package screen

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Row is one decoded screen row.
type Row struct {
	// Text is the row's written cells; cells past the last written one
	// (unwritten) are not part of it, so trailing spaces are meaningful.
	Text string
	// Width is the display width of Text in cells.
	Width int
	// Runs are the row's style runs, left to right.
	Runs []Run
	// Wrapped marks a soft-wrapped continuation row (upstream "~").
	Wrapped bool
}

// Blank reports whether the row prints as <blank>: nothing written, no
// style, not a wrapped continuation.
func (r Row) Blank() bool { return r.Text == "" && len(r.Runs) == 0 && !r.Wrapped }

// Run is a maximal stretch of cells [Start, End] (inclusive) that share the
// same non-empty label string.
type Run struct {
	Start, End int
	Labels     string
}

// String formats the run as its fixture line without indentation.
func (r Run) String() string { return fmt.Sprintf("style %d-%d %s", r.Start, r.End, r.Labels) }

// Decode decodes styled rows (one row per string, SGR sequences only) into
// cells. Every cell of a row contributes its labels to the style runs; other
// escape sequences are dropped, as a terminal's cell model would drop them.
func Decode(lines []string) []Row {
	rows := make([]Row, len(lines))
	for i, l := range lines {
		rows[i] = DecodeLine(l)
	}
	return rows
}

// DecodeLine decodes one styled row. A row containing a newline is decoded
// up to the newline only.
func DecodeLine(s string) Row {
	var row Row
	lines := uv.NewStyledString(s).Lines(ansi.GraphemeWidth)
	if len(lines) == 0 {
		return row
	}
	var text strings.Builder
	col := 0
	for i := range lines[0] {
		c := &lines[0][i]
		if c.Width == 0 && c.Content == "" {
			continue // placeholder of a wide cell
		}
		text.WriteString(c.Content)
		labels := Labels(&c.Style)
		w := max(c.Width, 1)
		if labels != "" {
			n := len(row.Runs)
			if n > 0 && row.Runs[n-1].Labels == labels && row.Runs[n-1].End == col-1 {
				row.Runs[n-1].End = col + w - 1
			} else {
				row.Runs = append(row.Runs, Run{Start: col, End: col + w - 1, Labels: labels})
			}
		}
		col += w
	}
	row.Text = text.String()
	row.Width = col
	return row
}

// Labels names a cell style's attributes in the fixed upstream order:
// fg, bg, bold, dim, italic, underline, blink, inverse, invisible, strike.
// The default colours give no label.
func Labels(s *uv.Style) string {
	var parts []string
	if s.Fg != nil {
		parts = append(parts, "fg="+ColorName(s.Fg))
	}
	if s.Bg != nil {
		parts = append(parts, "bg="+ColorName(s.Bg))
	}
	attrs := []struct {
		bit  uint8
		name string
	}{
		{uv.AttrBold, "bold"}, {uv.AttrFaint, "dim"}, {uv.AttrItalic, "italic"},
	}
	for _, a := range attrs {
		if s.Attrs&a.bit != 0 {
			parts = append(parts, a.name)
		}
	}
	if s.Underline != ansi.UnderlineNone {
		parts = append(parts, "underline")
	}
	more := []struct {
		bit  uint8
		name string
	}{
		{uv.AttrBlink | uv.AttrRapidBlink, "blink"}, {uv.AttrReverse, "inverse"},
		{uv.AttrConceal, "invisible"}, {uv.AttrStrikethrough, "strike"},
	}
	for _, a := range more {
		if s.Attrs&a.bit != 0 {
			parts = append(parts, a.name)
		}
	}
	return strings.Join(parts, " ")
}

var paletteNames = [16]string{
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow",
	"bright-blue", "bright-magenta", "bright-cyan", "bright-white",
}

// ColorName names a colour as upstream fixtures do: the palette name for
// indices 0–15, ansi-N for 16–255, #rrggbb otherwise.
func ColorName(c color.Color) string {
	switch c := c.(type) {
	case ansi.BasicColor:
		return paletteNames[c&15]
	case ansi.IndexedColor:
		if c < 16 {
			return paletteNames[c]
		}
		return "ansi-" + strconv.Itoa(int(c))
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// Violations applies the theme rule of terminal.md §9.2 to rows: a cell may
// use only the 16 ANSI foregrounds and no background. Each violation reads
// "row:col reason".
func Violations(rows []Row) []string {
	var out []string
	for i, r := range rows {
		for _, run := range r.Runs {
			for _, l := range strings.Fields(run.Labels) {
				name, val, ok := strings.Cut(l, "=")
				if !ok {
					continue
				}
				reason := ""
				switch {
				case name == "bg":
					reason = "explicit-bg"
				case strings.HasPrefix(val, "#"):
					reason = "rgb-" + name
				case strings.HasPrefix(val, "ansi-"):
					reason = "extended-" + name + "-" + strings.TrimPrefix(val, "ansi-")
				}
				if reason != "" {
					out = append(out, fmt.Sprintf("%d:%d %s", i, run.Start, reason))
				}
			}
		}
	}
	return out
}
