// Package terminal is the real terminal renderer of the human transcript: a
// Bubble Tea v2 program with a replay path (mount or resume: rebuild from the
// stored log) and a live path (appended events arrive one by one and update
// the view through the incremental projector).
//
// Everything it shows is a function of the log, the size, the colour scheme,
// the toggles and the injected clock.
package terminal

import (
	"time"

	"github.com/dshtest/dshtest/projection"
)

// Scheme is the colour scheme.
type Scheme uint8

const (
	SchemeDark Scheme = iota
	SchemeLight
)

// ToolMode is the tool-card visibility state that Ctrl+O cycles.
type ToolMode uint8

const (
	ToolsCollapsed ToolMode = iota
	ToolsExpanded
	ToolsHidden
)

// Settings are everything a rendered document depends on besides the
// transcript itself.
type Settings struct {
	Width  int
	Scheme Scheme
	// HideReasoning hides reasoning blocks (Ctrl+R). Shown by default.
	HideReasoning bool
	Tools         ToolMode
	// Now is the injected clock reading, epoch ms: open timing buckets and
	// the standalone compaction indicator count up to it.
	Now int64
	// Location formats "Completed" stamps; nil means UTC.
	Location *time.Location
	// Presenters maps tool names to card presenters; nil means the defaults.
	Presenters *Presenters
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
	Replay func(events []projection.Event, opts projection.TranscriptOptions) projection.Transcript
	// Live returns an incremental projector for events appended after mount.
	Live func(opts projection.TranscriptOptions) LiveProjector
}

// LiveProjector is the incremental projector the live path feeds.
type LiveProjector interface {
	Apply(e *projection.Event) projection.Change
	Transcript() projection.Transcript
}

// Presenters maps tool names to card presenters. (Placeholder: the renderer
// defines its fields.)
type Presenters struct{}
