package transcript

import (
	"fmt"
	"iter"
	"slices"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
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
		p := NewWindows(windows, opts)
		for i := range events {
			if !p.Apply(&events[i], yield) {
				return
			}
		}
		p.End(yield)
	}
}

// Windows is ProjectWindows for a log read once, an event at a time, by a
// reader that does not keep it: Apply takes the log's next event and End
// says the log has ended, each yielding the transcripts of the windows
// that end there. An event's payloads (Data) must stay valid until the
// windows that hold it are yielded; the event itself need not.
type Windows struct {
	windows []Window
	opts    Options
	byStart []int // window indexes in order of Start
	next    int   // byStart[next] is the next window to open
	active  []openWindow
	done    []openWindow
	i       int // events applied
	// settled, when set, takes each window's settled items now and then
	// (Settled), which the window then no longer holds.
	settled func(k int, items []Item)
	// ended are the replays of windows that ended, emptied (trReplay.reset),
	// for the next windows opened: a page of one message is a replay of
	// its own, and making its lists and maps again for each was most of
	// what a page cost. They are at most as many as the windows open at
	// once.
	ended []*trReplay
	// free are the slot items of the windows that ended (trReplay.release),
	// the pool of the windows' replays: each add takes one, and they are
	// at most as many as the items of a window.
	free []*trSlotItem
}

// Settled items are taken every windowSettleEvery events, at least
// windowSettleItems at a time: a take costs the items still held.
const windowSettleEvery, windowSettleItems = 256, 64

// Settled has the windows hand their settled items, as Replay.Take hands
// them, to settled while the log is read, so that a window as long as the
// log does not hold all of its transcript: the transcript a window yields
// is then the items after them. Set it before the first Apply.
func (p *Windows) Settled(settled func(k int, items []Item)) { p.settled = settled }

type openWindow struct {
	k int
	r *trReplay
}

// NewWindows returns a projection of windows of a log yet to be read. It
// panics if a window's range is not one (0 ≤ Start ≤ End).
func NewWindows(windows []Window, opts Options) *Windows {
	for k, w := range windows {
		if w.Start < 0 || w.Start > w.End {
			panic(fmt.Sprintf("transcript: window %d [%d:%d] is not a range", k, w.Start, w.End))
		}
	}
	byStart := make([]int, len(windows))
	for k := range byStart {
		byStart[k] = k
	}
	slices.SortStableFunc(byStart, func(a, b int) int { return windows[a].Start - windows[b].Start })
	return &Windows{windows: windows, opts: opts, byStart: byStart}
}

// Apply projects the log's next event into every window that holds it,
// first yielding the windows that end before it. It returns false when
// yield did.
func (p *Windows) Apply(e *sessionlog.Event, yield func(int, Transcript) bool) bool {
	return p.apply(e, nil, yield)
}

// ApplyDecoded is Apply of e decoded by a Decoder (see Decoded).
func (p *Windows) ApplyDecoded(e *sessionlog.Event, d *Decoded, yield func(int, Transcript) bool) bool {
	return p.apply(e, &d.d, yield)
}

// apply is Apply of e, decoded as shared when it is not nil.
func (p *Windows) apply(e *sessionlog.Event, shared *trDecoded, yield func(int, Transcript) bool) bool {
	if !p.open(yield) {
		return false
	}
	p.i++
	if len(p.active) == 0 {
		return true
	}
	if trDependsOnWindow(e) {
		if sessionlog.IsReplacementSurfaceEvent(e) {
			// A checkpoint's marker cites the summaries its window
			// holds: its sources are decoded once, its marker made per
			// window.
			seqs, _ := e.Sources()
			for _, a := range p.active {
				d := a.r.summaries.checkpoint(e, seqs)
				a.r.applyDecoded(e, &d)
			}
			p.settle()
			return true
		}
		// A compaction summary (trDecode records it and decodes nothing
		// else): decoded once, recorded in every window.
		var sum *trSummary
		if shared != nil {
			sum = shared.summary
		} else {
			sum = trDecodeSummary(e)
		}
		d := trDecoded{}
		for _, a := range p.active {
			made(&a.r.summaries)[e.Seq] = sum
			a.r.applyDecoded(e, &d)
		}
		p.settle()
		return true
	}
	if shared == nil {
		d := trDecode(e, nil, true)
		p.opts.Texts.share(&d)
		shared = &d
	}
	for _, a := range p.active {
		a.r.applyDecoded(e, shared)
	}
	p.settle()
	return true
}

// settle hands on the active windows' settled items, every
// windowSettleEvery events, when Settled asks for them.
func (p *Windows) settle() {
	if p.settled == nil || p.i%windowSettleEvery != 0 {
		return
	}
	for _, a := range p.active {
		if n := a.r.settled(); n >= windowSettleItems {
			p.settled(a.k, a.r.take(n))
		}
	}
}

// End yields the windows that end with the log. It panics if a window
// reaches past the log's end.
func (p *Windows) End(yield func(int, Transcript) bool) {
	if !p.open(yield) {
		return
	}
	if len(p.active) > 0 || p.next < len(p.byStart) {
		k := p.byStart[min(p.next, len(p.byStart)-1)]
		if len(p.active) > 0 {
			k = p.active[0].k
		}
		w := p.windows[k]
		panic(fmt.Sprintf("transcript: window %d [%d:%d] is not within a log of %d events", k, w.Start, w.End, p.i))
	}
}

// open opens the windows that start at the current position and yields
// those that end there, in order of k.
func (p *Windows) open(yield func(int, Transcript) bool) bool {
	for p.next < len(p.byStart) && p.windows[p.byStart[p.next]].Start == p.i {
		var r *trReplay
		if n := len(p.ended); n > 0 {
			r, p.ended = p.ended[n-1], p.ended[:n-1]
		} else {
			r = newTrReplay(p.opts)
			r.pool = &p.free
		}
		p.active = append(p.active, openWindow{p.byStart[p.next], r})
		p.next++
	}
	kept := p.active[:0]
	done := p.done[:0]
	for _, a := range p.active {
		if p.windows[a.k].End == p.i {
			done = append(done, a)
		} else {
			kept = append(kept, a)
		}
	}
	clear(p.active[len(kept):])
	p.active = kept
	slices.SortFunc(done, func(a, b openWindow) int { return a.k - b.k })
	p.done = done
	for _, a := range done {
		if !yield(a.k, a.r.finish()) {
			return false
		}
		a.r.release() // finish copied the items out
		a.r.reset()
		p.ended = append(p.ended, a.r)
	}
	clear(p.done)
	return true
}

// trDependsOnWindow reports whether trDecode of e reads or writes the
// window's compaction summaries: a summary records itself, and a
// checkpoint's marker cites one.
func trDependsOnWindow(e *sessionlog.Event) bool {
	return sessionlog.Canonical(e.Type) == sessionlog.TypeCompactionSummary || (sessionlog.IsReplacementSurfaceEvent(e) && fastjson.IsCheckpoint(e))
}
