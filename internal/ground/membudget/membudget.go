// Package membudget keeps a process that reads a log within a memory
// budget, a multiple of the log's text: it is the load.Budget hook the CLI
// hands the reader.
//
// A command that reads a log works within a memory budget: a multiple of
// the log's text (its JSONL lines after any decompression), and at least
// budgetMin, so that a CI runner can plan for it. The budget is the
// runtime's soft memory limit (debug.SetMemoryLimit) less budgetReserve,
// the part of the process's resident memory the runtime does not count
// (the binary's pages), and less a margin for the limit's softness
// (budgetLimit); the collector works harder only as the heap nears it.
// GOMEMLIMIT, when set, decides instead.
//
// The text's size is known only as it is read (a .jsonl.zstd file's size
// says little of it), so the budget grows with what the reader has read.
//
// A Zstandard decoder allocates its frame's whole window (up to 128 MiB)
// at the first block and writes it as the text is decoded: the part past
// the text read so far is heap the runtime counts and no page holds. So
// the limit is the budget plus that part (Window), or a log of 10 MB of
// text in a 128 MiB window would be collected without end to keep within
// a budget its untouched window already fills; the slack below leaves the
// window out (live all along, it makes no garbage). Once the decoder is
// released the window is collected and its pages given back at once.
//
// A budget the live heap itself outgrows would make the collector run
// without end (a log whose events hold more than the budget allows), so
// the limit is also at least budgetSlack times the live heap: the command
// then runs over its budget, which make bench-shapes reports, instead of
// thrashing within it.
package membudget

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Reserve is the usual Spec.Reserve: the binary's resident pages, which
// measure 11.5–12.4 MiB while check, history, render or repro read a
// log of a million events.
const Reserve = 12 << 20

const (
	budgetMin     = 64 << 20
	budgetStep    = 1 << 20  // how often, in bytes of text, the limit is raised
	budgetSlack   = 1.25     // the least limit, in times the live heap
	windowCollect = 16 << 20 // a released window this large is collected at once
)

// Spec is a command's budget.
type Spec struct {
	// Factor is the budget in times the log's text; ≤ 0 turns it off.
	Factor float64
	// Reserve is the part of the budget the runtime's limit leaves out:
	// the command's resident memory the runtime does not count.
	Reserve int64
}

// Budget is the memory limit of one command.
type Budget struct {
	spec    Spec
	mu      sync.Mutex
	text    int64 // the text read so far
	next    int64 // read's next step
	base    int64 // the limit but for the window not yet written; it only rises
	window  int64 // the window of the decoder held (Window)
	decoded func() int64
	limit   int64 // the limit set, 0 before the first
	before  int64 // the limit to restore
	off     bool
}

// budgetWatch is how often the limit is checked against the live heap
// while the command runs.
const budgetWatch = 50 * time.Millisecond

// Start starts the budget s (off for a factor ≤ 0 or with GOMEMLIMIT set
// in getenv's environment); restore sets the limit back as it was, when
// the command ends.
func Start(s Spec, getenv func(string) string) (b *Budget, restore func()) {
	b = &Budget{spec: s, off: s.Factor <= 0 || getenv("GOMEMLIMIT") != ""}
	if b.off {
		return b, func() {}
	}
	b.before = debug.SetMemoryLimit(-1)
	b.Grow(0)
	// The live heap can outgrow the budget after the read.
	stop := Every(budgetWatch, func() { b.Grow(-1) })
	return b, func() {
		stop()
		debug.SetMemoryLimit(b.before)
	}
}

// Spend has the collector run only as the heap nears b's limit
// (debug.SetGCPercent(-1): the memory limit alone paces it) until restore
// is called. repro's live heap comes near its budget on a long log
// anyway; on the way there the default pacing collects at every doubling
// of a heap still small, for nothing: on the 100k small log that was 18 of
// repro's 55 collections and 6% of its wall time, on the 1M one 15%. It
// does nothing when GOGC is set, or when b is off: with no limit, nothing
// would collect at all.
func (b *Budget) Spend(getenv func(string) string) (restore func()) {
	if b.off || getenv("GOGC") != "" {
		return func() {}
	}
	before := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(before) }
}

// budgetLimit is the soft memory limit for text bytes of log within s:
// the budget less s's reserve and a thirty-second of itself, since the
// runtime's limit is soft: on logs of multi-megabyte lines the resident
// size was measured up to 3% past the limit plus the reserve.
func budgetLimit(s Spec, text int64) int64 {
	b := max(int64(float64(text)*s.Factor), budgetMin)
	return b - s.Reserve - b/32
}

// Read tells the budget how much text has been read, raising the limit a
// budgetStep at a time.
func (b *Budget) Read(text int64) {
	if b == nil || text < b.next {
		return
	}
	b.next = text + budgetStep
	b.Grow(text)
}

// Window tells the budget that a decoder allocates a history of bytes,
// written as the text is decoded (decoded says how much so far, ahead of
// the text read): the part of it past the text is added to the limit (see
// the package comment). Window(0, nil) says the decoder is released: the
// limit falls back to the budget.
func (b *Budget) Window(bytes int64, decoded func() int64) {
	if b == nil || b.off {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.window-bytes >= windowCollect {
		// The released window is garbage: collect it and give its pages
		// back now, or the live heap the limit's slack follows would count
		// it until the next collection, and the pages it touched would stay
		// resident beside what comes next. (Under the lock: the watcher
		// must not raise the limit on the stale live heap meanwhile.)
		debug.FreeOSMemory()
		b.base = 0 // set again below, lower
	}
	b.window, b.decoded = bytes, decoded
	b.grow(-1)
}

// Grow raises the limit to the budget of text bytes of log (-1: the text
// read so far), and to budgetSlack times the live heap, each plus the
// decoder window not yet written.
func (b *Budget) Grow(text int64) {
	if b == nil || b.off {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.grow(text)
}

func (b *Budget) grow(text int64) {
	first := b.base == 0 && b.text == 0 && b.window == 0
	if text < 0 {
		text = b.text
	}
	b.text = max(b.text, text)
	written := b.text // a decoder used again wrote as far before
	if b.decoded != nil {
		written = max(written, b.decoded())
	}
	unwritten := max(b.window-written, 0)
	l := budgetLimit(b.spec, b.text)
	if !first { // the first limit is set before anything is live
		// The slack is for the garbage the live heap makes; the window,
		// live all along, makes none: its written part is live at 1×.
		rest := max(int64(LiveHeap())-b.window, 0)
		l = max(l, int64(float64(rest)*budgetSlack)+b.window-unwritten)
	}
	// The base only rises; the window's part falls as the decoder writes
	// it (written, it is in the base). It counts as heap for the limit's
	// softness too (the runtime keeps its own records of the pages it
	// spans).
	b.base = max(b.base, l)
	if l = b.base + unwritten - unwritten/8; l != b.limit {
		b.limit = l
		debug.SetMemoryLimit(l)
	}
}

// Every runs f every d on a goroutine of its own until the returned stop
// is called; stop waits for the goroutine to end. The memory budget and
// the peak heap profile watch the live heap this way while a command runs.
func Every(d time.Duration, f func()) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// LiveHeap returns the live heap the last collection found
// (/gc/heap/live:bytes), or 0 if the runtime does not say.
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
