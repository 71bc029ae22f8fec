package terminal

import (
	"iter"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// The Bubble Tea program: its configuration and messages, the model with
// its replay and live paths, the screen (header, transcript window, status
// line) and the per-item row cache the window is drawn through.

// Config configures the program.
type Config struct {
	// SessionID is shown in the header and status line.
	SessionID string
	// Log is the stored log, replayed on mount. The model keeps it until
	// the first EventMsg, which primes the live projector with it: do not
	// modify its events meanwhile.
	Log []sessionlog.Event
	// ReplayOnly says the model will only show Log and is never sent an
	// EventMsg: it does not keep Log to prime a live projector with, so a
	// long log can be freed once mounted. An EventMsg to it panics.
	ReplayOnly bool
	// Replayed, when set, is a stored log a reader replayed itself
	// (transcript.Replay) as it read it, keeping none of its events: the
	// model mounts its transcript in place of Log. It must be ReplayOnly,
	// and it is what Projection.Replay would have made of the log, so it
	// is for the default projection.
	Replayed *Replayed
	// Width and Height are the initial terminal size; a tea.WindowSizeMsg
	// replaces them.
	Width, Height int
	Scheme        display.Scheme
	HideReasoning bool
	Tools         display.ToolMode
	// Transcript are the projection's options (the step rule).
	Transcript transcript.Options
	// Projection is the seam to the projection; the zero value uses
	// transcript.Project (replay) and transcript.NewProjector (live).
	Projection Projection
	// Clock returns "now" in epoch ms; nil means the wall clock.
	Clock func() int64
	// Location formats "Completed" stamps; nil means UTC.
	Location   *time.Location
	Presenters *cards.Presenters
	// MaxToolOutputLines is the fold limit; 0 means 6.
	MaxToolOutputLines int
	// Rows, when set, shares rendered rows with the other models given
	// the same RowCache.
	Rows *RowCache
	// Refresh, when positive, re-renders the view at this interval so that
	// open timing buckets and the compaction indicator count up. Zero (the
	// default, and what tests use) renders only on messages.
	Refresh time.Duration
}

// Replayed is a stored log's transcript and its number of events.
type Replayed struct {
	Transcript transcript.Transcript
	Events     int
}

// EventMsg appends one event to the log through the live path.
type EventMsg struct {
	Event sessionlog.Event
}

// EventsMsg appends events, in order, through the live path: what as many
// EventMsg would, in one message. A viewer that reads a long log behind its
// screen sends its batches so.
type EventsMsg struct {
	Events []sessionlog.Event
}

// StatusMsg sets a text the status line shows after the session id (where
// a narrow terminal does not cut it off) until another StatusMsg replaces
// it; the empty text removes it. A viewer says with it how far it has read. The text is
// escaped as every log-derived string is.
type StatusMsg struct {
	Text string
}

// ResumeMsg drops all state and remounts on Log (a resume): the transcript
// is rebuilt through the replay path. Log is kept as Config.Log is.
type ResumeMsg struct {
	Log []sessionlog.Event
}

// SchemeMsg switches the colour scheme.
type SchemeMsg struct {
	Scheme display.Scheme
}

type refreshMsg struct{}

// Model is the Bubble Tea model of the transcript viewer. Its view is a
// header row, the transcript window and a status line.
type Model struct {
	cfg   Config
	proj  Projection
	clock func() int64

	width, height int
	scheme        display.Scheme
	hideReasoning bool
	tools         display.ToolMode

	t        transcript.Transcript
	live     LiveProjector      // nil until the first live event
	mounted  []sessionlog.Event // the log mounted on, to prime live with
	liveView bool               // t comes from live, not from the replay at mount
	events   int
	markers  []int // indices of marker items, ascending
	steps    *stepIndex

	cache      map[transcript.ItemID]*cachedRows
	misses     int // items rendered (cache misses), for tests
	notice     string
	statusText string // StatusMsg's text

	follow bool
	top    anchor
}

// anchor is a transcript row position: a row of an item (index len(items)
// is the compaction indicator).
type anchor struct {
	item, off int
}

// cacheKey is everything an item's rows depend on besides the item itself.
type cacheKey struct {
	rev           uint64
	width         int
	scheme        display.Scheme
	hideReasoning bool
	tools         display.ToolMode
	cont          bool
	now           int64 // only for items whose text depends on the clock
}

type cachedRows struct {
	key  cacheKey
	rows []string
}

// New returns a model mounted on cfg.Log.
func New(cfg Config) *Model {
	m := &Model{cfg: cfg, proj: cfg.Projection, clock: cfg.Clock,
		width: cfg.Width, height: cfg.Height, scheme: cfg.Scheme,
		hideReasoning: cfg.HideReasoning, tools: cfg.Tools}
	if m.proj.Replay == nil {
		m.proj.Replay = transcript.Project
	}
	if m.proj.Live == nil {
		m.proj.Live = Projection{}.NewLive
	}
	if m.clock == nil {
		m.clock = func() int64 { return time.Now().UnixMilli() }
	}
	if r := cfg.Replayed; r != nil {
		if !cfg.ReplayOnly || cfg.Log != nil || cfg.Projection.Replay != nil {
			panic("terminal: Config.Replayed is for a ReplayOnly model of the default projection, without Log")
		}
		m.mountTranscript(r.Transcript, r.Events)
		m.cfg.Replayed = nil
		return m
	}
	m.mount(cfg.Log)
	m.cfg.Log = nil // mount keeps what it needs
	return m
}

// mount replays log. The live projector is primed with log at the first
// live event, not here: a model that only shows a stored log (a viewer, a
// replay check) never pays for a second projection of it.
func (m *Model) mount(log []sessionlog.Event) {
	m.mountTranscript(m.proj.Replay(log, m.cfg.Transcript), len(log))
	if !m.cfg.ReplayOnly {
		m.mounted = log
	}
}

// mountTranscript shows t, the replayed transcript of a log of n events.
func (m *Model) mountTranscript(t transcript.Transcript, n int) {
	m.t = t
	m.live, m.mounted = nil, nil
	m.liveView = false
	m.events = n
	m.resetIndexes()
	m.follow, m.top = true, anchor{}
}

// resetIndexes drops every cache and index derived from m.t.
func (m *Model) resetIndexes() {
	m.cache = make(map[transcript.ItemID]*cachedRows)
	m.markers = m.markers[:0]
	m.addMarkers(0)
	m.steps = nil
}

func (m *Model) addMarkers(from int) {
	for i := from; i < len(m.t.Items); i++ {
		if m.t.Items[i].Kind == transcript.KindMarker {
			m.markers = append(m.markers, i)
		}
	}
}

// apply feeds one event through the live path, priming the live projector
// with the mounted log first if this is the first.
func (m *Model) apply(e sessionlog.Event) {
	if m.live == nil {
		if m.cfg.ReplayOnly {
			panic("terminal: EventMsg sent to a ReplayOnly model")
		}
		m.live = m.proj.Live(m.cfg.Transcript)
		for i := range m.mounted {
			m.live.Apply(&m.mounted[i])
		}
		m.mounted = nil
	}
	ch := m.live.Apply(&e)
	m.events++
	m.t = m.live.Transcript()
	if !m.liveView {
		// The first live event: switch from the replayed transcript to the
		// live one, dropping everything derived from the replay.
		m.liveView = true
		m.resetIndexes()
		return
	}
	for len(m.markers) > 0 && m.markers[len(m.markers)-1] >= ch.From {
		m.markers = m.markers[:len(m.markers)-1]
	}
	m.addMarkers(ch.From)
	if m.steps != nil {
		m.steps.update(m.t.Items, ch)
	}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return m.tick() }

func (m *Model) tick() tea.Cmd {
	if m.cfg.Refresh <= 0 {
		return nil
	}
	return tea.Tick(m.cfg.Refresh, func(time.Time) tea.Msg { return refreshMsg{} })
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case EventMsg:
		m.apply(msg.Event)
	case EventsMsg:
		for _, e := range msg.Events {
			m.apply(e)
		}
		// A viewer reading a long log behind its screen sends batches: it
		// keeps the step index as it goes (a few map operations an event)
		// rather than build it over the whole transcript at the first key
		// that hides the tools, while the user waits (13 ms at 1M events).
		m.stepIdx()
	case StatusMsg:
		m.statusText = msg.Text
	case ResumeMsg:
		m.mount(msg.Log)
		m.notice = ""
	case SchemeMsg:
		m.scheme = msg.Scheme
	case refreshMsg:
		return m, m.tick()
	case tea.KeyPressMsg:
		return m, m.key(msg.String())
	}
	return m, nil
}

