package history

import (
	"sort"

	"github.com/dshtest/dshtest/sessionlog"
)

// A Pager finds one page while the log is read once, for a reader that
// does not keep the log: its page is New(log).Page(beforeSeq, maxMessages).
//
// The count that fixes a page's start is known as the log streams, but the
// start itself is not: it is the group start of a counted message (the
// smallest of its seq and its sourceEventSeqs), and log.md §5 lets a
// message cite any earlier event. So the last event of a log can move its
// tail page's start back to seq 0 (an append-origin assistant/message with
// sourceEventSeqs [0], paged with maxMessages 1, makes the page the whole
// log; without that source the page is that one event). No bounded memory
// holds every event that a later message may pull onto the page.
//
// The Pager therefore keeps the events from the least group start of the
// counted messages it may still start at (for the tail page, about its
// last maxMessages messages), and behind them a reserve of the events just
// before, up to pagerReserve bytes. A group start that reaches into the
// reserve costs nothing; one that reaches further back is served only if
// the caller reads again the events Missing names and hands them to
// Restore: the part of the log the page misses, not the whole log. A log
// whose seqs are not contiguous from its first is not served at all (the
// surface fold refuses it).
type Pager struct {
	before int64 // < 0: the tail page
	max    int
	n      int64 // events added
	base   int64 // the first event's seq
	gap    bool  // the seqs are not contiguous
	// ring holds the group starts of the last max counted messages before
	// the page's end, the oldest at ring[head] once it is full.
	ring  []int64
	head  int
	count int
	// least holds the group starts of ring that are less than every later
	// one, with the count of their messages (the sliding window's
	// minimum): least[lhead] is the least group start in the ring.
	least []pagerGroup
	lhead int
	// kept holds the events from seq keptFrom on; ends[i] is the size of
	// the events added up to kept[i] included (pagerSize).
	kept     []sessionlog.Event
	ends     []int64
	keptFrom int64
	size     int64 // pagerSize of every event kept so far
	reserve  int64 // pagerReserve; less in tests
}

// pagerGroup is the group start g of the k-th counted message.
type pagerGroup struct {
	k int
	g int64
}

// pagerReserve is how many bytes of events (pagerSize) a Pager keeps
// before the least group start it may still page from: a message whose
// sources reach back that far (a step's chunks behind an injected message)
// is still served in one read. A reserve of 1 MiB cost 8% of the wall time
// of a page of a million-event log, for logs that never reach back so far.
const pagerReserve = 64 << 10

// pagerEventBytes is what an event held costs beside its payloads.
const pagerEventBytes = 112

// pagerSize is about the memory that holding e costs.
func pagerSize(e *sessionlog.Event) int64 {
	return pagerEventBytes + int64(len(e.Data)+len(e.SurfaceOp)+len(e.SourceEventSeqs))
}

// NewPager returns a Pager of the page Page(beforeSeq, maxMessages) would
// return (beforeSeq < 0: the tail page; maxMessages ≤ 0: DefaultMessages).
func NewPager(beforeSeq int64, maxMessages int) *Pager {
	if maxMessages <= 0 {
		maxMessages = DefaultMessages
	}
	// The ring grows as messages come: maxMessages is a caller's number
	// and may be far more than the log holds.
	return &Pager{before: beforeSeq, max: maxMessages, ring: make([]int64, 0, min(maxMessages, 1024)), reserve: pagerReserve}
}

