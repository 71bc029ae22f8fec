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
	// kept holds the events from seq keptFrom on.
	kept     []sessionlog.Event
	keptFrom int64
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
	p.kept = append(p.kept, *e)
	if !historyCounted(e) {
		return
	}
	g := historyGroupStart(e)
	if g < p.keptFrom {
		p.ok = false // its group starts before the events kept
		p.kept = nil
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
		p.kept = p.kept[k:]
		p.keptFrom = least
		if cap(p.kept) > 2*len(p.kept)+1024 {
			p.kept = append([]sessionlog.Event(nil), p.kept...) // free what is dropped
		}
	}
}

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
	evs := p.kept[start-p.keptFrom : end-p.keptFrom]
	return Page{From: start, To: end - 1, Events: evs, HasMore: cut > 0}, true
}
