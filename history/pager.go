package history

import "github.com/dshtest/dshtest/sessionlog"

// A Pager finds one page while the log is read once, for a reader that
// does not keep the log: it holds only the events that may still be on
// the page, which for the tail page are those of about its last
// maxMessages counted messages. Its page is New(log).Page(beforeSeq,
// maxMessages).
//
// The page starts at the group start of a counted message (the smallest
// of its seq and its sourceEventSeqs), so the Pager keeps the events from
// the least group start of the counted messages it may still start at. A
// message whose group start reaches before the kept events (a source far
// back in the log) cannot be served that way: Page's ok is then false and
// the caller pages the whole log instead. So does a log whose seqs are not
// contiguous from its first.
type Pager struct {
	before int64 // < 0: the tail page
	max    int
	n      int64 // events added
	base   int64 // the first event's seq
	ok     bool
	// ring holds the group starts of the last max counted messages before
	// the page's end, the oldest at ring[head] once it is full.
	ring  []int64
	head  int
	count int
	// kept holds the events from seq keptFrom on, unless they were given
	// up (GiveUp); counted holds the seqs of the counted messages among
	// them, ascending, which are kept either way.
	kept     []sessionlog.Event
	keptFrom int64
	counted  []int64
	size     int64 // about the bytes kept
	gaveUp   bool
}

// NewPager returns a Pager of the page Page(beforeSeq, maxMessages) would
// return (beforeSeq < 0: the tail page; maxMessages ≤ 0: DefaultMessages).
func NewPager(beforeSeq int64, maxMessages int) *Pager {
	if maxMessages <= 0 {
		maxMessages = DefaultMessages
	}
	// The ring grows as messages come: maxMessages is a caller's number
	// and may be far more than the log holds.
	return &Pager{before: beforeSeq, max: maxMessages, ok: true, ring: make([]int64, 0, min(maxMessages, 1024))}
}

// Add takes the next event of the log. The Pager keeps e's value (not the
// pointer) if it may be on the page.
func (p *Pager) Add(e *sessionlog.Event) {
	if !p.ok {
		return
	}
	if p.n == 0 {
		p.base, p.keptFrom = e.Seq, e.Seq
	}
	if e.Seq != p.base+p.n {
		p.ok = false
		p.kept = nil
		return
	}
	p.n++
	if p.before >= 0 && e.Seq >= p.before {
		return // past the page's end
	}
	if !p.gaveUp {
		p.kept = append(p.kept, *e)
		p.size += eventSize(e)
	}
	if !historyCounted(e) {
		return
	}
	p.counted = append(p.counted, e.Seq)
	g := historyGroupStart(e)
	if g < p.keptFrom {
		p.ok = false // its group starts before the events kept
		p.kept, p.counted = nil, nil
		return
	}
	p.count++
	if len(p.ring) < p.max {
		p.ring = append(p.ring, g)
	} else {
		p.ring[p.head] = g
		p.head = (p.head + 1) % p.max
	}
	if len(p.ring) == p.max {
		p.drop()
	}
}

// drop lets go of the events before the least group start in the ring:
// no page can start before it.
func (p *Pager) drop() {
	least := p.ring[0]
	for _, g := range p.ring[1:] {
		least = min(least, g)
	}
	if k := int(least - p.keptFrom); k > 0 {
		if !p.gaveUp {
			for i := range k {
				p.size -= eventSize(&p.kept[i])
			}
			p.kept = dropFront(p.kept, k)
		}
		p.keptFrom = least
		i := 0
		for i < len(p.counted) && p.counted[i] < least {
			i++
		}
		p.counted = dropFront(p.counted, i)
	}
}

// dropFront returns s less its first k elements, copied into a slice of
// its own once the array holds more than twice as many as are left, so
// that what is dropped is let go.
func dropFront[E any](s []E, k int) []E {
	s = s[k:]
	if cap(s) > 2*len(s)+1024 {
		s = append([]E(nil), s...)
	}
	return s
}

// eventSize is about the bytes an event kept costs: its payloads and its
// own fields.
func eventSize(e *sessionlog.Event) int64 {
	return int64(len(e.Data)+len(e.SurfaceOp)+len(e.SourceEventSeqs)) + eventOverhead
}

// eventOverhead is about the bytes of a sessionlog.Event besides its
// payloads.
const eventOverhead = 128

// Size is about the bytes of the events the Pager keeps.
func (p *Pager) Size() int64 { return p.size }

// GiveUp lets go of the events kept, and keeps none from then on: Page
// then returns the page's place and its counted messages (Counted), with
// no events, and Kept is false; the caller reads the page's events again.
// A page of a step of a million chunks would otherwise be held whole.
func (p *Pager) GiveUp() {
	p.gaveUp, p.kept, p.size = true, nil, 0
}

// Kept reports whether Page holds the page's events (GiveUp was not
// called).
func (p *Pager) Kept() bool { return !p.gaveUp }

// Page returns the page of the events added so far; ok is false when the
// Pager could not keep it (see Pager).
func (p *Pager) Page() (page Page, ok bool) {
	if !p.ok {
		return Page{}, false
	}
	end := p.base + p.n // the seq after the window
	if p.before >= 0 {
		end = min(max(p.before, p.base), end)
	}
	var cut int64
	if p.count >= p.max {
		cut = p.ring[p.head%len(p.ring)]
	}
	start := min(max(cut, p.base), end)
	if start == end {
		return historyMakePage(nil, p.before, cut), true
	}
	if p.gaveUp {
		return Page{From: start, To: end - 1, HasMore: cut > 0}, true
	}
	evs := p.kept[start-p.keptFrom : end-p.keptFrom]
	return Page{From: start, To: end - 1, Events: evs, HasMore: cut > 0}, true
}

// Counted returns the seqs of the counted messages on the page Page
// returns, newest first, as Page.Counted does of its events; the Pager
// keeps them when it gives the events up.
func (p *Pager) Counted() []int64 {
	page, ok := p.Page()
	if !ok {
		return nil
	}
	out := []int64{}
	for i := len(p.counted) - 1; i >= 0; i-- {
		if s := p.counted[i]; s >= page.From && s <= page.To {
			out = append(out, s)
		}
	}
	return out
}
