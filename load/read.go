package load

import (
	"github.com/dshtest/dshtest/internal/ground/ahead"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/reader"
	"github.com/dshtest/dshtest/surface"
)

// eventBatch is a batch of events read ahead, with their lines and the
// text read once they were.
type eventBatch struct {
	events []sessionlog.Event
	lines  []int
	text   int64
	size   int64 // the text its events were read from
}

// A batch is sent at batchEvents events or batchText bytes of the text
// read, whichever comes first: events of megabytes each must not be held
// ahead by the hundred.
const (
	batchEvents  = 512
	batchesAhead = 8
	batchText    = 1 << 20
)

// readAhead reads s on its own goroutine (package ahead), a batch at a
// time, and hands each event to fn in order on this one, so that decoding
// the log and what is done with its events proceed side by side; it
// returns s.Err(). fn's event is valid until fn returns; its payloads stay
// valid. When fn returns false the read stops there.
func readAhead(s *reader.Stream, fn func(e *sessionlog.Event, line int, text int64) bool) error {
	pipe := ahead.StartSized(batchesAhead, batchText, func(b eventBatch) int64 { return b.size }, func(p *ahead.Pipe[eventBatch]) {
		fresh := func() eventBatch {
			if b, ok := p.Reuse(); ok { // fn keeps no event
				return eventBatch{events: b.events[:0], lines: b.lines[:0]}
			}
			return eventBatch{events: make([]sessionlog.Event, 0, batchEvents), lines: make([]int, 0, batchEvents)}
		}
		b := fresh()
		sent := int64(0) // the text read when the last batch was sent
		for s.Next() {
			b.events, b.lines = append(b.events, *s.Event()), append(b.lines, s.Line())
			if text := s.TextBytes(); len(b.events) == batchEvents || text-sent >= batchText {
				b.text, b.size, sent = text, text-sent, text
				// A batch of a megabyte or more is lent: the next event is
				// decoded once fn is done with this one, so that a log of
				// huge lines holds one of them here, not two.
				send := p.Send
				if b.size >= batchText {
					send = p.Lend
				}
				if !send(b) {
					return
				}
				b = fresh()
			}
		}
		if len(b.events) > 0 {
			b.text = s.TextBytes()
			b.size = b.text - sent
			p.Send(b)
		}
	})
	stopped := false
	func() {
		defer pipe.Stop() // also when fn panics
		for {
			b, ok := pipe.Next()
			if !ok {
				return
			}
			for i := range b.events {
				if !fn(&b.events[i], b.lines[i], b.text) {
					stopped = true
					return
				}
			}
			pipe.Release(b)
		}
	}()
	if stopped {
		return nil
	}
	return s.Err()
}

// take returns the stream of the file's first read; a later read opens
// the file again (a reader's log cannot be).
func (f *File) take() (*reader.Stream, error) {
	if s := f.s; s != nil {
		f.s = nil
		return s, nil
	}
	if f.path == "" {
		return nil, sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: f.name, Seq: -1}, "a log read from a stream is read once", nil)
	}
	opts := f.opts.Read
	opts.NoRecover = opts.NoRecover || f.noClosers
	opts.Upgraded = f.upgrades
	s, err := reader.Open(f.path, opts)
	if err != nil {
		return nil, f.named(err)
	}
	f.cur = s
	f.window(s)
	return s, nil
}

func (f *File) read(text int64) {
	if f.budget != nil {
		f.budget.Read(text)
	}
}

