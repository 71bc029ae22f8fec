package invariant

import (
	"fmt"
	"hash/maphash"
	"iter"
	"slices"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/internal/ground/ahead"
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
	{NoLostMessage, "no append-origin message lost: every non-empty prompt and assistant text in the log shows in the transcript, as its Markdown shows it (tables aside, whose cells wrap in columns)",
		(*Checker).checkNoLoss, true},
	{OneMarker, "one compaction marker per landed checkpoint",
		(*Checker).checkMarkers, true},
	{NoPayload, "no checkpoint payload (preamble or summary) shown",
		(*Checker).checkNoPayload, true},
	{HistoryPages, "session.history pages are contiguous and cover the log, each compaction summary is on its checkpoint's page, and each page projects one marker per checkpoint on it",
		(*Checker).checkHistory, false},
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
//
// It reads the log twice (scan.go): once to derive what the documents are
// checked against, and once to feed the replay and the live path, compared
// item by item as they go (lockstep.go), and to project the history pages.
// A Checker built by Read keeps none of the log's events, only what it
// derived; one built by New is given them.
type Checker struct {
	read      Source
	events    []sessionlog.Event // New's log; nil for Read's
	sizes     []Size
	opts      transcript.Options
	proj      terminal.Projection
	name      func() string // the session id (Read)
	sessionID string        // name's answer, once the log is read
	// whole has render compare whole documents only, never in step (a
	// test's oracle of the lockstep pass).
	whole bool
	// quick skips work that only refines a failure's detail (bisecting
	// for the first diverging event).
	Quick bool
	// MaxToolOutputLines is the card fold limit (0: the renderer's
	// default).
	MaxToolOutputLines int

	// The first pass's findings, once it is done (scanErr if it failed).
	scanned *logScan
	scanErr error
	// history is the plan of history-pages, derived from the scan.
	history *historyPlan
	// historyVerdict is history-pages' verdict, once found.
	historyVerdict *Result
	// What the invariants need from the documents, per size, filled by
	// render (the documents themselves are dropped once read: on a long
	// log each is tens of megabytes).
	sized []sizeResult
	// checkpointSeqs are the seqs of the log's landed checkpoints.
	checkpointSeqs []int64
	// renderPanic is what render panicked with, if it did.
	renderPanic string
	// The log's expected texts, derived once on first use, and the seed
	// of their norms' keys.
	shown     []shownText
	shownDone bool
	seed      maphash.Seed
}

// sizeResult is what the invariants keep of the documents at one size.
type sizeResult struct {
	// liveReplay is "" when live and replay show the same document and
	// screen, else what differs.
	liveReplay string
	// lacking holds the keys (normKey) of the norms of the expected texts
	// that a document shows fewer times than the log holds them.
	lacking map[uint64]bool
	// Marker rows of the replay and live documents.
	replayMarkers, liveMarkers int
	// payload[k] says checkpoint k's payload shows.
	payload []bool
}

// expected returns the texts no-lost-message looks for (ExpectedTexts),
// computed once.
func (c *Checker) expected() []shownText {
	if !c.shownDone {
		c.shown, c.shownDone = shownTexts(c.scanned.expected, c.seed), true
	}
	return c.shown
}

// Result is one invariant's verdict.
type Result struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// New returns a checker of events, held in memory.
func New(events []sessionlog.Event, sizes []Size, opts transcript.Options, proj terminal.Projection, sessionID string) *Checker {
	c := Read(sliceSource(events), sizes, opts, proj, func() string { return sessionID })
	c.events = events
	return c
}

// Read returns a checker of the log read reads, which it reads whenever it
// needs the log (twice to check every invariant; where live and replay
// part, once more to compare their whole documents and once more to
// bisect for the first event on which they part) and never keeps: it
// holds neither the events nor, while the paths agree, either transcript
// whole (lockstep.go). If the log read
// the second time is not the log read the first, the rendered invariants
// fail saying so. sessionID names the session in the models' header and
// status line; it is asked for once the log has been read (a log's header
// line, which names it, is read with the log).
func Read(read Source, sizes []Size, opts transcript.Options, proj terminal.Projection, sessionID func() string) *Checker {
	if opts.Texts == nil {
		// The two paths and the expected texts hold each long text once.
		opts.Texts = transcript.NewTexts()
	}
	return &Checker{read: read, sizes: sizes, opts: opts, proj: proj, name: sessionID, seed: maphash.MakeSeed()}
}

// WithEvents returns a checker of events with c's sizes, options,
// projection and session id.
func (c *Checker) WithEvents(events []sessionlog.Event) *Checker {
	n := Read(sliceSource(events), c.sizes, c.opts, c.proj, c.name)
	n.events = events
	n.MaxToolOutputLines = c.MaxToolOutputLines
	return n
}

// ensureScan runs the first pass once.
func (c *Checker) ensureScan() error {
	if c.scanned == nil && c.scanErr == nil {
		c.scanned, c.scanErr = c.safeScan()
		c.sessionID = c.name()
	}
	return c.scanErr
}

// safeScan is scan, its panic turned into its error.
func (c *Checker) safeScan() (s *logScan, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	if s, err = c.scan(); err != nil {
		return nil, fmt.Errorf("the log could not be read: %w", err)
	}
	return s, nil
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
		Clock:      c.clock,

		MaxToolOutputLines: c.MaxToolOutputLines,
	}
}

