package invariant

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// This file is the checker's reading of the log: the first pass derives
// everything the invariants check the documents against, and the second
// feeds the replay, the live path and the history pages (lockstep.go).
// Neither keeps the log's events, so a checker built by Read holds no
// event, only what it derived.

// Source reads a log's events from its start, in order, until yield
// returns false. An event's payloads (Data, SurfaceOp, SourceEventSeqs)
// must stay valid after yield returns; the event itself need not.
type Source func(yield func(*sessionlog.Event) bool) error

// sliceSource reads events held in memory.
func sliceSource(events []sessionlog.Event) Source {
	return func(yield func(*sessionlog.Event) bool) error {
		for i := range events {
			if !yield(&events[i]) {
				break
			}
		}
		return nil
	}
}

// logScan is what the first pass derives from the log.
type logScan struct {
	n   int   // events
	now int64 // the last event's time (terminal.FrozenNow)
	// events is the log, kept only for a Replay seam (a projection that
	// replays a whole log needs it).
	events []sessionlog.Event
	hist   *history.History // the log's page index
	// gaps are the indexes i at which a seq is not its predecessor's plus
	// one: a page is one contiguous range if none falls inside it.
	gaps []int
	// checkpoints are the landed checkpoints (their payloads copied) at
	// the indexes checkpointAt.
	checkpoints  []sessionlog.Event
	checkpointAt []int
	// summaries are the indexes of the compaction summaries, ascending.
	summaries []int
	expected  []Text // ExpectedTexts of the log
}

// scan reads the log once and derives a logScan from it; the expected
// texts are derived on a goroutine of their own, beside the rest.
func (c *Checker) scan() (*logScan, error) {
	s := &logScan{}
	idx := history.NewIndex()
	ex := newExpecter(c.opts.EagerSteps, c.opts.Texts)
	prev := int64(0)
	_, err := c.feed(-1, func(e *sessionlog.Event) {
		if s.n > 0 && e.Seq != prev+1 {
			s.gaps = append(s.gaps, s.n)
		}
		prev, s.now = e.Seq, e.Time
		idx.Add(e)
		if sessionlog.Canonical(e.Type) == sessionlog.TypeCompactionSummary {
			s.summaries = append(s.summaries, s.n)
		}
		if fastjson.IsCheckpoint(e) {
			s.checkpoints = append(s.checkpoints, detach(e))
			s.checkpointAt = append(s.checkpointAt, s.n)
		}
		if c.proj.Replay != nil && c.events == nil {
			s.events = append(s.events, *e)
		}
		s.n++
	}, ex.add)
	if err != nil {
		return nil, err
	}
	if c.events != nil {
		s.events = c.events
	}
	s.hist = idx.History()
	s.expected = ex.texts()
	return s, nil
}

// detach returns a copy of e whose payloads share no memory with e's: a
// kept event must not pin the reader's buffers.
func detach(e *sessionlog.Event) sessionlog.Event {
	d := *e
	d.Data, d.SurfaceOp, d.SourceEventSeqs = bytes.Clone(e.Data), bytes.Clone(e.SurfaceOp), bytes.Clone(e.SourceEventSeqs)
	return d
}

// reread is the second read: the log's events, as many as the first read
// found, handed to consumers (feed). A log that is shorter now, or cannot
// be read again, is one that changed under the checker.
func (c *Checker) reread(consumers ...func(*sessionlog.Event)) error {
	return c.rereadDecoded(nil, undecoded(consumers)...)
}

// rereadDecoded is reread with each event decoded once by dec (when it is
// not nil) for every consumer (feedDecoded).
func (c *Checker) rereadDecoded(dec *transcript.Decoder, consumers ...func(*sessionlog.Event, *transcript.Decoded)) error {
	n := c.scanned.n
	fed, err := c.feedDecoded(n, dec, consumers...)
	if err == nil && fed != n {
		err = fmt.Errorf("%d events, not %d", fed, n)
	}
	if err != nil {
		return fmt.Errorf("the log changed while repro read it: %w", err)
	}
	return nil
}

// feedBatch is a batch of events feed hands its consumers, and how many
// of them have yet to read it.
type feedBatch struct {
	events  []sessionlog.Event
	decoded []transcript.Decoded // the events' decodings, when feed decodes
	bytes   int                  // the events' Data
	slots   int                  // of feed's room, while read
	left    atomic.Int32
}

