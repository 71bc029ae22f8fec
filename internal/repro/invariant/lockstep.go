package invariant

import (
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// This file is the rendered invariants' pass in step with the second read:
// the live path is compared with the replay item by item as the read feeds
// it, and each item both paths agree on is drawn at every size as soon as
// the live projector has settled it, each size's document searched as it
// is drawn (stream.go). Neither path is held whole: the live projector
// drops what it settled, and a replayed item is let go once every size has
// drawn it.
//
// Equal items make equal documents and screens: a document is drawn from
// the items alone, under the same settings for both paths, and a screen
// from the document's tail, the event count and the marker items. So the
// pass draws the replay only. When the paths part, or a document shows an
// expected text out of order (whose count needs the whole document), the
// pass gives up and render compares the two paths' whole documents
// instead, which says where and how they part (renderWhole).

// settleEvery is how many events the live projector is fed between looks
// at what it settled; settleItems is the fewest settled items handed on at
// once (Projector.Drop costs the items kept, so it drops in stretches).
const settleEvery, settleItems = 64, 256

// settler is a live projector that says which of its items are final and
// lets go of them (transcript.Projector). A projector without it (a seam
// of the harness) is compared once the read is done.
type settler interface {
	Settled() int
	Drop(n int)
}

// lockstep is the state of one pass.
type lockstep struct {
	replay   []transcript.Item // the replay's items, let go as drawn
	progress *transcript.Progress
	next     int // the replay's items handed to the drawers so far
	live     terminal.LiveProjector
	settle   settler // live's, or nil
	applied  int
	// parted says the paths differ: the pass is given up.
	parted bool
	sizes  []chan *drawBatch // a batch to draw, to each size's drawer
}

// drawBatch is a stretch of the replay's items both paths agree on, and
// how many sizes have yet to draw it.
type drawBatch struct {
	items []transcript.Item
	left  atomic.Int32
}

// drawn is called by each size once it has drawn b: the last lets go of
// its items.
func (b *drawBatch) drawn() {
	if b.left.Add(-1) == 0 {
		clear(b.items)
	}
}

// renderLockstep runs the pass over the replayed transcript, feeding the
// history pages (nil: none) from the same read. It returns false when the
// pass gave up, after the read.
func (c *Checker) renderLockstep(replayed transcript.Transcript, inputs func() *sizeInputs, pages *pageProjection) bool {
	l := &lockstep{replay: replayed.Items, progress: replayed.Progress, live: c.proj.NewLive(c.opts)}
	l.settle, _ = l.live.(settler)
	found := make([]docFindings, len(c.sizes))
	waits := make([]func(), len(c.sizes))
	for i, sz := range c.sizes {
		ch := make(chan *drawBatch, 4)
		l.sizes = append(l.sizes, ch)
		d := terminal.NewDrawer(c.model(nil, sz).Settings())
		waits[i] = ahead.Go(func() {
			defer func() {
				for b := range ch { // let the read end if the drawing did not
					b.drawn()
				}
			}()
			rows := func(yield func(string) bool) {
				for b := range ch {
					ok := d.Draw(b.items, yield)
					b.drawn()
					if !ok {
						return
					}
				}
				d.End(l.progress, yield)
			}
			found[i] = inputs().search(rows, nil)
		})
	}
	func() {
		defer func() {
			for _, ch := range l.sizes {
				close(ch)
			}
		}()
		consumers := []func(*sessionlog.Event){l.apply}
		if pages != nil {
			consumers = append(consumers, pages.apply)
		}
		if err := c.reread(consumers...); err != nil {
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
	if l.parted {
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

// apply feeds e to the live path and, every settleEvery events, hands on
// what it settled.
func (l *lockstep) apply(e *sessionlog.Event) {
	if l.parted {
		return // the pass is given up: renderWhole reads the log again
	}
	l.live.Apply(e)
	l.applied++
	if l.settle == nil || l.applied%settleEvery != 0 {
		return
	}
	if n := l.settle.Settled(); n >= settleItems {
		l.hand(l.live.Transcript().Items[:n])
		if !l.parted {
			l.settle.Drop(n)
		}
	}
}

// finish hands on the rest once the log is read: the live path must then
// hold exactly the replay's items not yet handed on, and its compaction
// in progress.
func (l *lockstep) finish() {
	if l.parted {
		return
	}
	t := l.live.Transcript()
	l.hand(t.Items)
	if l.next != len(l.replay) || !reflect.DeepEqual(t.Progress, l.progress) {
		l.parted = true
	}
}

// hand compares live items, the live transcript's next stretch, with the
// replay's and hands the replay's to every size's drawer; a difference
// parts the paths.
func (l *lockstep) hand(items []transcript.Item) {
	if l.parted || len(items) == 0 {
		return
	}
	if l.next+len(items) > len(l.replay) {
		l.parted = true
		return
	}
	want := l.replay[l.next : l.next+len(items)]
	for k := range items {
		if !transcript.SameItem(&items[k], &want[k]) {
			l.parted = true
			return
		}
	}
	l.next += len(items)
	b := &drawBatch{items: want}
	b.left.Store(int32(len(l.sizes)))
	for _, ch := range l.sizes {
		ch <- b
	}
	if l.next >= compactItems && l.next >= len(l.replay)-l.next {
		// The items handed on are let go as drawn, but the array that
		// holds them (an Item is about a hundred bytes) would stay whole
		// to the end: the rest moves to an array of its own.
		l.replay, l.next = slices.Clone(l.replay[l.next:]), 0
	}
}

// compactItems is the fewest replayed items handed on before the rest is
// moved to an array of its own (hand).
const compactItems = 4096