// Collect reads the log and keeps its events. With fold, the load-time
// checks and the surface fold run as the events arrive and the Log holds
// the Session; without, they are left to Log.Validate, which can run
// beside other work.
//
// Appending to one slice would, at every growth, hold the old array and a
// new one a quarter larger: the most memory a read needs (a million events
// are 112 MB of Event values). So when the text's size is known (a raw
// file), the first page of events tells how many the text holds, and one
// slice of about that length is made; otherwise (or if the estimate falls
// short) the events are gathered in pages and copied into an exact slice
// at the end.
//
// A refusal by the reader returns no Log; a refusal of an event (the
// surface layer's) returns the Log read, its warnings included.
func (f *File) Collect(fold bool) (*Log, error) {
	s, err := f.take()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var folder *surface.Folder
	if fold {
		folder = surface.NewFolder(false) // the load, done as the events arrive
		folder.TrustSyntax()
	}
	const page = 4096
	var pages [][]sessionlog.Event
	var lines [][]int
	cur := make([]sessionlog.Event, 0, page)
	curLines := make([]int, 0, page)
	sized := false // cur is the one slice, sized from the text's size
	n := 0
	err = readAhead(s, func(e *sessionlog.Event, line int, text int64) bool {
		if len(cur) == page && !sized {
			if size, read := s.TextSize(), text; size > 0 && read > 0 && len(pages) == 0 {
				est := int(float64(page)*float64(size)/float64(read)*1.02) + page
				cur = append(make([]sessionlog.Event, 0, est), cur...)
				curLines = append(make([]int, 0, est), curLines...)
				sized = true
			} else {
				pages, lines = append(pages, cur), append(lines, curLines)
				cur, curLines = make([]sessionlog.Event, 0, page), make([]int, 0, page)
			}
		}
		if sized && len(cur) == cap(cur) {
			// The estimate fell short: the sized slice is the first page.
			pages, lines = append(pages, cur), append(lines, curLines)
			cur, curLines = make([]sessionlog.Event, 0, page), make([]int, 0, page)
			sized = false
		}
		cur, curLines = append(cur, *e), append(curLines, line)
		if folder != nil {
			folder.Add(&cur[len(cur)-1])
		}
		n++
		f.read(text)
		return true
	})
	if f.budget != nil {
		f.budget.Grow(s.TextBytes())
	}
	if err != nil {
		return nil, f.named(err)
	}
	lg := &Log{Events: cur, Lines: curLines}
	if len(pages) > 0 {
		pages, lines = append(pages, cur), append(lines, curLines)
		lg.Events, lg.Lines = make([]sessionlog.Event, 0, n), make([]int, 0, n)
		for i := range pages {
			lg.Events, lg.Lines = append(lg.Events, pages[i]...), append(lg.Lines, lines[i]...)
			pages[i], lines[i] = nil, nil
		}
	}
	f.summary(s, lg)
	if !fold {
		return lg, nil
	}
	sess, err := folder.Session(lg.Events, f.opts.Clock)
	if err != nil {
		return lg, lg.place(err)
	}
	lg.Session, lg.Surface = sess, sess.Surface()
	return lg, nil
}

// Stream reads the log without keeping its events: each gets them one by
// one, with the text read by then, as a surface.Folder checks them, until
// it returns false (ErrStopped, and no Log). A refusal by the reader
// returns no Log; a refusal of an event returns the Log read, its warnings
// included. each's event is valid until it returns; its payloads stay
// valid. The Log has no Surface: the fold keeps only what its verdict
// needs (surface.NewVerdictFolder), so that the reader holds no copy of
// the log's texts. StreamSurface keeps the surface.
func (f *File) Stream(each func(e *sessionlog.Event, text int64) bool) (*Log, error) {
	return f.stream(surface.NewVerdictFolder(), each)
}

// StreamSurface is Stream with the Log's Surface folded, as much of it as
// a report on it needs (surface.NewCountFolder): its nodes, generation and
// message count, not its messages.
func (f *File) StreamSurface(each func(e *sessionlog.Event, text int64) bool) (*Log, error) {
	return f.stream(surface.NewCountFolder(), each)
}

func (f *File) stream(fold *surface.Folder, each func(e *sessionlog.Event, text int64) bool) (*Log, error) {
	s, err := f.take()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if f.upgrades != nil {
		s.RecordUpgrades(f.upgrades)
	}
	fold.TrustSyntax()
	lg := &Log{}
	var failed error
	stopped := false
	err = readAhead(s, func(e *sessionlog.Event, line int, text int64) bool {
		if !each(e, text) {
			stopped = true
			return false
		}
		fold.Add(e)
		if err := fold.Err(); err != failed { // a first failure, or a check's after a fold's
			failed = err
			if lg.errLines == nil {
				lg.errLines = map[int64]int{}
			}
			lg.errLines[e.Seq] = line
		}
		f.read(text)
		return true
	})
	switch {
	case stopped:
		return nil, ErrStopped
	case err != nil:
		return nil, f.named(err)
	}
	f.summary(s, lg)
	lg.Surface = fold.Surface()
	if failed != nil {
		return lg, lg.place(failed)
	}
	return lg, nil
}
