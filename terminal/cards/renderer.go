package cards

import (
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/markdown"
	"github.com/dshtest/dshtest/terminal/palette"
	"github.com/dshtest/dshtest/transcript"
)

// The card renderer: its settings, the header row, the preview fold, and
// the context card.

// DefaultMaxToolOutputLines is the default fold limit of card bodies.
const DefaultMaxToolOutputLines = 6

// Renderer draws cards under fixed settings. It is a value the renderer
// fills once per settings; every field must be set but Presenters.
type Renderer struct {
	// Width is the row width, at least 1.
	Width int
	// Palette writes the rows in the scheme's colours.
	Palette *palette.Palette
	// MaxLines is the fold limit, at least 1.
	MaxLines int
	// Tools is the tool-card mode: expanded cards are not folded. (Hidden
	// cards are not drawn at all; that is the caller's to decide.)
	Tools display.ToolMode
	// Presenters maps tool names to presenters; nil means the defaults.
	Presenters *Presenters
	// Memo, when set, keeps the parse of the Markdown bodies laid out, for
	// the same card drawn at another width (markdown.Memo).
	Memo *markdown.Memo
	// Layouts, when set, keeps the width-independent layout of the tool
	// cards drawn, for the same card drawn at another width (Layouts).
	Layouts *Layouts
}

// text wraps logical lines to the width and renders them as padded rows.
func (r *Renderer) text(lines []display.Line) []string {
	return r.Palette.Wrapped(lines, r.Width)
}

// unpadded renders one line cut to max(1, width−2) cells, with no
// ellipsis, and not padded: the card header rows (terminal.md §5.1;
// transcript.ts cuts a tool card's header with truncateToWidth with an empty ellipsis).
func (r *Renderer) unpadded(l display.Line) string {
	return r.Palette.Unpadded(display.CutLine(l, max(1, r.Width-2)))
}

// ContextCard renders an injected-context card (terminal.md §2.7).
func (r *Renderer) ContextCard(c *transcript.ContextCard) []string {
	rows := []string{"", r.unpadded(display.TextLine("Context · "+display.EscapeInline(c.Label), dimSty))}
	body := stripReminderFrame(c.Text)
	if body == "" {
		return rows
	}
	// Blank lines are kept: each is a blank row, and a line of the fold
	// (terminal.md §2.7; transcript.ts ContextCardComponent.renderLines).
	var lines []display.Line
	for _, l := range strings.Split(body, "\n") {
		var line display.Line
		if l != "" {
			line = display.TextLine(display.Escape(l), dimSty)
		}
		lines = append(lines, line)
	}
	return append(rows, r.text(r.fold(lines))...)
}

// stripReminderFrame drops an outer <name>…</name> frame whose first and
// last trimmed lines are the matching tags, and the empty lines it leaves.
func stripReminderFrame(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return s
	}
	first := strings.TrimSpace(lines[0])
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(first) < 3 || first[0] != '<' || first[len(first)-1] != '>' {
		return s
	}
	name := first[1 : len(first)-1]
	if !validTagName(name) || last != "</"+name+">" {
		return s
	}
	// Only the empty lines the frame leaves go (transcript.ts
	// stripReminderFrame trims newlines, not spaces).
	inner := lines[1 : len(lines)-1]
	for len(inner) > 0 && inner[0] == "" {
		inner = inner[1:]
	}
	for len(inner) > 0 && inner[len(inner)-1] == "" {
		inner = inner[:len(inner)-1]
	}
	return strings.Join(inner, "\n")
}

// validTagName matches [a-zA-Z][\w:.-]*.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range []byte(name) {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !alpha {
			return false
		}
		if !alpha && !(c >= '0' && c <= '9') && !strings.ContainsRune("_:.-", rune(c)) {
			return false
		}
	}
	return true
}

// foldMarker is the dim row that replaces folded lines.
func foldMarker(k int) display.Line {
	return display.TextLine("… +"+strconv.Itoa(k)+" lines (Ctrl+O to expand)", dimSty)
}

// fold applies the preview rule (terminal.md §5.3) to logical lines unless
// cards are expanded.
func (r *Renderer) fold(lines []display.Line) []display.Line {
	n := r.MaxLines
	if r.Tools == display.ToolsExpanded || len(lines) <= n {
		return lines
	}
	head, tail := (n+1)/2, n/2
	out := make([]display.Line, 0, n+1)
	out = append(out, lines[:head]...)
	out = append(out, foldMarker(len(lines)-n))
	return append(out, lines[len(lines)-tail:]...)
}