// clock is the frozen clock of every rendering: the time of the log's last
// event (terminal.FrozenNow).
func (c *Checker) clock() int64 {
	if c.scanned == nil {
		return 0
	}
	return c.scanned.now
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
// need of each size's documents. The projection work (replaying, feeding)
// is done once per path, not once per size: it does not depend on the
// size. Both paths are fed from the second read, alongside the history
// pages when they are still to be projected, and compared item by item
// as they go (lockstep.go); each size's documents are searched as they
// are drawn (stream.go). Only when the paths part does render read the
// log again to compare their whole documents (renderWhole).
func (c *Checker) render() {
	defer func() {
		if p := recover(); p != nil {
			c.renderPanic = fmt.Sprint(p)
		}
	}()
	s := c.scanned
	c.sized = make([]sizeResult, len(c.sizes))
	for _, cp := range s.checkpoints {
		c.checkpointSeqs = append(c.checkpointSeqs, cp.Seq)
	}
	// What the sizes' documents are searched for is worked out from the
	// first pass while the second reads the log.
	var in *sizeInputs
	worked := ahead.Go(func() {
		in = newSizeInputs(c.expected(), c.seed, c.payloadFinder(), len(c.checkpointSeqs))
	})
	inputs := sync.OnceValue(func() *sizeInputs { worked(); return in })
	if c.whole || !c.renderLockstep(inputs, c.historyConsumer()) {
		c.renderWhole(inputs())
	}
}

// renderWhole renders both paths' whole documents at every size and
// compares them row by row, saying where they first part: one model
// mounted on the stored log and one fed every event, each resized to every
// size in turn. The two are resized alike, so live and replay are compared
// under the same history of sizes; the live model reuses the rows the
// replay rendered for equal items (terminal.RowCache). It reads the log
// again, replaying it beside the live model.
func (c *Checker) renderWhole(in *sizeInputs) {
	s := c.scanned
	rows := terminal.NewRowCache()
	live := c.sharedModel(nil, c.sizes[0], rows)
	// The replay's panic is the one raised, as in the lockstep pass: the
	// live model's is raised once the replay has read the whole log.
	var livePanic string
	consumers := []func(*sessionlog.Event){func(e *sessionlog.Event) {
		if livePanic == "" {
			guardPath(&livePanic, func() { live.Update(terminal.EventMsg{Event: *e}) })
		}
	}}
	var replayer *transcript.Replay
	if c.proj.Replay == nil {
		replayer = transcript.NewReplay(c.opts)
		consumers = append(consumers, replayer.Apply)
	}
	if err := c.reread(consumers...); err != nil {
		panic(err.Error())
	}
	if livePanic != "" {
		panic(livePanic)
	}
	cfg := c.config(nil, c.sizes[0], rows, true)
	if replayer != nil {
		cfg.Replayed = &terminal.Replayed{Transcript: replayer.Transcript(), Events: s.n}
	} else {
		cfg.Log = s.events
	}
	replay := terminal.New(cfg)
	// Each size's documents are compared and searched as they are read,
	// row by row: neither a document nor its norm is held (a long
	// document's rows are themselves megabytes).
	for i, sz := range c.sizes {
		resize := tea.WindowSizeMsg{Width: sz.W, Height: sz.H}
		replay.Update(resize)
		live.Update(resize)
		c.sized[i] = compareDocuments(replay, live, in)
		if c.sized[i].liveReplay == "" {
			if rs, ls := replay.Screen(), live.Screen(); !slices.Equal(rs, ls) {
				c.sized[i].liveReplay = "screen " + firstDiff(rs, ls)
			}
		}
	}
}

// compareDocuments reads the replay and live documents side by side and
// searches them for in: liveReplay is "" when they are equal, else where
// they first differ. The live document is searched on its own only when
// it differs.
func compareDocuments(replay, live *terminal.Model, in *sizeInputs) sizeResult {
	var r sizeResult
	next, stop := iter.Pull(live.DocumentRows())
	defer stop()
	row := 0
	found := in.search(replay.DocumentRows(), func(x string) {
		if r.liveReplay == "" {
			y, ok := next()
			if !ok || x != y {
				r.liveReplay = "document " + rowDiff(row, x, y)
			}
		}
		row++
	})
	if r.liveReplay == "" {
		if y, ok := next(); ok {
			r.liveReplay = "document " + rowDiff(row, "", y)
		}
	}
	stop()
	r.lacking = in.lacking(found, replay.DocumentRows())
	r.replayMarkers, r.liveMarkers = found.markers-in.quoted, found.markers-in.quoted
	pieces := [][]bool{found.pieces}
	if r.liveReplay != "" {
		lf := in.search(live.DocumentRows(), nil)
		for k := range in.lacking(lf, live.DocumentRows()) {
			r.lacking[k] = true
		}
		r.liveMarkers = lf.markers - in.quoted
		pieces = append(pieces, lf.pieces)
	}
	r.payload = in.payloadShown(pieces...)
	return r
}

// payloadShown says, for each checkpoint, whether a document shows a piece
// of its payload, given the pieces each document showed.
func (in *sizeInputs) payloadShown(pieces ...[]bool) []bool {
	shown := make([]bool, in.checkpoints)
	for _, found := range pieces {
		for p, ok := range found {
			if ok {
				shown[in.payload.owner[p]] = true
			}
		}
	}
	return shown
}

// CheckAll runs every invariant, in report order. The history pages are
// projected as the live model is fed.
func (c *Checker) CheckAll() []Result {
	var out []Result
	for _, inv := range registry {
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
		if err := c.ensureScan(); err != nil {
			return false, err.Error()
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
