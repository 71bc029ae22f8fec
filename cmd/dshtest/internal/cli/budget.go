package cli

import (
	"runtime/debug"
	"sync"
	"time"
)

// A command that reads a log works within a memory budget: a multiple of
// the log's text (its JSONL lines after any decompression), and at least
// budgetMin, so that a CI runner can plan for it (the targets of
// benchmarks/internal/targets: check, history, render and view within
// twice the text, repro within three times). The budget is the runtime's
// soft memory limit (debug.SetMemoryLimit) less budgetReserve, the part of
// the process's resident memory the runtime does not count (the binary's
// pages); the collector works harder only as the heap nears it. GOMEMLIMIT, when set,
// decides instead.
//
// The text's size is known only as it is read (a .jsonl.zstd file's size
// says little of it), so the budget grows with what the reader has read.
//
// A budget the live heap itself outgrows would make the collector run
// without end (a log whose events hold more than the budget allows), so
// the limit is also at least budgetSlack times the live heap: the command then
// runs over its budget, which make bench-shapes reports, instead of
// thrashing within it.
const (
	readBudget    = 2.0 // check, history, render, view
	reproBudget   = 3.0
	budgetMin     = 64 << 20
	budgetReserve = 12 << 20
	budgetStep    = 1 << 20 // how often, in bytes of text, the limit is raised
	budgetSlack   = 1.25    // the least limit, in times the live heap
)

// budget is the memory limit of one command.
type budget struct {
	factor float64
	mu     sync.Mutex
	text   int64 // the text read so far
	next   int64 // read's next step
	limit  int64 // the limit set, 0 before the first
	before int64 // the limit to restore
	off    bool
}

// budgetWatch is how often the limit is checked against the live heap
// while the command runs.
const budgetWatch = 50 * time.Millisecond

// startBudget starts a budget of factor times the text; the app restores
// the limit before it when the command ends.
func (a *app) startBudget(factor float64) *budget {
	b := &budget{factor: factor, off: factor <= 0 || a.getenv("GOMEMLIMIT") != ""}
	if !b.off {
		b.before = debug.SetMemoryLimit(-1)
		b.Grow(0)
		// The live heap can outgrow the budget after the read.
		stop := every(budgetWatch, func() { b.Grow(-1) })
		prev := a.restore
		a.restore = func() {
			stop()
			debug.SetMemoryLimit(b.before)
			if prev != nil {
				prev()
			}
		}
	}
	return b
}

// spendBudget has the collector run only as the heap nears b's limit
// (debug.SetGCPercent(-1): the memory limit alone paces it) until the
// command ends. repro's live heap comes near its budget on a long log
// anyway; on the way there the default pacing collects at every doubling
// of a heap still small, for nothing: on the 100k small log that was 18 of
// repro's 55 collections and 6% of its wall time, on the 1M one 15%. It
// does nothing when GOGC is set, or when b is off: with no limit, nothing
// would collect at all.
func (a *app) spendBudget(b *budget) {
	if b.off || a.getenv("GOGC") != "" {
		return
	}
	before := debug.SetGCPercent(-1)
	prev := a.restore
	a.restore = func() {
		debug.SetGCPercent(before)
		if prev != nil {
			prev()
		}
	}
}

// budgetLimit is the soft memory limit for text bytes of log at factor.
func budgetLimit(factor float64, text int64) int64 {
	return max(int64(float64(text)*factor), budgetMin) - budgetReserve
}

// Read tells the budget how much text has been read, raising the limit a
// budgetStep at a time.
func (b *budget) Read(text int64) {
	if b == nil || text < b.next {
		return
	}
	b.next = text + budgetStep
	b.Grow(text)
}

// Grow raises the limit to the budget of text bytes of log (-1: the text
// read so far), and to budgetSlack times the live heap.
func (b *budget) Grow(text int64) {
	if b == nil || b.off {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if text < 0 {
		text = b.text
	}
	b.text = max(b.text, text)
	l := budgetLimit(b.factor, b.text)
	if b.limit > 0 { // the first limit is set before anything is live
		l = max(l, int64(float64(liveHeap())*budgetSlack))
	}
	if l > b.limit {
		b.limit = l
		debug.SetMemoryLimit(l)
	}
}
