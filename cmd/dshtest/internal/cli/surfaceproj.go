package cli

import (
	"github.com/dshtest/dshtest/projection"
	"github.com/dshtest/dshtest/projection/terminal"
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
		Replay: func(events []projection.Event, opts projection.TranscriptOptions) projection.Transcript {
			return projection.Project(surfaceView(events), opts)
		},
		Live: func(opts projection.TranscriptOptions) terminal.LiveProjector {
			return &surfaceLive{opts: opts}
		},
	}
}

// surfaceView returns the events a surface-drawn transcript sees: every
// log-only event, and the surface events still on the surface, each
// replacement turned into an append.
func surfaceView(events []projection.Event) []projection.Event {
	if len(events) == 0 {
		return nil
	}
	s := projection.NewSurface(events[0].Seq)
	for i := range events {
		e := events[i]
		if s.Apply(&e) != nil {
			// Keep the fold going past a rejected event: treat it as
			// log-only.
			e.SurfaceOp, e.SourceEventSeqs = nil, nil
			if projection.IsSurfaceEligibleType(e.Type) {
				e.Type = "dshtest/skipped"
			}
			_ = s.Apply(&e)
		}
	}
	on := map[int64]bool{}
	for _, seq := range s.Nodes() {
		on[seq] = true
	}
	var out []projection.Event
	for _, e := range events {
		if projection.IsSurfaceEvent(&e) {
			if !on[e.Seq] {
				continue
			}
			if projection.IsReplacementSurfaceEvent(&e) {
				e.SurfaceOp = projection.AppendOp()
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
	opts   projection.TranscriptOptions
	events []projection.Event
	t      projection.Transcript
}

func (l *surfaceLive) Apply(e *projection.Event) projection.Change {
	l.events = append(l.events, *e)
	l.t = projection.Project(surfaceView(l.events), l.opts)
	return projection.Change{From: 0}
}

func (l *surfaceLive) Transcript() projection.Transcript { return l.t }
