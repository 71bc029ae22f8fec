package transcript

import (
	"fmt"
	"iter"
	"slices"

	"github.com/dshtest/dshtest/sessionlog"
)

// Window is the contiguous range events[Start:End] of a log.
type Window struct{ Start, End int }

// ProjectWindows projects many windows of one log (history pages, say) in a
// single pass over it: the k-th transcript it yields is
// Project(events[w.Start:w.End], opts) for w = windows[k].
//
// Windows may overlap and come in any order. Each event is decoded once,
// however many windows hold it, so projecting every page of several page
// sizes costs little more than one Project of the log, where projecting
// the pages one by one decodes each event once per page size. Transcripts
// are yielded as soon as their window ends: in order of End, then of k. The
// transcripts of overlapping windows may share the values their items
// point to; treat them as read-only, as any Transcript.
//
// It panics if a window is not within events (0 ≤ Start ≤ End ≤ len(events)).
func ProjectWindows(events []sessionlog.Event, windows []Window, opts Options) iter.Seq2[int, Transcript] {
	for k, w := range windows {
		if w.Start < 0 || w.Start > w.End || w.End > len(events) {
			panic(fmt.Sprintf("transcript: window %d [%d:%d] is not within a log of %d events", k, w.Start, w.End, len(events)))
		}
	}
	return func(yield func(int, Transcript) bool) {
		byStart := make([]int, len(windows))
		for k := range byStart {
			byStart[k] = k
		}
		slices.SortStableFunc(byStart, func(a, b int) int { return windows[a].Start - windows[b].Start })

		type open struct {
			k int
			r *trReplay
		}
		var active []open
		next := 0
		// finish yields every active window that ends at end, in order of k.
		finish := func(end int) bool {
			kept := active[:0]
			var done []open
			for _, a := range active {
				if windows[a.k].End == end {
					done = append(done, a)
				} else {
					kept = append(kept, a)
				}
			}
			active = kept
			slices.SortFunc(done, func(a, b open) int { return a.k - b.k })
			for _, a := range done {
				if !yield(a.k, a.r.finish()) {
					return false
				}
			}
			return true
		}
		for i := 0; i <= len(events); i++ {
			for next < len(byStart) && windows[byStart[next]].Start == i {
				active = append(active, open{byStart[next], newTrReplay(opts)})
				next++
			}
			if !finish(i) {
				return
			}
			if i == len(events) || len(active) == 0 {
				continue
			}
			e := &events[i]
			if trDependsOnWindow(e) {
				// Summaries and the markers that cite them depend on what
				// else the window holds: decode per window.
				for _, a := range active {
					a.r.apply(e)
				}
				continue
			}
			d := trDecode(e, nil, true)
			for _, a := range active {
				a.r.applyDecoded(e, &d)
			}
		}
	}
}

// trDependsOnWindow reports whether trDecode of e reads or writes the
// window's compaction summaries: a summary records itself, and a
// checkpoint's marker cites one.
func trDependsOnWindow(e *sessionlog.Event) bool {
	return sessionlog.Canonical(e.Type) == sessionlog.TypeCompactionSummary || (sessionlog.IsReplacementSurfaceEvent(e) && sessionlog.IsCheckpoint(e))
}