func (m *Model) key(k string) tea.Cmd {
	switch k {
	case "q", "ctrl+c":
		return tea.Quit
	case "ctrl+r":
		m.hideReasoning = !m.hideReasoning
		m.notice = "Reasoning blocks shown."
		if m.hideReasoning {
			m.notice = "Reasoning blocks hidden."
		}
	case "ctrl+o":
		m.tools = m.tools.Next()
		m.notice = [...]string{"Tool and context cards collapsed.",
			"Tool and context cards expanded.", "Tool cards hidden."}[m.tools]
	case "pgup":
		m.scrollUp(m.windowHeight())
	case "pgdown":
		m.scrollDown(m.windowHeight())
	case "home":
		m.follow, m.top = false, anchor{}
	case "end":
		m.follow = true
	}
	return nil
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	v := tea.NewView(strings.Join(m.Screen(), "\n"))
	v.AltScreen = true
	return v
}

// Settings returns the settings the view renders with now.
func (m *Model) Settings() Settings {
	return Settings{Width: max(m.width, 1), Scheme: m.scheme, HideReasoning: m.hideReasoning,
		Tools: m.tools, Now: m.clock(), Location: m.cfg.Location,
		Presenters: m.cfg.Presenters, MaxToolOutputLines: m.cfg.MaxToolOutputLines}
}