// Add takes the next event of the log. The Pager keeps e's value (not the
// pointer) if it may be on the page.
func (p *Pager) Add(e *sessionlog.Event) {
	if p.gap {
		return
	}
	if p.n == 0 {
		p.base, p.keptFrom = e.Seq, e.Seq
	}
	if e.Seq != p.base+p.n {
		p.gap = true
		p.kept, p.ends = nil, nil
		return
	}
	p.n++
	if p.before >= 0 && e.Seq >= p.before {
		return // past the page's end
	}
	p.size += pagerSize(e)
	p.kept, p.ends = append(p.kept, *e), append(p.ends, p.size)
	if !historyCounted(e) {
		return
	}
	g := historyGroupStart(e)
	k := p.count
	p.count++
	if len(p.ring) < p.max {
		p.ring = append(p.ring, g)
	} else {
		p.ring[p.head] = g
		p.head = (p.head + 1) % p.max
	}
	for len(p.least) > p.lhead && p.least[len(p.least)-1].g >= g {
		p.least = p.least[:len(p.least)-1]
	}
	p.least = append(p.least, pagerGroup{k: k, g: g})
	if p.least[p.lhead].k <= k-p.max { // left the ring
		p.lhead++
	}
	if p.lhead > 1024 && 2*p.lhead > len(p.least) {
		p.least = append(p.least[:0], p.least[p.lhead:]...)
		p.lhead = 0
	}
	if len(p.ring) == p.max {
		p.drop(p.least[p.lhead].g)
	}
}

// drop lets go of the events before least (no page can start before it)
// that are not in the reserve behind it.
func (p *Pager) drop(least int64) {
	i := int(least - p.keptFrom) // the events kept before least
	if i <= 0 {
		return
	}
	i = min(i, len(p.kept))
	// Keep kept[k:i], the most events just before least that hold at most
	// pagerReserve bytes: ends[i-1]-ends[k-1] is their size.
	k := sort.Search(i, func(k int) bool { return p.ends[i-1]-p.ends[k]+pagerSize(&p.kept[k]) <= p.reserve })
	if k == 0 {
		return
	}
	p.kept, p.ends = p.kept[k:], p.ends[k:]
	p.keptFrom += int64(k)
	if cap(p.kept) > 2*len(p.kept)+1024 { // free what is dropped
		p.kept = append([]sessionlog.Event(nil), p.kept...)
		p.ends = append([]int64(nil), p.ends...)
	}
}

// window returns the seqs [start, end) of the page of the events added so
// far, and its cut.
func (p *Pager) window() (start, end, cut int64) {
	end = p.base + p.n // the seq after the window
	if p.before >= 0 {
		end = min(max(p.before, p.base), end)
	}
	if p.count >= p.max {
		cut = p.ring[p.head%len(p.ring)]
	}
	return min(max(cut, p.base), end), end, cut
}

// Missing returns the seqs [from, to) of the events the page holds that
// the Pager did not keep, for a caller to read again and Restore; from ==
// to when none are missing.
func (p *Pager) Missing() (from, to int64) {
	start, end, _ := p.window()
	if p.gap || start >= p.keptFrom || start == end {
		return 0, 0
	}
	return start, p.keptFrom
}

// Restore hands back the events Missing named, in log order, once the log
// is read (Add may not be called after it). It reports false, keeping
// nothing, when they are not those events (the log changed between its
// reads).
func (p *Pager) Restore(events []sessionlog.Event) bool {
	from, to := p.Missing()
	if int64(len(events)) != to-from {
		return false
	}
	for i := range events {
		if events[i].Seq != from+int64(i) {
			return false
		}
	}
	p.kept = append(events[:len(events):len(events)], p.kept...)
	p.ends = nil // no event is dropped after a Restore
	p.keptFrom = from
	return true
}

// Page returns the page of the events added so far; ok is false when the
// Pager does not hold it (see Pager and Missing).
func (p *Pager) Page() (page Page, ok bool) {
	if p.gap {
		return Page{}, false
	}
	start, end, cut := p.window()
	if start == end {
		return historyMakePage(nil, p.before, cut), true
	}
	if start < p.keptFrom {
		return Page{}, false
	}
	evs := p.kept[start-p.keptFrom : end-p.keptFrom]
	return Page{From: start, To: end - 1, Events: evs, HasMore: cut > 0}, true
}
