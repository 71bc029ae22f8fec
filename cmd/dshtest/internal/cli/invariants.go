package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/projection"
	"github.com/dshtest/dshtest/projection/terminal"
)

// Invariant names, as repro prints them and --minimize takes them.
const (
	invLiveReplay = "live-replay"
	invNoLoss     = "no-lost-message"
	invOneMarker  = "one-marker"
	invNoPayload  = "no-payload"
	invHistory    = "history-pages"
)

// invariantNames lists every invariant in report order.
var invariantNames = []string{invLiveReplay, invNoLoss, invOneMarker, invNoPayload, invHistory}

// invariantDoc says what each invariant checks, for help and reports.
var invariantDoc = map[string]string{
	invLiveReplay: "live ≡ replay: a terminal fed the events one by one shows exactly what one mounted on the stored log shows (whole document and screen, at every size)",
	invNoLoss:     "no append-origin message lost: every non-empty prompt and assistant text in the log shows in the transcript",
	invOneMarker:  "one compaction marker per landed checkpoint",
	invNoPayload:  "no checkpoint payload (preamble or summary) shown",
	invHistory:    "session.history pages are contiguous and cover the log, each compaction summary is on its checkpoint's page, and each page projects one marker per checkpoint on it",
}

// size is a terminal size.
type size struct{ W, H int }