// Transcript returns the transcript the view shows: the replayed one until
// the first live event, the live projector's after.
func (m *Model) Transcript() transcript.Transcript { return m.t }

// Document renders the full transcript document at the current settings.
func (m *Model) Document() Document {
	return Document{Width: max(m.width, 1), Lines: slices.Collect(m.DocumentRows())}
}

// DocumentRows renders the full transcript document at the current
// settings, as Document does, and yields its rows one by one without
// collecting them: a long document's row list is itself megabytes. Nor
// does it keep them: items are rendered a batch at a time (on several
// goroutines) and dropped once yielded, so reading a document costs memory
// for a batch, not for the document; the model's cache keeps only what
// the screen shows. The model must not be updated while the rows are
// read.
func (m *Model) DocumentRows() iter.Seq[string] {
	return func(yield func(string) bool) {
		v := m.newViewport(m.Settings())
		for start, end := 0, 0; start < v.n; start = end {
			end = batchEnd(m.t.Items, start, v.n)
			batch := v.renderBatch(start, end)
			for k, rows := range batch {
				// An item's rows go once read, before its last row is
				// yielded: a reader in step with another document (repro)
				// waits there while the other renders its next item, and
				// the rows of a text of megabytes are megabytes.
				batch[k] = nil
				for j := 0; j < len(rows); j++ {
					row := rows[j]
					if j == len(rows)-1 {
						rows = nil
					}
					if !yield(row) {
						return
					}
				}
			}
		}
	}
}

func (m *Model) windowHeight() int { return max(m.height-2, 0) }

// Screen returns exactly Height styled rows: the header, the transcript
// window and the status line, each padded or truncated to the width.
func (m *Model) Screen() []string {
	if m.height <= 0 {
		return nil
	}
	v := m.newViewport(m.Settings())
	if m.height == 1 {
		return []string{m.status(v)}
	}
	out := make([]string, 0, m.height)
	out = append(out, m.headerRow(v))
	out = append(out, m.window(v, m.windowHeight())...)
	return append(out, m.status(v))
}

