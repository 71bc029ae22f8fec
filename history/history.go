package history

import (
	"math"
	"math/bits"
	"sort"

	"github.com/dshtest/dshtest/sessionlog"
)

// DefaultMessages is session.history's default maxMessages.
const DefaultMessages = 50

// Page is one page of session.history (log.md §12.2): one contiguous raw
// range of the log, every event type included. From and To are the seqs of
// its first and last event; an empty page has From > To (To+1 == From, and
// From is the requested beforeSeq, or 0). HasMore says an older page exists.
// A page of a History built by an Index holds no Events: History.Span says
// where it lies.
type Page struct {
	From, To int64
	Events   []sessionlog.Event
	HasMore  bool
}

// History indexes a log once for paging. Events must be in log order (seq
// ascending). A History is immutable and safe for concurrent use; the pages
// it returns share the log's backing array.
//
// On a contiguous log a page costs two dependent reads of the index, each
// of one cache line: the rank line of its end, then the group chunk of its
// cut. The index is 1.33 bits an event plus 1.33 bytes a counted message
// (about 260 KB for a million events, 7% of them counted), small enough to
// stay in a core's L2 when the log is huge.
type History struct {
	events []sessionlog.Event // nil when built by an Index
	len    int                // events in the log
	// seqs are the events' seqs when events is nil and the log is not
	// contiguous (a search needs them).
	seqs []int64
	// contiguous: events[i].Seq == base+i, so a seq's index is arithmetic.
	contiguous bool
	base       int64
	// lines[i/historyLineEvents] ranks events[i]: see historyLine.
	lines []historyLine
	// chunks[k/historyChunkGroups] holds the group start of the k-th
	// counted message, oldest first: see historyChunk. wide holds the group
	// starts of the chunks whose starts do not fit a chunk's encoding.
	chunks []historyChunk
	wide   []int64
	n      int // counted messages
}

// A historyLine ranks historyLineEvents events, historyLineWords words of
// 64.
const (
	historyLineWords  = 6
	historyLineEvents = 64 * historyLineWords
)

// historyLine ranks the historyLineEvents events from historyLineEvents*L
// on, L its index, in 64 bytes (one cache line): bit i%64 of mask[i/64]
// says the line's i-th event is a counted message, before is the number of
// counted messages before the line, and sub[w] the number among the line's
// first 64*w events.
type historyLine struct {
	before int32
	sub    [historyLineWords]uint16
	mask   [historyLineWords]uint64
}

// historyChunkGroups is the number of group starts one historyChunk holds.
const historyChunkGroups = 12

// historyEscape marks a chunk whose group starts are in History.wide.
const historyEscape = math.MaxUint8

// historyChunk holds the group starts of historyChunkGroups consecutive
// counted messages in 16 bytes. The j-th is History.base+base+d[j] when the
// chunk's starts lie within historyEscape-1 of their smallest and that, less
// History.base, fits an int32; otherwise every d[j] is historyEscape and the
// j-th is wide[base+j].
type historyChunk struct {
	base int32
	d    [historyChunkGroups]uint8
}

// group returns the group start of the k-th counted message.
func (h *History) group(k int) int64 {
	c := &h.chunks[uint(k)/historyChunkGroups]
	j := uint(k) % historyChunkGroups
	if d := c.d[j]; d != historyEscape {
		return h.base + int64(c.base) + int64(d)
	}
	return h.wide[int(c.base)+int(j)]
}

// countBefore is the number of counted messages among events[:i].
func (h *History) countBefore(i int) int {
	l := &h.lines[uint(i)/historyLineEvents]
	r := uint(i) % historyLineEvents
	w := r / 64
	return int(l.before) + int(l.sub[w]) + bits.OnesCount64(l.mask[w]&(1<<(r%64)-1))
}

// Counted returns the seqs of the page's counted messages (a prompt or an
// answer appended to the surface), newest first.
func (p Page) Counted() []int64 {
	out := []int64{}
	for i := len(p.Events) - 1; i >= 0; i-- {
		if e := &p.Events[i]; historyCounted(e) {
			out = append(out, e.Seq)
		}
	}
	return out
}

