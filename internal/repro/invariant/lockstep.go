package invariant

import (
	"fmt"
	"reflect"

	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// This file is the rendered invariants' pass over the second read: the
// replay and the live path are both fed as the log is read again and
// compared item by item, and each item both agree on is drawn at every
// size as soon as both have settled it, each size's document searched as
// it is drawn (stream.go). Neither path holds the whole transcript: each
// lets go of what it settled (transcript.Replay.Take,
// transcript.Projector.Drop), and an item is let go once every size has
// drawn it.
//
// Equal items make equal documents and screens: a document is drawn from
// the items alone, under the same settings for both paths, and a screen
// from the document's tail, the event count and the marker items. So the
// pass draws the replay's items only. When the paths part, or a document
// shows an expected text out of order (whose count needs the whole
// document), the pass gives up and render compares the two paths' whole
// documents instead, which says where and how they part (renderWhole).

// settleEvery is how many events the paths are fed between looks at what
// they settled; settleItems is the fewest settled items handed on at once
// (Projector.Drop costs the items kept, so it drops in stretches).
const settleEvery, settleItems = 64, 256

// settler is a live projector that says which of its items are final and
// lets go of them (transcript.Projector). A projector without it (a seam
// of the harness) is compared once the read is done.
type settler interface {
	Settled() int
	Drop(n int)
}

// replayPath is the replay as the pass reads it: fed the log and handing
// over its settled items from the front.
type replayPath interface {
	apply(e *sessionlog.Event, d *transcript.Decoded) // d: e decoded, or nil
	settled() int
	take(n int) []transcript.Item
	rest() transcript.Transcript
}

// streamedReplay is the default projection's replay, fed as the log is
// read again.
type streamedReplay struct{ r *transcript.Replay }

func (s streamedReplay) apply(e *sessionlog.Event, d *transcript.Decoded) {
	if d == nil {
		s.r.Apply(e)
	} else {
		s.r.ApplyDecoded(e, d)
	}
}
func (s streamedReplay) settled() int                 { return s.r.Settled() }
func (s streamedReplay) take(n int) []transcript.Item { return s.r.Take(n) }
func (s streamedReplay) rest() transcript.Transcript  { return s.r.Transcript() }

// wholeReplay is a Replay seam's transcript of the kept log, handed on
// from its front.
type wholeReplay struct {
	t    transcript.Transcript
	next int
}

func (w *wholeReplay) apply(*sessionlog.Event, *transcript.Decoded) {}
func (w *wholeReplay) settled() int                                 { return len(w.t.Items) - w.next }

func (w *wholeReplay) take(n int) []transcript.Item {
	out := w.t.Items[w.next : w.next+n]
	w.next += n
	return out
}

func (w *wholeReplay) rest() transcript.Transcript {
	return transcript.Transcript{Items: w.t.Items[w.next:], Progress: w.t.Progress}
}

// lockstep is the state of one pass.
type lockstep struct {
	replay  replayPath
	live    terminal.LiveProjector
	settle  settler // live's, or nil
	applied int
	// parted says the paths differ: the pass is given up.
	parted bool
	// What each path panicked with: the read goes on (for the history
	// pages), the path is fed no more, and the replay's panic is raised
	// after the read, else the live path's.
	replayPanic, livePanic string
	// draw takes the stretches of the replay's items both paths agree
	// on to the drawing.
	draw chan []transcript.Item
	// progress is the compaction in progress at the end, once the read
	// is done (draw closed).
	progress *transcript.Progress
}

// sizeRows are rows of items at one size, on their way to its search;
// done, when set, is closed once the search has searched them.
type sizeRows struct {
	items [][]string
	done  chan struct{}
}

// renderLockstep runs the pass, feeding the history pages (nil: none)
// from the same read. It returns false when the pass gave up.
func (c *Checker) renderLockstep(inputs func() *sizeInputs, pages *pageProjection) bool {
	l := &lockstep{replay: c.replayPath(), live: c.proj.NewLive(c.opts)}
	l.settle, _ = l.live.(settler)
	// The drawing lays each stretch out at every size (terminal.Drawers)
	// and hands each size's rows to that size's search.
	found := make([]docFindings, len(c.sizes))
	settings := make([]terminal.Settings, len(c.sizes))
	for i, sz := range c.sizes {
		settings[i] = c.model(nil, sz).Settings()
		// The search reads a row's text only (appendRowNorm strips the
		// styles): the rows are drawn without them.
		settings[i].Unstyled = true
	}
	l.draw = make(chan []transcript.Item, 4)
	rows := make([]chan sizeRows, len(c.sizes))
	for i := range rows {
		rows[i] = make(chan sizeRows, 2)
	}
	waits := []func(){ahead.Go(func() {
		defer func() {
			for _, ch := range rows {
				close(ch)
			}
			for range l.draw { // let the read end if the drawing did not
			}
		}()
		g := terminal.NewDrawers(settings)
		send := func(i int, items [][]string, heavy bool) {
			r := sizeRows{items: items}
			if heavy {
				r.done = make(chan struct{})
			}
			rows[i] <- r
			if heavy {
				<-r.done
			}
		}
		for items := range l.draw {
			g.Draw(items, send)
			clear(items) // let go of what they point to
		}
		g.End(l.progress, send)
	})}
	for i, ch := range rows {
		waits = append(waits, ahead.Go(func() {
			defer func() {
				for r := range ch { // let the drawing end if the search did not
					if r.done != nil {
						close(r.done)
					}
				}
			}()
			found[i] = inputs().searchSynced(func(yield func(string) bool, sync func()) {
				for r := range ch {
					for k, item := range r.items {
						r.items[k] = nil
						for _, row := range item {
							yield(row)
						}
					}
					if r.done != nil {
						sync() // the long text found, before the next size draws it
						close(r.done)
					}
				}
			}, nil)
		}))
	}
	func() {
		defer close(l.draw)
		// Each event is decoded once, for the replay, the live path and
		// the pages.
		consumers := []func(*sessionlog.Event, *transcript.Decoded){l.apply}
		if pages != nil {
			consumers = append(consumers, pages.applyDecoded)
		}
		var dec *transcript.Decoder
		_, streamed := l.replay.(streamedReplay)
		if _, live := l.live.(*transcript.Projector); streamed || live || pages != nil {
			dec = transcript.NewDecoder(c.opts)
		}
		if err := c.rereadDecoded(dec, consumers...); err != nil {
			panic(err.Error())
		}
		l.finish()
	}()
	for _, w := range waits {
		w()
	}
	if pages != nil {
		pages.end()
	}
	switch {
	case l.replayPanic != "":
		panic(l.replayPanic)
	case l.livePanic != "":
		panic(l.livePanic)
	case l.parted:
		return false
	}
	in := inputs()
	for _, f := range found {
		if len(f.unfound) > 0 {
			return false
		}
	}
	for i, f := range found {
		markers := f.markers - in.quoted
		c.sized[i] = sizeResult{lacking: map[uint64]bool{}, replayMarkers: markers, liveMarkers: markers,
			payload: in.payloadShown(f.pieces)}
	}
	return true
}

// replayPath returns the replay the pass reads: the default projection's,
// fed from the read, or a Replay seam's transcript of the kept log.
func (c *Checker) replayPath() replayPath {
	if c.proj.Replay == nil {
		return streamedReplay{transcript.NewReplay(c.opts)}
	}
	cfg := c.config(nil, c.sizes[0], nil, true)
	cfg.Log = c.scanned.events
	return &wholeReplay{t: terminal.New(cfg).Transcript()}
}

// apply feeds e to both paths and, every settleEvery events, hands on
// what both settled.
func (l *lockstep) apply(e *sessionlog.Event, d *transcript.Decoded) {
	if l.replayPanic != "" || l.livePanic != "" || l.parted {
		return // renderWhole, or the panic, reads no more of this pass
	}
	if !guardPath(&l.replayPanic, func() { l.replay.apply(e, d) }) ||
		!guardPath(&l.livePanic, func() { l.applyLive(e, d) }) {
		return
	}
	l.applied++
	if l.settle == nil || l.applied%settleEvery != 0 {
		return
	}
	if n := min(l.settle.Settled(), l.replay.settled()); n >= settleItems {
		l.hand(l.live.Transcript().Items[:n], l.replay.take(n))
		if !l.parted {
			l.settle.Drop(n)
		}
	}
}

// applyLive feeds e to the live path: its decoding, when there is one and
// the live path is the default projection's projector (a seam's own, or one
// that embeds it, decodes for itself).
func (l *lockstep) applyLive(e *sessionlog.Event, d *transcript.Decoded) {
	if p, ok := l.live.(*transcript.Projector); ok && d != nil {
		p.ApplyDecoded(e, d)
		return
	}
	l.live.Apply(e)
}

// guardPath runs f, its panic recorded in msg; it reports whether f
// returned.
func guardPath(msg *string, f func()) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			*msg = fmt.Sprint(p)
		}
	}()
	f()
	return true
}

// finish hands on the rest once the log is read: the live path must then
// hold exactly the replay's items not yet handed on, and the same
// compaction in progress.
func (l *lockstep) finish() {
	if l.replayPanic != "" || l.livePanic != "" || l.parted {
		return
	}
	var rest transcript.Transcript
	if !guardPath(&l.replayPanic, func() { rest = l.replay.rest() }) {
		return
	}
	t := l.live.Transcript()
	if len(t.Items) != len(rest.Items) || !reflect.DeepEqual(t.Progress, rest.Progress) {
		l.parted = true
		return
	}
	l.progress = rest.Progress
	l.hand(t.Items, rest.Items)
}

// hand compares live items with the replay's at the same places and hands
// the replay's to every size's drawer; a difference parts the paths.
func (l *lockstep) hand(live, replay []transcript.Item) {
	if l.parted || len(live) == 0 {
		return
	}
	for k := range live {
		if !transcript.SameItem(&live[k], &replay[k]) {
			l.parted = true
			return
		}
	}
	l.draw <- replay
}