func (s size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// checker renders a log both ways at each size and checks the invariants.
type checker struct {
	events    []projection.Event
	sizes     []size
	opts      projection.TranscriptOptions
	proj      terminal.Projection
	windows   windowsFunc // projects history pages with proj
	sessionID string
	now       int64
	// maxLines is the card fold limit (0: the default).
	maxLines int
	// quick skips work that only refines a failure's detail (bisecting
	// for the first diverging event).
	quick bool

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
	reread func(yield func(*projection.Event) bool) error
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

// expected returns expectedTexts(c.events), computed once.
func (c *checker) expected() []shownText {
	if !c.shownDone {
		c.shown, c.shownDone = expectedTexts(c.events), true
	}
	return c.shown
}

// result is one invariant's verdict.
type result struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func newChecker(events []projection.Event, sizes []size, opts projection.TranscriptOptions, proj terminal.Projection, sessionID string) *checker {
	windows := windowsFunc(projection.ProjectWindows)
	if proj.Replay != nil {
		windows = eachWindow(proj.Replay)
	}
	return &checker{events: events, sizes: sizes, opts: opts, proj: proj, windows: windows, sessionID: sessionID, now: frozenNow(events)}
}

func (c *checker) model(log []projection.Event, sz size) *terminal.Model {
	return c.sharedModel(log, sz, nil)
}

// sharedModel is model with a RowCache shared with other models.
func (c *checker) sharedModel(log []projection.Event, sz size, rows *terminal.RowCache) *terminal.Model {
	return terminal.New(c.config(log, sz, rows, false))
}

func (c *checker) config(log []projection.Event, sz size, rows *terminal.RowCache, replayOnly bool) terminal.Config {
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

		MaxToolOutputLines: c.maxLines,
	}
}

// replay renders the stored log mounted at once.
func (c *checker) replay(events []projection.Event, sz size) (doc, scr []string) {
	m := c.model(events, sz)
	return m.Document().Lines, m.Screen()
}

// live renders a terminal mounted on an empty log that is fed every event.
func (c *checker) live(events []projection.Event, sz size) (doc, scr []string) {
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
func (c *checker) render() {
	defer func() {
		if p := recover(); p != nil {
			c.renderPanic = fmt.Sprint(p)
		}
	}()
	c.sized = make([]sizeResult, len(c.sizes))
	rows := terminal.NewRowCache()
	var live *terminal.Model
	var replay *terminal.Model
	if c.reread == nil {
		wait := goCatch(func() {
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
	if c.reread != nil {
		// Everything the documents are checked against is derived now: let
		// the log go (the replay model keeps none of it) and feed the live
		// model from the file as it is read again, so the log's events and
		// both transcripts are never in memory at once.
		n := len(c.events)
		c.events = nil
		live = c.sharedModel(nil, c.sizes[0], rows)
		fed := 0
		err := c.pipeline(n, func(e *projection.Event) {
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
		search = goCatch(func() { c.sized[i] = searchSize(diff, replayNorm, liveNorm, in) })
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
func (c *checker) pipeline(n int, feed func(*projection.Event)) error {
	const batch = 256
	batches := make(chan []projection.Event, 4)
	stop := make(chan struct{}) // closed when feeding ends, even by a panic
	var err error
	wait := goCatch(func() {
		defer close(batches)
		send := func(b []projection.Event) bool {
			select {
			case batches <- b:
				return true
			case <-stop:
				return false
			}
		}
		b := make([]projection.Event, 0, batch)
		read := 0
		err = c.reread(func(e *projection.Event) bool {
			b = append(b, *e)
			if read++; len(b) == batch {
				if !send(b) {
					return false
				}
				b = make([]projection.Event, 0, batch)
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

// goCatch runs f in a goroutine and returns a function that waits for it
// and re-raises its panic, if any, in the caller.
func goCatch(f func()) (wait func()) {
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

// checkAll runs every invariant, the history pages alongside the
// rendering, which they do not need.
func (c *checker) checkAll() []result {
	var hist result
	events := c.events // render may drop c.events while the pages are checked
	wait := goCatch(func() {
		hist = guard(invHistory, func() (bool, string) { return c.checkHistory(events) })
	})
	var out []result
	for _, name := range invariantNames {
		if name == invHistory {
			wait()
			out = append(out, hist)
			continue
		}
		out = append(out, c.check(name))
	}
	return out
}

// check runs one invariant.
func (c *checker) check(name string) result {
	return guard(name, func() (bool, string) {
		if name != invHistory {
			if c.sized == nil {
				c.render()
			}
			if c.renderPanic != "" {
				return false, "panic: " + c.renderPanic
			}
		}
		switch name {
		case invLiveReplay:
			return c.checkLiveReplay()
		case invNoLoss:
			return c.checkNoLoss()
		case invOneMarker:
			return c.checkMarkers()
		case invNoPayload:
			return c.checkNoPayload()
		case invHistory:
			return c.checkHistory(c.events)
		}
		return false, "unknown invariant"
	})
}

// guard runs an invariant's check; a panic in the renderer or projection
// is a failure of that invariant, reported with its message.
func guard(name string, check func() (bool, string)) (r result) {
	r.Name = name
	defer func() {
		if p := recover(); p != nil {
			r.OK, r.Detail = false, fmt.Sprintf("panic: %v", p)
		}
	}()
	r.OK, r.Detail = check()
	return r
}

func (c *checker) checkLiveReplay() (bool, string) {
	var bad []string
	for i, sz := range c.sizes {
		what := c.sized[i].liveReplay
		if what == "" {
			continue
		}
		if !c.quick {
			if seq, ok := c.divergence(sz); ok {
				what += fmt.Sprintf("; first diverging event seq %d", seq)
			}
		}
		bad = append(bad, fmt.Sprintf("%s: %s", sz, what))
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; ")
	}
	return true, fmt.Sprintf("document and screen identical at %s", sizesString(c.sizes))
}

// divergence bisects over log prefixes for the first event after which
// live and replay differ at sz (assuming they agree on the empty prefix).
func (c *checker) divergence(sz size) (int64, bool) {
	events := c.events
	if events == nil && c.reread != nil {
		_ = c.reread(func(e *projection.Event) bool {
			events = append(events, *e)
			return true
		})
	}
	if len(events) == 0 {
		return 0, false
	}
	differ := func(n int) bool {
		d1, s1 := c.replay(events[:n], sz)
		d2, s2 := c.live(events[:n], sz)
		return !slices.Equal(d1, d2) || !slices.Equal(s1, s2)
	}
	lo, hi := 0, len(events) // differ(hi) holds; find the smallest such n
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if differ(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return events[hi-1].Seq, true
}

func firstDiff(a, b []string) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return rowDiff(i, x, y)
		}
	}
	return "same rows"
}

// rowDiff says how row i differs: replay x, live y.
func rowDiff(i int, x, y string) string {
	p := plainLines([]string{x, y})
	if p[0] == p[1] {
		return fmt.Sprintf("row %d differs in style (%s)", i, preview(p[0], 40))
	}
	return fmt.Sprintf("row %d: replay %s, live %s", i, preview(p[0], 40), preview(p[1], 40))
}

func sizesString(sizes []size) string {
	s := make([]string, len(sizes))
	for i, sz := range sizes {
		s[i] = sz.String()
	}
	return strings.Join(s, ", ")
}

// shownText is a message text the transcript must show.
type shownText struct {
	seq  int64
	kind string // "prompt" or "assistant"
	text string
}

// expectedTexts lists the append-origin prompts and assistant texts of the
// log that the transcript must show: every human prompt (and older logs'
// steering message) with non-empty text, and every assistant/message with
// non-empty text, except the steps the renderer removes by rule
// (terminal.md §2.6: an llm/retry removes the failed step, a turn/end
// removes a step still open).
func expectedTexts(events []projection.Event) []shownText {
	var out []shownText
	removed := map[int64]bool{}
	current, lastDone := int64(-1), int64(-1)
	for i := range events {
		e := &events[i]
		switch e.Type {
		case projection.TypeStepStart:
			lastDone = -1
		case projection.TypeStepEnd:
			lastDone, current = current, -1
		case projection.TypeLLMRetry:
			switch {
			case current >= 0:
				removed[current] = true
			case lastDone >= 0:
				removed[lastDone] = true
			}
			current, lastDone = -1, -1
		case projection.TypeTurnEnd:
			if current >= 0 {
				removed[current] = true
			}
			current, lastDone = -1, -1
		}
		if !projection.IsAppendSurfaceEvent(e) {
			continue
		}
		switch e.Type {
		case projection.TypeUserMessage:
			if !isHumanPrompt(e) {
				continue
			}
			var m projection.Message
			if json.Unmarshal(e.Data, &m) == nil {
				if t := projection.TrimJS(projection.ContentText(m.Content)); t != "" {
					out = append(out, shownText{e.Seq, "prompt", t})
				}
			}
		case projection.TypeSteeringMessage:
			var d projection.SteeringMessageData
			if json.Unmarshal(e.Data, &d) == nil {
				if t := projection.TrimJS(projection.ContentText(d.Message.Content)); t != "" {
					out = append(out, shownText{e.Seq, "prompt", t})
				}
			}
		case projection.TypeAssistantMessage:
			current = e.Seq
			var d projection.AssistantMessageData
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			var parts []string
			for _, b := range d.Message.Content {
				if b.Type == "text" {
					parts = append(parts, b.Text)
				}
			}
			if t := projection.TrimJS(strings.Join(parts, "\n\n")); t != "" {
				out = append(out, shownText{e.Seq, "assistant", t})
			}
		}
	}
	kept := out[:0]
	for _, s := range out {
		if !removed[s.seq] {
			kept = append(kept, s)
		}
	}
	return kept
}

// norm reduces text to its letters and digits after the renderer's control
// escape, so that a text can be found in a rendered document whatever the
// wrapping, padding and Markdown styling.
func norm(s string) string {
	var b strings.Builder
	for _, r := range escapeControls(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docNorm is norm over a whole rendered document.
func docNorm(lines []string) string {
	var b []byte
	for _, l := range lines {
		b = appendRowNorm(b, l)
	}
	return string(b)
}

// appendRowNorm appends the letters and digits of a styled row, its SGR
// sequences (ESC [ params m) skipped. A row with any other escape, or a
// byte or rune that may start one (C1 controls, invalid UTF-8), goes
// through ansi.Strip.
func appendRowNorm(b []byte, row string) []byte {
	start := len(b)
	for i := 0; i < len(row); {
		c := row[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j < len(row) && row[j] == '[' {
				j++
				for j < len(row) && (row[j] >= '0' && row[j] <= '9' || row[j] == ';' || row[j] == ':') {
					j++
				}
				if j < len(row) && row[j] == 'm' {
					i = j + 1
					continue
				}
			}
			return appendNormRunes(b[:start], ansi.Strip(row))
		case c < 0x80:
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				b = append(b, c)
			}
			i++
		default:
			r, n := utf8.DecodeRuneInString(row[i:])
			if r == utf8.RuneError && n == 1 || r >= 0x80 && r <= 0x9f {
				// A C1 control, raw or encoded, may start an escape.
				return appendNormRunes(b[:start], ansi.Strip(row))
			}
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b = utf8.AppendRune(b, r)
			}
			i += n
		}
	}
	return b
}

// appendNormRunes appends the letters and digits of s.
func appendNormRunes(b []byte, s string) []byte {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// textNorms are the norms of the log's expected texts, in log order, and
// how many times each must show.
type textNorms struct {
	norms []string
	need  map[string]int
}

func (c *checker) textNorms() *textNorms {
	want := c.expected()
	t := &textNorms{norms: make([]string, len(want)), need: map[string]int{}}
	for i, w := range want {
		t.norms[i] = norm(w.text)
		t.need[t.norms[i]]++
	}
	return t
}

func (c *checker) checkNoLoss() (bool, string) {
	want := c.expected()
	var prompts, assistant int
	for _, w := range want {
		if w.kind == "prompt" {
			prompts++
		} else {
			assistant++
		}
	}
	var missing []string
	for _, w := range want {
		n := norm(w.text)
		if n == "" {
			continue
		}
		var at []string
		for i, sz := range c.sizes {
			if c.sized[i].lacking[n] {
				at = append(at, sz.String())
			}
		}
		if len(at) > 0 {
			missing = append(missing, fmt.Sprintf("seq %d %s %s (at %s)", w.seq, w.kind, preview(w.text, 40), strings.Join(at, ", ")))
		}
	}
	if len(missing) > 0 {
		n := len(missing)
		if n > 4 {
			missing = append(missing[:4], fmt.Sprintf("%d more", n-4))
		}
		return false, fmt.Sprintf("%d of %d texts missing: %s", n, len(want), strings.Join(missing, "; "))
	}
	return true, fmt.Sprintf("%s and %s shown at every size", plural(prompts, "prompt"), plural(assistant, "assistant text"))
}

// countsBelow returns the non-empty texts of texts that doc holds fewer
// than need[text] times (strings.Count, non-overlapping), as a set.
//
// It finds the texts in one pass: a transcript shows them in log order,
// one after another, so each is searched from just past the previous
// find, which costs O(len(doc)) for all of them together. A text found
// need[text] times that way is in the doc at least that often (the finds
// do not overlap); only a text the pass does not find often enough is
// counted over the whole doc, so the verdict is the same as counting every
// text, which would cost O(len(texts) × len(doc)).
func countsBelow(doc string, texts []string, need map[string]int) map[string]bool {
	found := make(map[string]int, len(need))
	at := 0
	for _, n := range texts {
		if n == "" {
			continue
		}
		if i := strings.Index(doc[at:], n); i >= 0 {
			found[n]++
			at += i + len(n)
		}
	}
	below := map[string]bool{}
	for n, k := range need {
		if n != "" && found[n] < k && strings.Count(doc, n) < k {
			below[n] = true
		}
	}
	return below
}

// checkpoints returns the log's landed checkpoints.
func checkpoints(events []projection.Event) []*projection.Event {
	var out []*projection.Event
	for i := range events {
		if projection.IsCheckpoint(&events[i]) {
			out = append(out, &events[i])
		}
	}
	return out
}

// countMarkers counts the marker rows of a document (its docNorm),
// however the marker wrapped, less quoted: the times conversation text
// itself says the same words.
func countMarkers(doc string, quoted int) int {
	return strings.Count(doc, norm(projection.MarkerText)) - quoted
}

// quotedMarkers counts the marker's words in the texts a transcript shows.
func quotedMarkers(shown []shownText) int {
	m, n := norm(projection.MarkerText), 0
	for _, s := range shown {
		n += strings.Count(norm(s.text), m)
	}
	return n
}

func (c *checker) checkMarkers() (bool, string) {
	want := len(c.checkpointSeqs)
	var bad []string
	for i, sz := range c.sizes {
		r, l := c.sized[i].replayMarkers, c.sized[i].liveMarkers
		if r != want || l != want {
			bad = append(bad, fmt.Sprintf("%s: replay %d, live %d", sz, r, l))
		}
	}
	if len(bad) > 0 {
		return false, fmt.Sprintf("want %s for %s; %s", plural(want, "marker"), plural(want, "landed checkpoint"), strings.Join(bad, "; "))
	}
	return true, fmt.Sprintf("%s for %s", plural(want, "marker"), plural(want, "landed checkpoint"))
}

// payloadTexts returns the normalised pieces of a checkpoint's payload
// that must never show: the whole content, the preamble, and every text
// block and line long enough to be telling (payloadMin letters and
// digits), unless the log shows the same text as conversation (a summary
// may quote a prompt). conversation holds the norms of the log's expected
// texts.
func payloadTexts(conversation map[string]bool, cp *projection.Event) []string {
	var m projection.Message
	if json.Unmarshal(cp.Data, &m) != nil {
		return nil
	}
	var out []string
	add := func(s string) {
		n := norm(s)
		if len(n) >= payloadMin && !conversation[n] && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	add(projection.ContentText(m.Content))
	for _, b := range m.Content {
		if b.Type == "text" {
			if strings.Contains(b.Text, projection.CheckpointPreamble) {
				add(projection.CheckpointPreamble)
			}
			add(b.Text)
			// A renderer may drop a frame (<tag>…</tag>) around the text:
			// each telling line on its own must not show either.
			for _, l := range strings.Split(b.Text, "\n") {
				add(l)
			}
		}
	}
	return out
}

// payloads finds the payload pieces of the log's checkpoints in a
// document: owner[p] is the index (among checkpoints(c.events)) of the
// checkpoint piece p belongs to.
type payloads struct {
	*pieceFinder
	owner []int
}

func (c *checker) payloadFinder() *payloads {
	conversation := map[string]bool{}
	for _, w := range c.expected() {
		conversation[norm(w.text)] = true
	}
	var pieces []string
	var owner []int
	for k, cp := range checkpoints(c.events) {
		for _, p := range payloadTexts(conversation, cp) {
			pieces = append(pieces, p)
			owner = append(owner, k)
		}
	}
	return &payloads{newPieceFinder(pieces, payloadMin), owner}
}

func (c *checker) checkNoPayload() (bool, string) {
	var bad []string
	for k, seq := range c.checkpointSeqs {
		for i, sz := range c.sizes {
			if c.sized[i].payload[k] {
				bad = append(bad, fmt.Sprintf("checkpoint seq %d shown at %s", seq, sz))
			}
		}
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; ")
	}
	return true, fmt.Sprintf("no payload of %s shown", plural(len(c.checkpointSeqs), "checkpoint"))
}

// historyMaxes are the page sizes history-pages walks the log with.
var historyMaxes = []int{1, 2, 3, 5, 50}

// summarySeq returns the seq of the compaction summary a checkpoint cites.
func summarySeq(events []projection.Event, cp *projection.Event) (int64, bool) {
	seqs, _ := cp.Sources()
	for _, s := range seqs {
		if s >= 0 && s < int64(len(events)) && projection.Canonical(events[s].Type) == projection.TypeCompactionSummary {
			return s, true
		}
	}
	return 0, false
}

func (c *checker) checkHistory(events []projection.Event) (bool, string) {
	h := projection.NewHistory(events)
	cps := checkpoints(events)
	n := int64(len(events))
	// Every page of every page size, and what it must project.
	type page struct {
		max, from, to int64
		checkpoints   int
	}
	var pages []page
	var windows []projection.Window
	var pageCounts []string
	for _, mx := range historyMaxes {
		before := int64(-1)
		next := n // the seq the next (older) page must end just before
		var walked []projection.Page
		for {
			p := h.Page(before, mx)
			if len(p.Events) == 0 {
				return false, fmt.Sprintf("max %d: empty page before seq %d", mx, next)
			}
			if p.To+1 != next {
				return false, fmt.Sprintf("max %d: page %d–%d does not end just before seq %d", mx, p.From, p.To, next)
			}
			for i := range p.Events {
				if p.Events[i].Seq != p.From+int64(i) {
					return false, fmt.Sprintf("max %d: page %d–%d is not one contiguous range", mx, p.From, p.To)
				}
			}
			walked = append(walked, p)
			if !p.HasMore {
				if p.From != 0 {
					return false, fmt.Sprintf("max %d: last page starts at seq %d, not 0", mx, p.From)
				}
				break
			}
			if int64(len(walked)) > n {
				return false, fmt.Sprintf("max %d: paging does not end", mx)
			}
			before, next = p.From, p.From
		}
		for _, cp := range cps {
			ss, ok := summarySeq(events, cp)
			if !ok {
				continue
			}
			for _, p := range walked {
				if cp.Seq >= p.From && cp.Seq <= p.To && (ss < p.From || ss > p.To) {
					return false, fmt.Sprintf("max %d: summary seq %d is not on the page %d–%d of its checkpoint seq %d", mx, ss, p.From, p.To, cp.Seq)
				}
			}
		}
		for _, p := range walked {
			start := indexOf(events, p.From)
			pages = append(pages, page{int64(mx), p.From, p.To, len(checkpoints(p.Events))})
			windows = append(windows, projection.Window{Start: start, End: start + len(p.Events)})
		}
		pageCounts = append(pageCounts, fmt.Sprintf("%d", len(walked)))
	}
	// Project every page in one pass (each event decoded once, however
	// many pages hold it); report the first page, in walk order, whose
	// markers do not match its checkpoints.
	bad := -1
	var got int
	for k, t := range c.windows(events, windows, c.opts) {
		markers := 0
		for _, it := range t.Items {
			if it.Kind == projection.KindMarker {
				markers++
			}
		}
		if markers != pages[k].checkpoints && (bad < 0 || k < bad) {
			bad, got = k, markers
		}
	}
	if bad >= 0 {
		p := pages[bad]
		return false, fmt.Sprintf("max %d: page %d–%d projects %s for %s", p.max, p.from, p.to, plural(got, "marker"), plural(p.checkpoints, "checkpoint"))
	}
	maxes := make([]string, len(historyMaxes))
	for i, m := range historyMaxes {
		maxes[i] = fmt.Sprint(m)
	}
	cited := 0
	for _, cp := range cps {
		if _, ok := summarySeq(events, cp); ok {
			cited++
		}
	}
	return true, fmt.Sprintf("%s pages at max %s, contiguous; %d of %s with its summary on its page",
		strings.Join(pageCounts, "/"), strings.Join(maxes, "/"), cited, plural(len(cps), "checkpoint"))
}

// indexOf returns the index in events of the event with the given seq (the
// log is in seq order).
func indexOf(events []projection.Event, seq int64) int {
	i, _ := slices.BinarySearchFunc(events, seq, func(e projection.Event, s int64) int { return cmp.Compare(e.Seq, s) })
	return i
}

// windowsFunc projects windows of a log: projection.ProjectWindows, or a
// Replay seam's projection of each window on its own.
type windowsFunc func([]projection.Event, []projection.Window, projection.TranscriptOptions) iter.Seq2[int, projection.Transcript]

// eachWindow projects every window with replay, one by one.
func eachWindow(replay func([]projection.Event, projection.TranscriptOptions) projection.Transcript) windowsFunc {
	return func(events []projection.Event, windows []projection.Window, opts projection.TranscriptOptions) iter.Seq2[int, projection.Transcript] {
		return func(yield func(int, projection.Transcript) bool) {
			for k, w := range windows {
				if !yield(k, replay(events[w.Start:w.End], opts)) {
					return
				}
			}
		}
	}
}

// plural formats a count with a noun, adding "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
