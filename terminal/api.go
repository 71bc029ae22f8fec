package terminal

import (
	"time"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// The renderer's API types: the settings a document depends on, the
// document, and the projection seam through which the renderer reads the
// log.

// Settings are everything a rendered document depends on besides the
// transcript itself.
type Settings struct {
	Width  int
	Scheme display.Scheme
	// HideReasoning hides reasoning blocks (Ctrl+R). Shown by default.
	HideReasoning bool
	Tools         display.ToolMode
	// Now is the injected clock reading, epoch ms: open timing buckets and
	// the standalone compaction indicator count up to it. An offline
	// rendering of a log takes FrozenNow.
	Now int64
	// Location formats "Completed" stamps; nil means UTC.
	Location *time.Location
	// Presenters maps tool names to card presenters; nil means the defaults.
	Presenters *cards.Presenters
	// MaxToolOutputLines is the fold limit; 0 means 6.
	MaxToolOutputLines int
	// Unstyled rows carry no SGR sequence and no trailing space: each is
	// its styled row's text alone, laid out as the styled one (styles
	// still decide where a row breaks), less its padding and any spaces
	// its text ends in. For a reader of the rows' text only, such as
	// repro's search of every size's document, which keeps only their
	// letters and digits.
	Unstyled bool
}

// FrozenNow is the clock every offline rendering of a log uses: the time of
// its last event, so open timing buckets read the same on every run. It is
// 0 for no events.
func FrozenNow(events []sessionlog.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Time
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

// NewLive returns the live path's projector under opts: Live's, or the
// projection package's by default.
func (p Projection) NewLive(opts transcript.Options) LiveProjector {
	if p.Live != nil {
		return p.Live(opts)
	}
	return transcript.NewProjector(opts)
}

// LiveProjector is the incremental projector the live path feeds.
type LiveProjector interface {
	Apply(e *sessionlog.Event) transcript.Change
	Transcript() transcript.Transcript
}
