// Package mutant holds the deliberately broken projections the invariants
// and properties are tested against: each reintroduces a bug the project
// exists to catch, so that a test (and dshtest repro's self-test,
// DSHTEST_PROJECTOR=surface) can show the bug is caught. Nothing else may use
// them.
package mutant

import (
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// Surface is the defect of drawing the transcript from the model surface.
// Only events on the surface after the fold are shown, and a replacement
// copy renders as if it were appended, so a compaction erases the
// conversation it shadowed and shows its checkpoint payload as injected
// context instead of a marker. Events the fold rejects (a page window whose
// checkpoint cites seqs before it) are skipped, as upstream's lenient
// browser fallback did. Its live path re-projects the whole view, as
// upstream re-ran its destructive rebuild.
func Surface() terminal.Projection { return View(SurfaceView) }

// Leaky renders replacement copies (checkpoints, pruned results,
// regenerated answers) as if they were appended.
func Leaky() terminal.Projection { return View(LeakyView) }

// SurfaceView returns the events a surface-drawn transcript sees: every
// log-only event, and the surface events still on the surface, each
// replacement turned into an append.
func SurfaceView(events []sessionlog.Event) []sessionlog.Event {
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

// LeakyView returns events with every replacement turned into an append.
func LeakyView(events []sessionlog.Event) []sessionlog.Event {
	out := make([]sessionlog.Event, len(events))
	for i, e := range events {
		if sessionlog.IsReplacementSurfaceEvent(&e) {
			e.SurfaceOp = sessionlog.AppendOp()
		}
		out[i] = e
	}
	return out
}

// View projects view(log) on both paths; the live path re-projects the
// whole view whenever its transcript is read.
func View(view func([]sessionlog.Event) []sessionlog.Event) terminal.Projection {
	return terminal.Projection{
		Replay: func(events []sessionlog.Event, o transcript.Options) transcript.Transcript {
			return transcript.Project(view(events), o)
		},
		Live: func(o transcript.Options) terminal.LiveProjector {
			return &rebuildLive{view: view, opts: o}
		},
	}
}

// rebuildLive re-projects the whole view whenever its transcript is read.
type rebuildLive struct {
	view   func([]sessionlog.Event) []sessionlog.Event
	opts   transcript.Options
	events []sessionlog.Event
	t      *transcript.Transcript
}

func (l *rebuildLive) Apply(e *sessionlog.Event) transcript.Change {
	l.events = append(l.events, *e)
	l.t = nil
	return transcript.Change{From: 0}
}

func (l *rebuildLive) Transcript() transcript.Transcript {
	if l.t == nil {
		t := transcript.Project(l.view(l.events), l.opts)
		l.t = &t
	}
	return *l.t
}