// feed reads the first n events of the log (every event when n < 0)
// through c.read on a goroutine of its own and hands them to every
// consumer in order, a batch at a time, each consumer on a goroutine of
// its own, so that decoding and every consumer proceed side by side. The
// consumers share each event; they must not modify it, nor keep it past
// the call (its payloads they may keep): a batch all of them are done with
// is read into again. It returns the events read and the read's error; a
// consumer's panic is raised again here once every goroutine has ended.
func (c *Checker) feed(n int, consumers ...func(*sessionlog.Event)) (int, error) {
	return c.feedDecoded(n, nil, undecoded(consumers)...)
}

// undecoded has consumers of events take them with a decoding, which they
// leave.
func undecoded(consumers []func(*sessionlog.Event)) []func(*sessionlog.Event, *transcript.Decoded) {
	out := make([]func(*sessionlog.Event, *transcript.Decoded), len(consumers))
	for i, f := range consumers {
		out[i] = func(e *sessionlog.Event, _ *transcript.Decoded) { f(e) }
	}
	return out
}

// feedDecoded is feed with each event also decoded by dec, when it is not
// nil, on the reading goroutine: every consumer is handed the event and
// its decoding (nil without dec), which it must not modify either. The
// projections of the read would otherwise decode every event each.
func (c *Checker) feedDecoded(n int, dec *transcript.Decoder, consumers ...func(*sessionlog.Event, *transcript.Decoded)) (int, error) {
	// A batch is sent at batch events or batchBytes of payload: the
	// batches in flight hold their events' payloads, and a few hundred
	// long prompts are hundreds of megabytes. So a batch also takes its
	// room (ahead.Room) until every consumer is done with it: at most
	// about depth×batchBytes of payload is in flight, or one batch
	// however heavy.
	const batch, batchBytes, depth = 256, 1 << 20, 4
	room := ahead.NewRoom(depth, batchBytes)
	chans := make([]chan *feedBatch, len(consumers))
	for i := range chans {
		chans[i] = make(chan *feedBatch, depth)
	}
	// A batch every consumer is done with is read into again.
	free := make(chan *feedBatch, depth+2)
	fresh := func() *feedBatch {
		select {
		case b := <-free:
			b.events, b.decoded, b.bytes = b.events[:0], b.decoded[:0], 0
			return b
		default:
			return &feedBatch{events: make([]sessionlog.Event, 0, batch)}
		}
	}
	stop := make(chan struct{}) // closed when a consumer ends early
	var once sync.Once
	halt := func() { once.Do(func() { close(stop) }) }
	read := 0
	var err error
	waitRead := ahead.Go(func() {
		defer func() {
			for _, ch := range chans {
				close(ch)
			}
		}()
		send := func(b *feedBatch) bool {
			var ok bool
			if b.slots, ok = room.Take(int64(b.bytes), stop); !ok {
				return false
			}
			b.left.Store(int32(len(chans)))
			for _, ch := range chans {
				select {
				case ch <- b:
				case <-stop:
					return false
				}
			}
			return true
		}
		if n == 0 {
			return
		}
		b := fresh()
		err = c.read(func(e *sessionlog.Event) bool {
			b.events = append(b.events, *e)
			b.bytes += len(e.Data)
			if dec != nil {
				k := len(b.decoded)
				b.decoded = append(b.decoded, transcript.Decoded{})
				dec.Decode(&b.events[k], &b.decoded[k])
			}
			read++
			if len(b.events) == batch || b.bytes >= batchBytes {
				if !send(b) {
					return false
				}
				b = fresh()
			}
			return n < 0 || read < n
		})
		if len(b.events) > 0 {
			send(b)
		}
	})
	consume := func(i int) {
		defer func() {
			if p := recover(); p != nil {
				halt()
				for range chans[i] { // let the reader end
				}
				panic(p)
			}
		}()
		for b := range chans[i] {
			for k := range b.events {
				var d *transcript.Decoded
				if dec != nil {
					d = &b.decoded[k]
				}
				consumers[i](&b.events[k], d)
			}
			if b.left.Add(-1) == 0 {
				clear(b.events) // let go of the payloads read, even if b is not reused
				clear(b.decoded)
				room.Give(b.slots)
				select {
				case free <- b:
				default:
				}
			}
		}
	}
	var waits []func()
	for i := range consumers {
		waits = append(waits, ahead.Go(func() { consume(i) }))
	}
	var panicked any
	for _, w := range append(waits, waitRead) {
		func() {
			defer func() {
				if p := recover(); p != nil && panicked == nil {
					panicked = p
				}
			}()
			w()
		}()
	}
	if panicked != nil {
		panic(panicked)
	}
	return read, err
}
