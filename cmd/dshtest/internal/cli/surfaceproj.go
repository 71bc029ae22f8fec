package cli

import (
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// projectorEnv selects the projection repro and view swap into the
// terminal. "surface" is a self-test: it reintroduces the seed's bug so
// that the invariants (and --minimize) can be seen to catch it.
const projectorEnv = "DSHTEST_PROJECTOR"

// projectionFor returns the terminal projection named by DSHTEST_PROJECTOR:
// the zero value (the real transcript projection) unless it is "surface".
func (a *app) projectionFor() (terminal.Projection, string, error) {
	switch v := a.getenv(projectorEnv); v {
	case "", "transcript":
		return terminal.Projection{}, "transcript", nil
	case "surface":
		return surfaceProjection(), "surface (self-test: the seed's bug)", nil
	default:
		return terminal.Projection{}, "", usagef("%s=%q: want transcript or surface", projectorEnv, v)
	}
}

// surfaceProjection is the defect the design note fixed: the transcript is
// drawn from the model surface. Only events on the surface after the fold
// are shown, and a replacement copy renders as if it were appended, so a
// compaction erases the conversation it shadowed and shows its checkpoint
// payload as injected context instead of a marker. Events the fold rejects
// (a page window whose checkpoint cites seqs before it) are skipped, as
// upstream's lenient browser fallback did.
func surfaceProjection() terminal.Projection {
	return terminal.Projection{
		Replay: func(events []sessionlog.Event, opts transcript.Options) transcript.Transcript {
			return transcript.Project(surfaceView(events), opts)
		},
		Live: func(opts transcript.Options) terminal.LiveProjector {
			return &surfaceLive{opts: opts}
		},
	}
}

// surfaceView returns the events a surface-drawn transcript sees: every
// log-only event, and the surface events still on the surface, each
// replacement turned into an append.
func surfaceView(events []sessionlog.Event) []sessionlog.Event {
	if len(events) == 0 {
		return nil
	}
	s := surface.New(events[0].Seq)
	for i := range events {
		e := events[i]
		if s.Apply(&e) != nil {
			// Keep the fold going past a rejected event: treat it as
			// log-only.
			e.SurfaceOp, e.SourceEventSeqs = nil, nil
			if sessionlog.IsSurfaceEligibleType(e.Type) {
				e.Type = "dshtest/skipped"
			}
			_ = s.Apply(&e)
		}
	}
	on := map[int64]bool{}
	for _, seq := range s.Nodes() {
		on[seq] = true
	}
	var out []sessionlog.Event
	for _, e := range events {
		if sessionlog.IsSurfaceEvent(&e) {
			if !on[e.Seq] {
				continue
			}
			if sessionlog.IsReplacementSurfaceEvent(&e) {
				e.SurfaceOp = sessionlog.AppendOp()
			}
		}
		out = append(out, e)
	}
	return out
}

// surfaceLive is the live side of the surface projection: upstream re-ran
// its destructive rebuild on every replacement; this one rebuilds on every
// event, which shows the same thing.
type surfaceLive struct {
	opts   transcript.Options
	events []sessionlog.Event
	t      transcript.Transcript
}

func (l *surfaceLive) Apply(e *sessionlog.Event) transcript.Change {
	l.events = append(l.events, *e)
	l.t = transcript.Project(surfaceView(l.events), l.opts)
	return transcript.Change{From: 0}
}

func (l *surfaceLive) Transcript() transcript.Transcript { return l.t }
