package invariant

import (
	"fmt"
	"iter"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// Invariant names, as repro prints them and --minimize takes them.
const (
	LiveReplay    = "live-replay"
	NoLostMessage = "no-lost-message"
	OneMarker     = "one-marker"
	NoPayload     = "no-payload"
	HistoryPages  = "history-pages"
)

// Invariant is one transcript invariant: its name, what it checks (for help
// and reports), and its check over a Checker's log.
type Invariant struct {
	Name  string
	Doc   string
	check func(c *Checker) (ok bool, detail string)
	// rendered says the check reads the rendered documents.
	rendered bool
}

// registry lists every invariant in report order. A new invariant is added
// here, with its check.
var registry = [...]Invariant{
	{LiveReplay, "live ≡ replay: a terminal fed the events one by one shows exactly what one mounted on the stored log shows (whole document and screen, at every size)",
		(*Checker).checkLiveReplay, true},
	{NoLostMessage, "no append-origin message lost: every non-empty prompt and assistant text in the log shows in the transcript",
		(*Checker).checkNoLoss, true},
	{OneMarker, "one compaction marker per landed checkpoint",
		(*Checker).checkMarkers, true},
	{NoPayload, "no checkpoint payload (preamble or summary) shown",
		(*Checker).checkNoPayload, true},
	{HistoryPages, "session.history pages are contiguous and cover the log, each compaction summary is on its checkpoint's page, and each page projects one marker per checkpoint on it",
		func(c *Checker) (bool, string) { return c.checkHistory(c.events) }, false},
}

// All returns every invariant in report order.
func All() []Invariant { return slices.Clone(registry[:]) }

// Names returns the names of every invariant in report order.
func Names() []string {
	out := make([]string, len(registry))
	for i, inv := range registry {
		out[i] = inv.Name
	}
	return out
}

// Lookup returns the invariant named name.
func Lookup(name string) (Invariant, bool) {
	for _, inv := range registry {
		if inv.Name == name {
			return inv, true
		}
	}
	return Invariant{}, false
}

// Size is a terminal size.
type Size struct{ W, H int }

func (s Size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// Checker renders a log both ways at each size and checks the invariants.
type Checker struct {
	events    []sessionlog.Event
	sizes     []Size
	opts      transcript.Options
	proj      terminal.Projection
	windows   windowsFunc // projects history pages with proj
	sessionID string
	now       int64
	// quick skips work that only refines a failure's detail (bisecting
	// for the first diverging event).
	Quick bool
	// MaxToolOutputLines is the card fold limit (0: the renderer's
	// default).
	MaxToolOutputLines int

	// What the invariants need from the documents, per size, filled by
	// render (the documents themselves are dropped once read: on a long
	// log each is tens of megabytes).
	sized []sizeResult
	// checkpointSeqs are the seqs of the log's landed checkpoints, noted
	// by render.
	checkpointSeqs []int64
	// reread, when set, reads the log's events again, in order, until
	// yield returns false. render then drops c.events once the replay
	// model is built and feeds the live model from reread, and a
	// failure's detail that needs the log (the first diverging event)
	// rereads it.
	Reread func(yield func(*sessionlog.Event) bool) error
	// renderPanic is what render panicked with, if it did.
	renderPanic string
	// The log's expected texts, derived once on first use.
	shown     []shownText
	shownDone bool
}

// sizeResult is what the invariants keep of the documents at one size.
type sizeResult struct {
	// liveReplay is "" when live and replay show the same document and
	// screen, else what differs.
	liveReplay string
	// lacking holds the norms of the expected texts that a document shows
	// fewer times than the log holds them.
	lacking map[string]bool
	// Marker rows of the replay and live documents.
	replayMarkers, liveMarkers int
	// payload[k] says checkpoint k's payload shows.
	payload []bool
}

// expected returns the texts no-lost-message looks for (ExpectedTexts),
// computed once.
func (c *Checker) expected() []shownText {
	if !c.shownDone {
		c.shown, c.shownDone = shownTexts(ExpectedTexts(c.events, c.opts.EagerSteps)), true
	}
	return c.shown
}

// Result is one invariant's verdict.
type Result struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func New(events []sessionlog.Event, sizes []Size, opts transcript.Options, proj terminal.Projection, sessionID string) *Checker {
	windows := windowsFunc(transcript.ProjectWindows)
	if proj.Replay != nil {
		windows = eachWindow(proj.Replay)
	}
	return &Checker{events: events, sizes: sizes, opts: opts, proj: proj, windows: windows, sessionID: sessionID, now: FrozenNow(events)}
}

// WithEvents returns a checker of events with c's sizes, options,
// projection and session id.
func (c *Checker) WithEvents(events []sessionlog.Event) *Checker {
	n := New(events, c.sizes, c.opts, c.proj, c.sessionID)
	n.MaxToolOutputLines = c.MaxToolOutputLines
	return n
}

func (c *Checker) model(log []sessionlog.Event, sz Size) *terminal.Model {
	return c.sharedModel(log, sz, nil)
}

// sharedModel is model with a RowCache shared with other models.
func (c *Checker) sharedModel(log []sessionlog.Event, sz Size, rows *terminal.RowCache) *terminal.Model {
	return terminal.New(c.config(log, sz, rows, false))
}

func (c *Checker) config(log []sessionlog.Event, sz Size, rows *terminal.RowCache, replayOnly bool) terminal.Config {
	return terminal.Config{
		ReplayOnly: replayOnly,
		Rows:       rows,
		SessionID:  c.sessionID,
		Log:        log,
		Width:      sz.W,
		Height:     sz.H,
		Transcript: c.opts,
		Projection: c.proj,
		Clock:      func() int64 { return c.now },

		MaxToolOutputLines: c.MaxToolOutputLines,
	}
}

// replay renders the stored log mounted at once.
func (c *Checker) replay(events []sessionlog.Event, sz Size) (doc, scr []string) {
	m := c.model(events, sz)
	return m.Document().Lines, m.Screen()
}

// live renders a terminal mounted on an empty log that is fed every event.
func (c *Checker) live(events []sessionlog.Event, sz Size) (doc, scr []string) {
	m := c.model(nil, sz)
	for i := range events {
		m.Update(terminal.EventMsg{Event: events[i]})
	}
	return m.Document().Lines, m.Screen()
}

// render renders both paths at every size and keeps what the invariants
// need of each size's documents: one model mounted on the stored log and one
// fed every event, each resized to every size in turn. The projection work
// (replaying, priming the live projector, feeding) is done once per path,
// not once per size: it does not depend on the size, and neither does
// anything else the models hold but their render caches, whose rows are
// keyed by width. The two paths are resized alike, so live and replay are
// compared under the same history of sizes. The live model reuses the rows
// the replay rendered for equal items (terminal.RowCache).
//
// Without reread the two paths are built side by side from c.events; with
// it, the replay is mounted first, the log dropped, and the live model fed
// from a second read. A size's norms are searched while the next size
// renders.
func (c *Checker) render() {
	defer func() {
		if p := recover(); p != nil {
			c.renderPanic = fmt.Sprint(p)
		}
	}()
	c.sized = make([]sizeResult, len(c.sizes))
	rows := terminal.NewRowCache()
	var live *terminal.Model
	var replay *terminal.Model
	if c.Reread == nil {
		wait := Go(func() {
			live = c.sharedModel(nil, c.sizes[0], rows)
			for i := range c.events {
				live.Update(terminal.EventMsg{Event: c.events[i]})
			}
		})
		replay = terminal.New(c.config(c.events, c.sizes[0], rows, true))
		wait()
	} else {
		replay = terminal.New(c.config(c.events, c.sizes[0], rows, true))
	}
	for _, cp := range checkpoints(c.events) {
		c.checkpointSeqs = append(c.checkpointSeqs, cp.Seq)
	}
	in := &sizeInputs{texts: c.textNorms(), payload: c.payloadFinder(),
		quoted: quotedMarkers(c.expected()), checkpoints: len(c.checkpointSeqs)}
	if c.Reread != nil {
		// Everything the documents are checked against is derived now: let
		// the log go (the replay model keeps none of it) and feed the live
		// model from the file as it is read again, so the log's events and
		// both transcripts are never in memory at once.
		n := len(c.events)
		c.events = nil
		live = c.sharedModel(nil, c.sizes[0], rows)
		fed := 0
		err := c.pipeline(n, func(e *sessionlog.Event) {
			live.Update(terminal.EventMsg{Event: *e})
			fed++
		})
		if err == nil && fed != n {
			err = fmt.Errorf("%d events, not %d", fed, n)
		}
		if err != nil {
			panic(fmt.Sprintf("the log changed while repro read it: %v", err))
		}
	}
	// Each size's documents are compared and reduced to their norms as
	// they are read, row by row (not held: a long document's row list is
	// itself megabytes); the norms are searched while the next size
	// renders.
	var search func()
	hint := 0
	for i, sz := range c.sizes {
		resize := tea.WindowSizeMsg{Width: sz.W, Height: sz.H}
		replay.Update(resize)
		live.Update(resize)
		diff, replayNorm, liveNorm := compareDocuments(replay, live, hint)
		hint = len(replayNorm) + len(replayNorm)/8 // sizes differ little
		if diff == "" {
			if rs, ls := replay.Screen(), live.Screen(); !slices.Equal(rs, ls) {
				diff = "screen " + firstDiff(rs, ls)
			}
		}
		if search != nil {
			search()
		}
		search = Go(func() { c.sized[i] = searchSize(diff, replayNorm, liveNorm, in) })
	}
	search()
}

// compareDocuments reads the replay and live documents side by side. diff
// is "" when they are equal, else where they first differ; the norms are
// docNorm of each (the same string when the documents are equal), built
// in a buffer of hint bytes to start with.
func compareDocuments(replay, live *terminal.Model, hint int) (diff, replayNorm, liveNorm string) {
	next, stop := iter.Pull(live.DocumentRows())
	defer stop()
	norm := make([]byte, 0, hint)
	row := 0
	for x := range replay.DocumentRows() {
		norm = appendRowNorm(norm, x)
		if diff == "" {
			y, ok := next()
			if !ok || x != y {
				diff = "document " + rowDiff(row, x, y)
			}
		}
		row++
	}
	if diff == "" {
		if y, ok := next(); ok {
			diff = "document " + rowDiff(row, "", y)
		}
	}
	replayNorm = string(norm)
	if diff == "" {
		return "", replayNorm, replayNorm
	}
	stop()
	norm = norm[:0]
	for y := range live.DocumentRows() {
		norm = appendRowNorm(norm, y)
	}
	return diff, replayNorm, string(norm)
}

// pipeline rereads the first n events of the log on one goroutine and
// hands them to feed, in order, on this one, a batch at a time: decoding
// and feeding proceed side by side.
func (c *Checker) pipeline(n int, feed func(*sessionlog.Event)) error {
	const batch = 256
	batches := make(chan []sessionlog.Event, 4)
	stop := make(chan struct{}) // closed when feeding ends, even by a panic
	var err error
	wait := Go(func() {
		defer close(batches)
		send := func(b []sessionlog.Event) bool {
			select {
			case batches <- b:
				return true
			case <-stop:
				return false
			}
		}
		b := make([]sessionlog.Event, 0, batch)
		read := 0
		err = c.Reread(func(e *sessionlog.Event) bool {
			b = append(b, *e)
			if read++; len(b) == batch {
				if !send(b) {
					return false
				}
				b = make([]sessionlog.Event, 0, batch)
			}
			return read < n
		})
		if len(b) > 0 {
			send(b)
		}
	})
	defer close(stop)
	for b := range batches {
		for i := range b {
			feed(&b[i])
		}
	}
	wait()
	return err
}

// Go runs f in a goroutine and returns a function that waits for it
// and re-raises its panic, if any, in the caller.
func Go(f func()) (wait func()) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	return func() {
		if p := <-done; p != nil {
			panic(p)
		}
	}
}

// sizeInputs is what searchSize looks for in the documents, derived from the
// log once.
type sizeInputs struct {
	texts       *textNorms
	payload     *payloads
	quoted      int // times the expected texts quote the marker's words
	checkpoints int
}

// searchSize works out what the invariants need of one size's documents,
// given where they differ (diff, "" if nowhere) and their norms.
func searchSize(diff, replay, live string, in *sizeInputs) sizeResult {
	r := sizeResult{liveReplay: diff}
	r.replayMarkers, r.liveMarkers = countMarkers(replay, in.quoted), countMarkers(live, in.quoted)
	r.lacking = countsBelow(replay, in.texts.norms, in.texts.need)
	r.payload = make([]bool, in.checkpoints)
	docs := []string{replay}
	if live != replay {
		docs = append(docs, live)
		for n := range countsBelow(live, in.texts.norms, in.texts.need) {
			r.lacking[n] = true
		}
	}
	for _, doc := range docs {
		for p, ok := range in.payload.find(doc) {
			if ok {
				r.payload[in.payload.owner[p]] = true
			}
		}
	}
	return r
}

// CheckAll runs every invariant, in report order; history-pages, which does
// not read the rendered documents, runs alongside the rendering.
func (c *Checker) CheckAll() []Result {
	var hist Result
	events := c.events // render may drop c.events while the pages are checked
	wait := Go(func() {
		hist = guard(HistoryPages, func() (bool, string) { return c.checkHistory(events) })
	})
	var out []Result
	for _, inv := range registry {
		if inv.Name == HistoryPages {
			wait()
			out = append(out, hist)
			continue
		}
		out = append(out, c.Check(inv.Name))
	}
	return out
}

// Check runs the invariant named name.
func (c *Checker) Check(name string) Result {
	inv, ok := Lookup(name)
	return guard(name, func() (bool, string) {
		if !ok {
			return false, "unknown invariant"
		}
		if inv.rendered {
			if c.sized == nil {
				c.render()
			}
			if c.renderPanic != "" {
				return false, "panic: " + c.renderPanic
			}
		}
		return inv.check(c)
	})
}

// guard runs an invariant's check; a panic in the renderer or projection
// is a failure of that invariant, reported with its message.
func guard(name string, check func() (bool, string)) (r Result) {
	r.Name = name
	defer func() {
		if p := recover(); p != nil {
			r.OK, r.Detail = false, fmt.Sprintf("panic: %v", p)
		}
	}()
	r.OK, r.Detail = check()
	return r
}

// Plural formats a count with a noun, adding "s" unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FrozenNow is the clock every offline rendering uses: the time of the
// log's last event, so open timing buckets read the same on every run.
func FrozenNow(events []sessionlog.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[len(events)-1].Time
}
