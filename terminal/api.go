// Package terminal is the real terminal renderer of the human transcript: a
// Bubble Tea v2 program with a replay path (mount or resume: rebuild from the
// stored log) and a live path (appended events arrive one by one and update
// the view through the incremental projector).
//
// Everything it shows is a function of the log, the size, the colour scheme,
// the toggles and the injected clock; never of TERM, NO_COLOR, COLORTERM, TZ,
// the locale or timing. Rows are styled with lipgloss v2, which emits SGR
// sequences whatever the terminal; the program's colour profile decides
// what reaches the screen.
//
// [Render] is the pure renderer: a transcript and [Settings] in, a
// [Document] (one styled row per line, SGR only, each at most Width cells)
// out. The program ([New], [Model]) renders the same rows through a per-item
// cache and draws only the visible window. A document with many items to
// render is rendered on several goroutines (the output is the same); a
// [RowCache] lets models that show one session share rows, and
// [Model.DocumentRows] reads a document without collecting it.
//
// # Rendering rules
//
// The layout follows the shared spec, terminal.md, with its §11 amendments:
// UI-action notices (reasoning and card-visibility toggles) go to the status
// line, never into the transcript.
//
// Untrusted text: every string from the log, a tool or a presenter is
// escaped before styling (displayText: C0 controls except LF, DEL and C1
// controls become \xNN; single-row fields also turn LF into \x0a). Bytes
// that are not valid UTF-8 are shown as U+FFFD, as a JSON decoder would
// have decoded them. No byte of a log can move the cursor or retitle the
// terminal.
//
// Markdown: prompts, assistant text, reasoning and generic card bodies are
// Markdown (presenters.md §3), parsed by goldmark and laid out by
// upstream's rules (markdown.go): block spacing, fences with their own open
// and close rows, headings, lists with accent bullets (renumbered),
// quotes, rules, tables, inline code, bold, italic, strike and links; a
// row that wraps inside a styled span keeps the style on its padding.
//
// Wrapping: word wrap at spaces, spaces dropped at a break, words longer
// than the width broken between grapheme clusters; widths are
// ansi.StringWidth cells (wide CJK and emoji count 2), widened where a
// terminal measuring by code point (glibc's wcwidth) draws more: an emoji
// modifier standing alone is a cell of its own, 2 wide (termwidth.go). A
// grapheme wider than
// the whole width (a wide rune at width 1) is shown as U+FFFD. The
// tool-card and context-card headers are truncated to max(1, width−2) cells
// with a trailing "…" and are not padded; every other text row is padded
// with spaces to the width; Spacer and gap rows are "" (unwritten).
//
// Palette: ANSI-16 foregrounds only, no backgrounds. The dark scheme uses
// bright magenta (95) for the accent and cyan (36) for code; the light
// scheme magenta (35) and blue (34).
package terminal

import (
	"time"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// Settings are everything a rendered document depends on besides the
// transcript itself.
type Settings struct {
	Width  int
	Scheme display.Scheme
	// HideReasoning hides reasoning blocks (Ctrl+R). Shown by default.
	HideReasoning bool
	Tools         display.ToolMode
	// Now is the injected clock reading, epoch ms: open timing buckets and
	// the standalone compaction indicator count up to it.
	Now int64
	// Location formats "Completed" stamps; nil means UTC.
	Location *time.Location
	// Presenters maps tool names to card presenters; nil means the defaults.
	Presenters *cards.Presenters
	// MaxToolOutputLines is the fold limit; 0 means 6.
	MaxToolOutputLines int
}

// Document is a rendered transcript: one styled row per line (SGR only, no
// cursor movement, no newline), each at most Width cells wide. A row's
// written width is its display width; cells past it are unwritten. A blank
// Spacer row is "".
type Document struct {
	Width int
	Lines []string
}

// Projection is the seam through which the renderer reads the log. The
// default is the projection package's transcript; the harness swaps it to
// prove that it catches a projector that draws from the model surface.
type Projection struct {
	// Replay projects a whole stored log (mount and resume).
	Replay func(events []sessionlog.Event, opts transcript.Options) transcript.Transcript
	// Live returns an incremental projector for events appended after mount.
	Live func(opts transcript.Options) LiveProjector
}

// LiveProjector is the incremental projector the live path feeds.
type LiveProjector interface {
	Apply(e *sessionlog.Event) transcript.Change
	Transcript() transcript.Transcript
}