func (m *Model) headerRow(v *viewport) string {
	l := display.Line{{Text: "dshtest", Style: display.Style{Fg: display.FgAccent, Attrs: display.Bold}},
		{Text: " · " + display.EscapeInline(m.cfg.SessionID), Style: dimSty}}
	return v.r.pal.Padded(display.TruncateLine(l, v.s.Width), v.s.Width, plain)
}

func (m *Model) status(v *viewport) string {
	var b strings.Builder
	b.WriteString(display.EscapeInline(m.cfg.SessionID))
	if m.statusText != "" {
		b.WriteString(" · ")
		b.WriteString(display.EscapeInline(m.statusText))
	}
	b.WriteString(" · ")
	b.WriteString(words.Plural(m.events, "event"))
	b.WriteString(" · ")
	b.WriteString(words.Plural(len(m.markers), "compaction"))
	b.WriteString(" · tools ")
	b.WriteString(m.tools.String())
	b.WriteString(" · reasoning ")
	b.WriteString(display.ReasoningName(!m.hideReasoning))
	l := display.Line{{Text: b.String(), Style: dimSty}}
	if m.notice != "" {
		l = append(l, display.Span{Text: " · ", Style: dimSty}, display.Span{Text: m.notice, Style: plain})
	}
	return v.r.pal.Padded(display.TruncateLine(l, v.s.Width), v.s.Width, plain)
}

// window returns h transcript rows: the tail, or the rows from the scroll
// anchor. A transcript shorter than h is top-aligned.
func (m *Model) window(v *viewport, h int) []string {
	if h == 0 {
		return nil
	}
	if !m.follow {
		a := m.top
		if a.item >= v.n {
			a = anchor{}
		}
		var rows []string
		for i := a.item; i < v.n && len(rows) < h+a.off; i++ {
			rows = append(rows, v.rows(i)...)
		}
		if len(rows) >= h+a.off {
			return rows[a.off : a.off+h]
		}
		if a.item == 0 && a.off == 0 {
			return pad(rows, h)
		}
		// Fewer than h rows below the anchor (the document shrank): show
		// the tail.
	}
	a := m.tailAnchor(v, h)
	rows := make([]string, 0, h+a.off)
	for i := a.item; i < v.n; i++ {
		rows = append(rows, v.rows(i)...)
	}
	return pad(rows[a.off:], h)
}

func pad(rows []string, h int) []string {
	for len(rows) < h {
		rows = append(rows, "")
	}
	return rows
}

// tailAnchor is the position of the first row of the tail window.
func (m *Model) tailAnchor(v *viewport, h int) anchor {
	need := h
	for i := v.n - 1; i >= 0; i-- {
		n := len(v.rows(i))
		if n >= need {
			return anchor{item: i, off: n - need}
		}
		need -= n
	}
	return anchor{}
}

func (m *Model) scrollUp(h int) {
	v := m.newViewport(m.Settings())
	a := m.top
	if m.follow {
		a = m.tailAnchor(v, h)
	}
	a.item = min(a.item, v.n-1)
	a.off -= h
	for a.off < 0 && a.item > 0 {
		a.item--
		a.off += len(v.rows(a.item))
	}
	if a.off < 0 {
		a = anchor{}
	}
	m.follow, m.top = false, a
}

func (m *Model) scrollDown(h int) {
	if m.follow {
		return
	}
	v := m.newViewport(m.Settings())
	a := m.top
	a.off += h
	for a.item < v.n && a.off >= len(v.rows(a.item)) {
		a.off -= len(v.rows(a.item))
		a.item++
	}
	m.top = a
	// Reaching the tail follows it again.
	rest := -a.off
	for i := a.item; i < v.n && rest <= h; i++ {
		rest += len(v.rows(i))
	}
	if rest <= h {
		m.follow = true
	}
}

