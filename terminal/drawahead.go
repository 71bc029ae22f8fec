package terminal

import (
	"sync/atomic"

	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// A ReplayDrawer draws the replay of a log as the log is read, for a
// reader that wants RenderRows of the whole transcript (dshtest render):
// the items the replay has settled are drawn on a goroutine of its own
// while the read goes on, so that drawing and reading share the cores
// (drawn after the read, a long log's drawing waited for all of it) and
// no drawn item is held. Its rows are RenderRows' under s with s.Now the
// log's frozen clock (FrozenNow), which is known only at the end (Finish):
// the items drawn before are settled, and a settled item never reads the
// clock, since only an open timing bucket does and a footer whose bucket
// is open is not settled (TestReplayDrawerIsRenderRows).
//
// A reader that holds the rows drawn during the read (render prints none
// for a log it refuses) bounds them through yield: once yield says so, no
// more is drawn ahead, and the replay holds the rest until Finish.
type ReplayDrawer struct {
	replay  *transcript.Replay
	drawer  *Drawer
	yield   func(string) bool
	full    atomic.Bool // yield said to draw no more ahead
	applied int
	// stretches carries settled items to the drawing goroutine, within
	// room; wait returns once it has drawn every one sent.
	stretches chan stretch
	room      *ahead.Room
	wait      func()
}

// stretch is items handed to the drawing goroutine, with the slots of
// room they took.
type stretch struct {
	items []transcript.Item
	slots int
}

// Settled items are taken every replayDrawEvery events, at least
// replayDrawItems at a time: a Take costs the items still held.
//
// Up to drawAheadStretches stretches, of at most about drawAheadText
// bytes of text in all (itemText), wait for the drawing goroutine. A
// stretch's drawing time varies with its items (a long tool output's
// card costs more than many short answers): with two waiting, the read
// and the drawing each stood still for the other now and then, and a
// trace of render on 1M current events found one of the two CPUs idle
// for 8% of the time; with eight, for 4%. The bound in bytes keeps a log
// of long payloads from holding eight stretches of them.
const (
	replayDrawEvery    = 256
	replayDrawItems    = 64
	drawAheadStretches = 8
	drawAheadText      = 2 << 20
)

// NewReplayDrawer returns a ReplayDrawer of a log yet to be read, its
// replay under opts, drawn under s (whose Now Finish sets). yield takes
// each row in order, on the drawing goroutine while the log is read and
// on Finish's caller after, and reports whether to go on drawing ahead of
// the read (what it returns once the read is over does not matter).
func NewReplayDrawer(opts transcript.Options, s Settings, yield func(string) bool) *ReplayDrawer {
	stretches := make(chan stretch, drawAheadStretches)
	room := ahead.NewRoom(drawAheadStretches, drawAheadText/drawAheadStretches)
	d := &ReplayDrawer{replay: transcript.NewReplay(opts), drawer: NewDrawer(s), yield: yield, stretches: stretches, room: room}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for st := range stretches {
			d.drawer.Draw(st.items, func(row string) bool {
				if !d.yield(row) {
					d.full.Store(true)
				}
				return true
			})
			room.Give(st.slots)
		}
	}()
	d.wait = func() { <-done }
	return d
}

// Apply projects the log's next event (transcript.Replay.Apply), handing
// what the replay has settled to the drawing now and then.
func (d *ReplayDrawer) Apply(e *sessionlog.Event) {
	d.replay.Apply(e)
	d.applied++
	if d.applied%replayDrawEvery == 0 && !d.full.Load() {
		if n := d.replay.Settled(); n >= replayDrawItems {
			items := d.replay.Take(n)
			// The drawing goroutine gives every slot back, so the wait
			// ends without a quit.
			slots, _ := d.room.Take(int64(textOf(items)), nil)
			d.stretches <- stretch{items, slots}
		}
	}
}

// Finish draws the rest of the transcript, and its compaction indicator,
// at now, the log's frozen clock, once every stretch sent is drawn.
func (d *ReplayDrawer) Finish(now int64) {
	d.Stop()
	d.drawer.s.Now, d.drawer.r.s.Now = now, now
	t := d.replay.Transcript()
	yield := func(row string) bool { d.yield(row); return true }
	_ = d.drawer.Draw(t.Items, yield) && d.drawer.End(t.Progress, yield)
}

// Stop ends the drawing, for a read that failed: the stretches already
// handed on are drawn, nothing after them. It returns once the drawing
// goroutine has.
func (d *ReplayDrawer) Stop() {
	if d.stretches != nil {
		close(d.stretches)
		d.stretches = nil
		d.wait()
	}
}