// historyCounted reports whether e counts toward maxMessages: an
// append-origin user/message or assistant/message. Replacement copies,
// tool results, steering and log-only events never count.
func historyCounted(e *sessionlog.Event) bool {
	return (e.Type == sessionlog.TypeUserMessage || e.Type == sessionlog.TypeAssistantMessage) && sessionlog.IsAppendSurfaceEvent(e)
}

// historyGroupStart is the smallest of e's seq and its sourceEventSeqs: an
// assistant message pulls its chunks onto its page.
func historyGroupStart(e *sessionlog.Event) int64 {
	g := e.Seq
	if seqs, ok := e.Sources(); ok {
		for _, s := range seqs {
			g = min(g, s)
		}
	}
	return g
}

// New indexes events in one pass.
func New(events []sessionlog.Event) *History {
	x := newIndex(len(events), false)
	for i := range events {
		x.Add(&events[i])
	}
	h := x.History()
	h.events = events
	return h
}

// An Index builds a History from a log read once, an event at a time, for
// a reader that does not keep the log. The History keeps no event: its
// pages hold no Events, and History.Span says where each lies in the log.
// It keeps the seqs only of a log that is not contiguous.
type Index struct {
	h       *History
	keep    bool // keep the seqs once the log is not contiguous
	pending [historyChunkGroups]int64
	np      int
	l       *historyLine
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return newIndex(0, true) }

func newIndex(n int, keepSeqs bool) *Index {
	return &Index{h: &History{contiguous: true, lines: make([]historyLine, 0, n/historyLineEvents+1)}, keep: keepSeqs}
}

// Add indexes the log's next event (in log order, seq ascending).
func (x *Index) Add(e *sessionlog.Event) {
	h := x.h
	i := h.len
	if i == 0 {
		h.base = e.Seq
	}
	r := i % historyLineEvents
	if r == 0 {
		h.lines = append(h.lines, historyLine{before: int32(h.n)})
		x.l = &h.lines[len(h.lines)-1]
	}
	l := x.l
	if r%64 == 0 {
		l.sub[r/64] = uint16(h.n - int(l.before))
	}
	if e.Seq != h.base+int64(i) && h.contiguous {
		h.contiguous = false
		if x.keep {
			h.seqs = make([]int64, i, i+1024)
			for k := range h.seqs {
				h.seqs[k] = h.base + int64(k)
			}
		}
	}
	if !h.contiguous && x.keep {
		h.seqs = append(h.seqs, e.Seq)
	}
	h.len++
	if historyCounted(e) {
		l.mask[r/64] |= 1 << (r % 64)
		h.n++
		x.pending[x.np] = historyGroupStart(e)
		if x.np++; x.np == historyChunkGroups {
			h.addChunk(x.pending[:x.np])
			x.np = 0
		}
	}
}

// History ends the index and returns the History of the events added.
// Add may not be called after it.
func (x *Index) History() *History {
	h := x.h
	if x.np > 0 {
		h.addChunk(x.pending[:x.np])
		x.np = 0
	}
	// Rank the end of the log, events[:n].
	n := h.len
	if n%historyLineEvents == 0 {
		h.lines = append(h.lines, historyLine{before: int32(h.n)})
	}
	l := &h.lines[n/historyLineEvents]
	for w := (n%historyLineEvents + 63) / 64; w < len(l.sub); w++ {
		l.sub[w] = uint16(h.n - int(l.before))
	}
	return h
}

// addChunk records the group starts of the next chunk of counted messages.
func (h *History) addChunk(groups []int64) {
	lo, hi := groups[0], groups[0]
	for _, g := range groups[1:] {
		lo, hi = min(lo, g), max(hi, g)
	}
	var c historyChunk
	if d := lo - h.base; d >= math.MinInt32 && d <= math.MaxInt32 && uint64(hi-lo) < historyEscape {
		c.base = int32(d)
		for j, g := range groups {
			c.d[j] = uint8(g - lo)
		}
	} else {
		c.base = int32(len(h.wide))
		for j := range c.d {
			c.d[j] = historyEscape
		}
		h.wide = append(h.wide, groups...)
	}
	h.chunks = append(h.chunks, c)
}