// viewport renders items through the model's cache under fixed settings.
type viewport struct {
	m *Model
	s Settings
	r *renderer
	n int // items plus the compaction indicator pseudo-item
}

func (m *Model) newViewport(s Settings) *viewport {
	return &viewport{m: m, s: s, r: newRenderer(s), n: len(m.t.Items) + 1}
}

// rows returns item i's rows, from the cache when nothing they depend on
// changed.
func (v *viewport) rows(i int) []string {
	m := v.m
	if i == len(m.t.Items) {
		if m.t.Progress == nil {
			return nil
		}
		return v.r.progress(m.t.Progress)
	}
	key := v.key(i)
	if c := m.cache[m.t.Items[i].ID]; c != nil && c.key == key {
		return c.rows
	}
	rows, rendered := v.render(v.r, i, key)
	v.store(i, key, rows, rendered)
	return rows
}

// key is everything item i's rows depend on besides the item.
func (v *viewport) key(i int) cacheKey {
	m := v.m
	it := &m.t.Items[i]
	key := cacheKey{rev: it.Rev, width: v.s.Width, scheme: v.s.Scheme,
		hideReasoning: v.s.HideReasoning, tools: v.s.Tools}
	switch it.Kind {
	case transcript.KindStep:
		if v.s.Tools == display.ToolsHidden {
			key.cont = m.stepIdx().isCont(m.t.Items, i, !v.s.HideReasoning)
		}
	case transcript.KindFooter:
		if it.Footer != nil && footerOpen(it.Footer) {
			key.now = v.s.Now
		}
	}
	return key
}

// render returns item i's rows under key with r: from the shared RowCache
// if it holds them, else rendered (and shared, if the transcript is a
// replay). It reads the model and writes nothing of it, so several may run
// at once, each with its own renderer.
func (v *viewport) render(r *renderer, i int, key cacheKey) (rows []string, rendered bool) {
	m := v.m
	it := &m.t.Items[i]
	var shared rowKey
	if rc := m.cfg.Rows; rc != nil {
		shared = newRowKey(v.s, key)
		if rows, ok := rc.get(shared, it, m.liveView); ok {
			return rows, false
		}
	}
	rows = r.item(it, key.cont)
	if rc := m.cfg.Rows; rc != nil && !m.liveView {
		rc.put(shared, it, rows)
	}
	return rows, true
}

// store caches item i's rows under key.
func (v *viewport) store(i int, key cacheKey, rows []string, rendered bool) {
	if rendered {
		v.m.misses++
	}
	v.m.cache[v.m.t.Items[i].ID] = &cachedRows{key: key, rows: rows}
}

// renderBatch returns the rows of items [from, to): cached rows where the
// cache holds them under the current key, else rendered (on up to
// GOMAXPROCS goroutines when enough are stale to be worth it), without
// storing them in the model's cache. The output is the same either way: an
// item's rows are a function of the item and its key.
func (v *viewport) renderBatch(from, to int) [][]string {
	m := v.m
	out := make([][]string, to-from)
	type job struct {
		i    int32
		done bool
		key  cacheKey
	}
	// Keys are worked out here, on the model's goroutine: the step index
	// memoises as it goes.
	var jobs []job
	for i := from; i < to; i++ {
		if i == len(m.t.Items) {
			out[i-from] = v.rows(i) // the progress pseudo-item
			continue
		}
		key := v.key(i)
		if c := m.cache[m.t.Items[i].ID]; c != nil && c.key == key {
			out[i-from] = c.rows
			continue
		}
		jobs = append(jobs, job{i: int32(i), key: key})
	}
	renderEach(len(jobs), v.s, v.r, func(r *renderer, k int) {
		j := &jobs[k]
		out[int(j.i)-from], j.done = v.render(r, int(j.i), j.key)
	})
	for _, j := range jobs {
		if j.done {
			m.misses++
		}
	}
	return out
}

func (m *Model) stepIdx() *stepIndex {
	if m.steps == nil {
		m.steps = newStepIndex(m.t.Items)
	}
	return m.steps
}
