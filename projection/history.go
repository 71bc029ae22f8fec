package projection

import (
	"math"
	"math/bits"
	"sort"
)

// DefaultHistoryMessages is session.history's default maxMessages.
const DefaultHistoryMessages = 50

// Page is one page of session.history (log.md §12.2): one contiguous raw
// range of the log, every event type included. From and To are the seqs of
// its first and last event; an empty page has From > To (To+1 == From, and
// From is the requested beforeSeq, or 0). HasMore says an older page exists.
type Page struct {
	From, To int64
	Events   []Event
	HasMore  bool
}

// History indexes a log once for paging. Events must be in log order (seq
// ascending). A History is immutable and safe for concurrent use; the pages
// it returns share the log's backing array.
type History struct {
	events []Event
	// contiguous: events[i].Seq == base+i, so a seq's index is arithmetic.
	contiguous bool
	base       int64
	// Bit i%64 of counted[i/64] says events[i] is a counted message, and
	// before[b] is the number of counted messages among events[:64*b]: 1.06
	// bits per event, small enough to stay in cache on a huge log.
	counted []uint64
	before  []int32
	// groups[k] is the group start of the k-th counted message, oldest
	// first, less base: 4 bytes a message keep the index cache-resident on
	// a huge log. wide holds the group starts instead when one does not fit
	// in an int32.
	groups []int32
	wide   []int64
}

// group returns the group start of the k-th counted message.
func (h *History) group(k int) int64 {
	if h.wide != nil {
		return h.wide[k]
	}
	return h.base + int64(h.groups[k])
}

// numCounted is the number of counted messages recorded so far.
func (h *History) numCounted() int { return len(h.groups) + len(h.wide) }

// countBefore is the number of counted messages among events[:i].
func (h *History) countBefore(i int) int {
	w := i >> 6
	return int(h.before[w]) + bits.OnesCount64(h.counted[w]&(1<<(i&63)-1))
}

// historyCounted reports whether e counts toward maxMessages: an
// append-origin user/message or assistant/message. Replacement copies,
// tool results, steering and log-only events never count.
func historyCounted(e *Event) bool {
	return (e.Type == TypeUserMessage || e.Type == TypeAssistantMessage) && IsAppendSurfaceEvent(e)
}

// historyGroupStart is the smallest of e's seq and its sourceEventSeqs: an
// assistant message pulls its chunks onto its page.
func historyGroupStart(e *Event) int64 {
	g := e.Seq
	if seqs, ok := e.Sources(); ok {
		for _, s := range seqs {
			g = min(g, s)
		}
	}
	return g
}

// NewHistory indexes events in one pass.
func NewHistory(events []Event) *History {
	words := len(events)/64 + 1
	h := &History{events: events, contiguous: true, counted: make([]uint64, words), before: make([]int32, words)}
	if len(events) > 0 {
		h.base = events[0].Seq
	}
	for i := range events {
		e := &events[i]
		if i&63 == 0 {
			h.before[i>>6] = int32(h.numCounted())
		}
		if e.Seq != h.base+int64(i) {
			h.contiguous = false
		}
		if historyCounted(e) {
			h.counted[i>>6] |= 1 << (i & 63)
			h.addGroup(historyGroupStart(e))
		}
	}
	if len(events)&63 == 0 {
		h.before[len(events)>>6] = int32(h.numCounted())
	}
	return h
}

// addGroup records the next counted message's group start g.
func (h *History) addGroup(g int64) {
	if h.wide == nil {
		if d := g - h.base; d >= math.MinInt32 && d <= math.MaxInt32 {
			h.groups = append(h.groups, int32(d))
			return
		}
		h.wide = make([]int64, len(h.groups), cap(h.groups))
		for k, d := range h.groups {
			h.wide[k] = h.base + int64(d)
		}
		h.groups = nil
	}
	h.wide = append(h.wide, g)
}

// index returns the index of the first event whose seq is at least seq.
func (h *History) index(seq int64) int {
	if h.contiguous {
		return int(min(max(seq-h.base, 0), int64(len(h.events))))
	}
	return sort.Search(len(h.events), func(i int) bool { return h.events[i].Seq >= seq })
}

// Page returns the page of at most maxMessages counted messages that ends
// just before beforeSeq (a negative beforeSeq means absent: the tail page).
// maxMessages ≤ 0 means DefaultHistoryMessages. On a contiguous log it costs
// O(1) and reads no event; otherwise O(log n).
func (h *History) Page(beforeSeq int64, maxMessages int) Page {
	if maxMessages <= 0 {
		maxMessages = DefaultHistoryMessages
	}
	end := len(h.events)
	if beforeSeq >= 0 {
		end = h.index(beforeSeq)
	}
	var cut int64
	if k := h.countBefore(end); k >= maxMessages {
		cut = h.group(k - maxMessages)
	}
	start := min(h.index(cut), end)
	if !h.contiguous || start == end {
		return historyMakePage(h.events[start:end], beforeSeq, cut)
	}
	return Page{From: h.base + int64(start), To: h.base + int64(end) - 1, Events: h.events[start:end], HasMore: cut > 0}
}

// HistoryPage is session.history over events as log.md §12.2 writes it: a
// newest-first scan of the window. It costs O(len(events)); use a History to
// page one log repeatedly.
func HistoryPage(events []Event, beforeSeq int64, maxMessages int) Page {
	if maxMessages <= 0 {
		maxMessages = DefaultHistoryMessages
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

func historyMakePage(events []Event, beforeSeq, cut int64) Page {
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