// Page returns the page of at most maxMessages counted messages that ends
// just before beforeSeq (a negative beforeSeq means absent: the tail page).
// maxMessages ≤ 0 means DefaultMessages. On a contiguous log it costs
// O(1) and reads no event; otherwise O(log n).
func (h *History) Page(beforeSeq int64, maxMessages int) Page {
	if maxMessages <= 0 {
		maxMessages = DefaultMessages
	}
	if !h.contiguous || h.events == nil {
		return h.searchPage(beforeSeq, maxMessages)
	}
	// A seq's index is arithmetic: this path is short, so that a caller
	// paging at random overlaps one page's index reads with the next's.
	n := int64(h.len)
	end := n
	if beforeSeq >= 0 {
		end = min(max(beforeSeq-h.base, 0), n)
	}
	var cut int64
	if k := h.countBefore(int(end)); k >= maxMessages {
		cut = h.group(k - maxMessages)
	}
	start := min(max(cut-h.base, 0), end)
	if start == end {
		return historyMakePage(nil, beforeSeq, cut)
	}
	return Page{From: h.base + start, To: h.base + end - 1, Events: h.events[start:end], HasMore: cut > 0}
}

// searchPage is Page on a log whose seqs have gaps, where seqs are found
// by binary search, and on an Index's History, which has no events to
// slice. It stays out of line to keep Page's contiguous path short.
//
//go:noinline
func (h *History) searchPage(beforeSeq int64, maxMessages int) Page {
	end := h.len
	if beforeSeq >= 0 {
		end = h.search(beforeSeq)
	}
	var cut int64
	if k := h.countBefore(end); k >= maxMessages {
		cut = h.group(k - maxMessages)
	}
	start := min(h.search(cut), end)
	if h.events != nil {
		return historyMakePage(h.events[start:end], beforeSeq, cut)
	}
	p := historyMakePage(nil, beforeSeq, cut)
	if start < end {
		p.From, p.To = h.seq(start), h.seq(end-1)
	}
	return p
}

// Span returns where the page p of this History lies in the log paged:
// p is log[start:end] (start == end for an empty page).
func (h *History) Span(p Page) (start, end int) {
	return h.search(p.From), h.search(p.To + 1)
}

// search returns the index of the first event whose seq is at least seq.
func (h *History) search(seq int64) int {
	switch {
	case h.contiguous:
		return int(min(max(seq-h.base, 0), int64(h.len)))
	case h.events == nil:
		return sort.Search(h.len, func(i int) bool { return h.seqs[i] >= seq })
	}
	return sort.Search(h.len, func(i int) bool { return h.events[i].Seq >= seq })
}

// seq is the seq of the i-th event of an Index's History.
func (h *History) seq(i int) int64 {
	if h.contiguous {
		return h.base + int64(i)
	}
	return h.seqs[i]
}

// ScanPage is session.history over events as log.md §12.2 writes it: a
// newest-first scan of the window. It costs O(len(events)); use a History to
// page one log repeatedly.
func ScanPage(events []sessionlog.Event, beforeSeq int64, maxMessages int) Page {
	if maxMessages <= 0 {
		maxMessages = DefaultMessages
	}
	end := len(events)
	if beforeSeq >= 0 {
		end = 0
		for end < len(events) && events[end].Seq < beforeSeq {
			end++
		}
	}
	window := events[:end]
	count, cut := 0, int64(0)
	for i := len(window) - 1; i >= 0; i-- {
		e := &window[i]
		if !historyCounted(e) {
			continue
		}
		count++
		if count >= maxMessages {
			cut = historyGroupStart(e)
			break
		}
	}
	start := 0
	for start < len(window) && window[start].Seq < cut {
		start++
	}
	return historyMakePage(window[start:], beforeSeq, cut)
}

func historyMakePage(events []sessionlog.Event, beforeSeq, cut int64) Page {
	p := Page{Events: events, HasMore: cut > 0}
	if len(events) == 0 {
		p.From = max(beforeSeq, 0)
		p.To = p.From - 1
		p.Events = nil
		return p
	}
	p.From, p.To = events[0].Seq, events[len(events)-1].Seq
	return p
}
