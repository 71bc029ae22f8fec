package transcript

import (
	"encoding/json"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file holds the whole-log projection (the terminal's replay path,
// terminal.md §1.1 as amended by §11) and the per-event helpers it shares with
// the incremental projector in projector.go: decoding an event into what it
// means for the transcript, the timing buckets, chunk streaming, compaction
// summaries and the standalone-compaction progress.
//
// The two paths share those helpers because their logic is the same. They do
// not share the structural work (which item is current, where a footer moves,
// what a retry removes): Project records placements in an append-only slot
// list with tombstones and settles footers and in-flight steps once at the
// end, while the Projector edits an indexed item list in place and reports
// what changed. The live≡replay tests compare the two after every prefix of
// every log.

// Project projects a log, or any contiguous window of one (a history page),
// into the human transcript. It is the replay path: it never fails, the
// window may start at any seq, and a checkpoint whose shadowed range lies
// before the window is just a marker.
//
// Replacement surface events render nothing except one marker per landed
// checkpoint. A tool/call renders only when an append-origin assistant/message
// earlier in events advertised its callId (see ToolCallIDs). Chunks
// create a step block but their content is shown only while the block is
// unsettled: a step still streaming at the end of events (or one that never
// settled) shows exactly what its chunks streamed, as the live path did.
func Project(events []sessionlog.Event, opts Options) Transcript {
	r := newTrReplay(opts)
	for i := range events {
		r.apply(&events[i])
	}
	return r.finish()
}

// Replay is Project fed one event at a time, for a log read as a stream:
// after a log's events, in order, its Transcript is Project's over them.
// It keeps no event, only the payloads of the chunks of a step that has not
// settled yet (Project shows what they streamed), so a long log can be
// projected as it is read without holding it.
type Replay struct {
	r *trReplay
}

// NewReplay returns an empty replay.
func NewReplay(opts Options) *Replay { return &Replay{r: newTrReplay(opts)} }

// Apply projects the next event. Its payloads (Data) must stay valid until
// Transcript is called; the event itself need not.
func (r *Replay) Apply(e *sessionlog.Event) { r.r.apply(e) }

// Transcript ends the replay and returns the transcript of the events
// applied. Neither Apply nor Transcript may be called after it.
func (r *Replay) Transcript() Transcript { return r.r.finish() }

func newTrReplay(opts Options) *trReplay {
	return &trReplay{
		opts:      opts,
		cards:     map[string]int{},
		shells:    map[string]int{},
		advert:    map[string]struct{}{},
		summaries: trSummaries{},
	}
}

// trReplayStep is a step block and its footer: their slots.
type trReplayStep struct {
	block, footer int
	// chunks are the payloads of the chunk events fed to the block while
	// it is unsettled; they are replayed into it at the end if it never
	// settles.
	chunks []json.RawMessage
}

// trReplay is the replay path's state. Items are placed in slots in order;
// moving an item tombstones its old slot (Kind 0) and appends it anew,
// removing it tombstones its slot. The transcript is the live slots in
// order.
type trReplay struct {
	opts     Options
	slots    trSlots
	current  *trReplayStep
	lastDone *trReplayStep
	// streamed are the steps fed chunks that may end unsettled.
	streamed  []*trReplayStep
	cards     map[string]int // tool cards awaiting their result, by call id: their slots
	shells    map[string]int // unsettled Shell cards by id: their slots
	advert    map[string]struct{}
	summaries trSummaries
	timing    trTimingTable
	progress  trProgress
}

// trSlotRun is how many slots a run of trSlots holds.
const trSlotRun = 256

// trSlots is the replay's slot list: items in runs of trSlotRun, so that
// the list grows without copying what it holds (a slice of items, 104
// bytes each, grown by append would allocate about five times its final
// size on a long log), and items has the live ones in order with
// what it has copied let go of.
type trSlots struct {
	runs []*[trSlotRun]Item
	n    int // slots
	live int // slots not tombstoned
}

func (ss *trSlots) at(i int) *Item { return &ss.runs[i/trSlotRun][i%trSlotRun] }

func (ss *trSlots) add(item Item) int {
	if ss.n%trSlotRun == 0 {
		ss.runs = append(ss.runs, new([trSlotRun]Item))
	}
	*ss.at(ss.n) = item
	ss.n++
	ss.live++
	return ss.n - 1
}

func (ss *trSlots) remove(i int) {
	if it := ss.at(i); it.Kind != 0 {
		*it = Item{}
		ss.live--
	}
}

// items returns the live items in order, dropping each run once it is
// copied, and empties ss.
func (ss *trSlots) items() []Item {
	var out []Item
	if ss.live > 0 {
		out = make([]Item, 0, ss.live)
	}
	for k, run := range ss.runs {
		for i := range run[:min(trSlotRun, ss.n-k*trSlotRun)] {
			if run[i].Kind != 0 {
				out = append(out, run[i])
			}
		}
		ss.runs[k] = nil
	}
	*ss = trSlots{}
	return out
}

// add places item in a new slot and returns the slot.
func (r *trReplay) add(item Item) int { return r.slots.add(item) }

func (r *trReplay) remove(slot int) { r.slots.remove(slot) }

// moveCurrentFooter moves the current step's footer to the end, after the
// item just added in slot added, and returns that item's slot. Most often
// the footer sits right before it and the two swap, so that a step's tool
// calls leave no tombstones behind.
func (r *trReplay) moveCurrentFooter(added int) int {
	if r.current == nil {
		return added
	}
	f, last := r.current.footer, r.slots.n-1
	switch {
	case f == last:
	case f == last-1 && added == last:
		a, b := r.slots.at(f), r.slots.at(last)
		*a, *b = *b, *a
		r.current.footer, added = last, f
	default:
		r.current.footer = r.add(*r.slots.at(f))
		r.remove(f)
	}
	return added
}

// trStepPair is a step block's payloads, allocated as one: a step block
// never lives without its footer.
type trStepPair struct {
	step   Step
	footer Footer
}

// set makes p the payloads of a new step block of key and of its footer,
// with timing.
func (p *trStepPair) set(key trKey, timing Timing) (*Step, *Footer) {
	p.step = Step{Turn: key.turn, Step: key.step}
	p.footer = Footer{Turn: key.turn, Step: key.step, Timing: timing}
	return &p.step, &p.footer
}

// newStepPair returns the payloads of a new step block of key and of its
// footer, with timing, in one allocation.
func newStepPair(key trKey, timing Timing) (*Step, *Footer) {
	return new(trStepPair).set(key, timing)
}

// trReplayPair is a step's payloads with the replay's handle on it, in one
// allocation.
type trReplayPair struct {
	trStepPair
	handle trReplayStep
}

func (r *trReplay) newStep(seq int64, key trKey) *trReplayStep {
	p := new(trReplayPair)
	step, footer := p.set(key, Timing{}) // the footer's timing is set at the end
	s := &p.handle
	s.block = r.add(Item{ID: ItemID{seq, PartMain}, Kind: KindStep, Step: step})
	s.footer = r.add(Item{ID: ItemID{seq, PartFooter}, Kind: KindFooter, Footer: footer})
	r.current = s
	return s
}

func (r *trReplay) removeStep(s *trReplayStep) {
	r.remove(s.block)
	r.remove(s.footer)
}

// step is s's block's Step.
func (r *trReplay) step(s *trReplayStep) *Step { return r.slots.at(s.block).Step }

func (r *trReplay) apply(e *sessionlog.Event) {
	d := trDecode(e, &r.summaries, true)
	r.opts.Texts.share(&d)
	r.applyDecoded(e, &d)
}

// applyDecoded applies e, decoded as d. It reads d and never writes to it
// or to what it points to, so one decoding may be applied to several
// replays (ProjectWindows). Of e it keeps only a chunk's payload.
func (r *trReplay) applyDecoded(e *sessionlog.Event, d *trDecoded) {
	if d.op == trOpToolCall && !trAdvertised(r.advert, d.call.CallID) {
		return // an orphan call renders nothing and moves no bucket
	}
	r.timing.apply(d, e.Time)
	r.progress.apply(d, e)
	switch d.op {
	case trOpItem:
		r.add(d.item)
	case trOpStepStart:
		r.lastDone = nil
		if r.opts.EagerSteps {
			r.newStep(e.Seq, d.key)
		}
	case trOpChunk:
		if r.current == nil || r.step(r.current).Settled {
			r.newStep(e.Seq, d.key)
		}
		s := r.current
		if s.chunks == nil {
			r.streamed = append(r.streamed, s)
		}
		s.chunks = append(s.chunks, e.Data)
	case trOpMessage:
		trAdvertise(r.advert, d.adverts)
		if r.current == nil || r.step(r.current).Settled {
			r.newStep(e.Seq, d.key)
		}
		s := r.current
		if n := len(r.streamed); n > 0 && r.streamed[n-1] == s {
			r.streamed[n-1] = nil
			r.streamed = r.streamed[:n-1]
		}
		s.chunks = nil
		st := r.step(s)
		st.Settled = true
		st.Blocks = d.blocks
	case trOpStepEnd:
		if r.current == nil {
			r.newStep(e.Seq, d.key)
		}
		f := r.slots.at(r.current.footer).Footer
		f.Completed, f.CompletedAt = true, e.Time
		r.lastDone, r.current = r.current, nil
	case trOpToolCall:
		card := d.call
		r.cards[card.CallID] = r.moveCurrentFooter(r.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard, Tool: &card}))
	case trOpToolResult:
		slot, ok := r.cards[d.result.CallID]
		if ok {
			delete(r.cards, d.result.CallID)
			r.moveCurrentFooter(-1)
		} else {
			slot = r.moveCurrentFooter(r.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard,
				Tool: &ToolCard{CallID: d.result.CallID, Name: "tool", Orphan: true}}))
		}
		d.result.setOn(r.slots.at(slot).Tool)
	case trOpRetry:
		if s := RemovedStep(sessionlog.TypeLLMRetry, r.current, r.lastDone); s != nil {
			r.removeStep(s)
		}
		r.current, r.lastDone = nil, nil
		r.add(d.item)
	case trOpTurnEnd:
		if s := RemovedStep(sessionlog.TypeTurnEnd, r.current, r.lastDone); s != nil {
			r.removeStep(s)
		}
		r.current, r.lastDone = nil, nil
		if d.item.Kind != 0 {
			r.add(d.item)
		}
	case trOpShellStart:
		card := *d.item.Shell
		r.shells[card.ID] = r.add(Item{ID: d.item.ID, Kind: KindShell, Shell: &card})
	case trOpShellDone:
		if slot, ok := r.shells[d.shellID]; ok {
			delete(r.shells, d.shellID)
			settleShell(r.slots.at(slot).Shell, d.shellResult)
		}
	}
}

// finish rebuilds every block that never settled from the chunks it
// streamed, gives every footer its step's final timing and collects the
// live slots.
func (r *trReplay) finish() Transcript {
	for _, s := range r.streamed {
		st := r.slots.at(s.block).Step
		if st == nil || st.Settled || len(s.chunks) == 0 {
			continue // removed, or settled
		}
		var str trStream
		for _, data := range s.chunks {
			if c, ok := trChunk(data); ok {
				str.apply(&c)
			}
		}
		st.Blocks = str.blocks
	}
	t := Transcript{Items: r.slots.items(), Progress: r.progress.get()}
	for i := range t.Items {
		if f := t.Items[i].Footer; f != nil {
			f.Timing = r.timing.get(trKey{f.Turn, f.Step})
		}
	}
	return t
}

// ---------------------------------------------------------------------------
// Shared per-event decoding.

// trOp is what an event means to the transcript.
type trOp uint8

const (
	trOpNone       trOp = iota
	trOpItem            // a standalone item at the event's log position (item)
	trOpStepStart       // step/start (key)
	trOpChunk           // assistant/chunk (key, chunk)
	trOpMessage         // a rendered assistant/message (key, blocks, adverts)
	trOpStepEnd         // step/end (key)
	trOpToolCall        // tool/call (key, call)
	trOpToolResult      // a rendered tool/result (result)
	trOpRetry           // llm/retry (item: its notice)
	trOpTurnEnd         // turn/end (item: its notice, Kind 0 when none)
	trOpShellStart      // tui/user-shell-start (item: its Shell card)
	trOpShellDone       // tui/user-shell-result (shellID, shellResult)
)

// trKey is a step's turn:step, the key of its timing buckets.
type trKey struct{ turn, step int64 }

// trDecoded is an event decoded for the transcript. The standalone-compaction
// fields are set alongside whatever op the event has.
type trDecoded struct {
	op      trOp
	key     trKey
	item    Item
	chunk   sessionlog.StreamChunk
	blocks  []Block
	adverts []string
	call    ToolCard
	result  trResult

	shellID     string
	shellResult *ShellResult

	compactStart, compactEnd, endSeed bool
}

// trDecode decodes e. summaries is where compaction summaries are recorded and
// looked up (a checkpoint cites one that precedes it). For the replay path
// (replay), a chunk is decoded only as far as the replay reads it: where it
// goes and what it times (fastjson.DecodeChunkHead); the live path's stream needs
// all of it.
func trDecode(e *sessionlog.Event, summaries *trSummaries, replay bool) trDecoded {
	var d trDecoded
	if sessionlog.IsReplacementSurfaceEvent(e) {
		if sessionlog.IsCheckpoint(e) {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindMarker, Marker: summaries.marker(e)}
		}
		return d
	}
	switch sessionlog.Canonical(e.Type) {
	case sessionlog.TypeUserMessage:
		if item, ok := trUserItem(e); ok {
			d.op, d.item = trOpItem, item
		}
	case sessionlog.TypeSteeringMessage:
		var m struct {
			Message json.RawMessage `json:"message"`
		}
		_ = json.Unmarshal(e.Data, &m)
		if text := sessionlog.TrimJS(sessionlog.ContentText(trContent(m.Message))); text != "" {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindPrompt, Prompt: &Prompt{Header: "Steering", Text: text}}
		}
	case sessionlog.TypeStepStart:
		d.op, d.key = trOpStepStart, trTurnStep(e.Data)
	case sessionlog.TypeStepEnd:
		d.op, d.key = trOpStepEnd, trTurnStep(e.Data)
	case sessionlog.TypeAssistantChunk:
		var c sessionlog.ChunkData
		if replay {
			c = fastjson.DecodeChunkHead(e.Data)
		} else {
			c, _ = fastjson.DecodeChunkData(e.Data)
		}
		d.op, d.key, d.chunk = trOpChunk, trKey{c.Turn, c.Step}, c.Chunk
	case sessionlog.TypeAssistantMessage:
		turn, step, content, ok := fastjson.ScanAssistant(e.Data)
		key := trKey{turn, step}
		if !ok {
			key, content = trAssistantSlow(e.Data)
		}
		d.op, d.key, d.blocks = trOpMessage, key, trSettledBlocks(content)
		if sessionlog.IsAppendSurfaceEvent(e) {
			d.adverts = trToolCallIDs(content)
		}
	case sessionlog.TypeToolCall:
		var c sessionlog.ToolCallData
		_ = json.Unmarshal(e.Data, &c)
		d.op, d.key = trOpToolCall, trKey{c.Turn, c.Step}
		d.call = ToolCard{CallID: c.CallID, Name: c.Name, Arguments: c.Arguments}
	case sessionlog.TypeToolResult:
		d.op, d.result = trOpToolResult, trDecodeResult(e.Data)
	case sessionlog.TypeLLMRetry:
		d.op = trOpRetry
		d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice, Notice: trRetryNotice(e.Data)}
	case sessionlog.TypeTurnEnd:
		d.op = trOpTurnEnd
		if n := trTurnEndNotice(e.Data); n != nil {
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice, Notice: n}
		}
	case sessionlog.TypeCompactionStart:
		var s sessionlog.CompactionStartData
		d.compactStart = json.Unmarshal(e.Data, &s) == nil && s.Turn == nil
	case sessionlog.TypeCompactionEnd:
		var s sessionlog.CompactionEndData
		ok := json.Unmarshal(e.Data, &s) == nil
		d.compactEnd = ok && s.Turn == nil
		if ok && s.Error != "" {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice,
				Notice: &Notice{Level: LevelWarning, Text: "Compaction failed: " + s.Error}}
		}
	case sessionlog.TypeCompactionSummary:
		summaries.record(e)
	case sessionlog.TypeSessionEndSeed:
		d.endSeed = true
	case TypeUserShellStart:
		if item, ok := trShellStart(e); ok {
			d.op, d.item = trOpShellStart, item
		}
	case TypeUserShellResult:
		if id, res, ok := trShellResult(e); ok {
			d.op, d.shellID, d.shellResult = trOpShellDone, id, res
		}
	}
	return d
}

// trAssistantSlow is fastjson.ScanAssistant by json.Unmarshal, keeping what is well
// formed of a malformed payload.
func trAssistantSlow(data json.RawMessage) (trKey, []sessionlog.ContentBlock) {
	var fast struct {
		sessionlog.TurnStep
		Message struct {
			Content []sessionlog.ContentBlock `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(data, &fast) == nil {
		return trKey{fast.Turn, fast.Step}, fast.Message.Content
	}
	var m struct {
		Message json.RawMessage `json:"message"`
	}
	_ = json.Unmarshal(data, &m)
	return trTurnStep(data), trContent(m.Message)
}

func trTurnStep(data json.RawMessage) trKey {
	if turn, step, ok := fastjson.ScanTurnStep(data); ok {
		return trKey{turn, step}
	}
	var ts sessionlog.TurnStep
	_ = json.Unmarshal(data, &ts)
	return trKey{ts.Turn, ts.Step}
}

// trContent decodes a message's content; anything malformed reads as empty.
func trContent(message json.RawMessage) []sessionlog.ContentBlock {
	var m struct {
		Content []sessionlog.ContentBlock `json:"content"`
	}
	if json.Unmarshal(message, &m) != nil {
		return nil
	}
	return m.Content
}

// trSettledBlocks is a settled step's blocks: one per content block, with the
// text of text and reasoning blocks.
func trSettledBlocks(content []sessionlog.ContentBlock) []Block {
	if len(content) == 0 {
		return nil
	}
	out := make([]Block, len(content))
	for i, b := range content {
		out[i].Type = b.Type
		if b.Type == "text" || b.Type == "reasoning" {
			out[i].Text = b.Text
		}
	}
	return out
}

// trUserSlow is fastjson.ScanUser by json.Unmarshal, keeping what is well formed
// of a malformed payload.
func trUserSlow(data json.RawMessage) (content []sessionlog.ContentBlock, src map[string]json.RawMessage) {
	var fast struct {
		Content []sessionlog.ContentBlock  `json:"content"`
		Source  map[string]json.RawMessage `json:"source"`
	}
	if json.Unmarshal(data, &fast) == nil {
		return fast.Content, fast.Source
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	_ = json.Unmarshal(m["content"], &content)
	_ = json.Unmarshal(m["source"], &src)
	return content, src
}

// trUserItem is the item of an append-origin user/message (terminal.md §2.1).
func trUserItem(e *sessionlog.Event) (Item, bool) {
	content, src, ok := fastjson.ScanUser(e.Data)
	if !ok {
		content, src = trUserSlow(e.Data)
	}
	kind, kindOK := trString(src["kind"])
	id := ItemID{e.Seq, PartMain}
	if kindOK && kind == "user" {
		text := sessionlog.TrimJS(sessionlog.ContentText(content))
		if text == "" {
			return Item{}, false
		}
		return Item{ID: id, Kind: KindPrompt, Prompt: &Prompt{Header: "You", Text: text}}, true
	}
	if kindOK && kind == "session-reference" {
		if entries, ok := trSessionRefs(src["references"]); ok {
			return Item{ID: id, Kind: KindSessionRef, SessionRef: &SessionRef{Entries: entries}}, true
		}
	}
	text := sessionlog.TrimJS(sessionlog.ContentText(content))
	if text == "" {
		return Item{}, false
	}
	label := "context"
	if p, ok := trString(src["plugin"]); ok {
		label = p
	} else if kindOK {
		label = kind
	}
	return Item{ID: id, Kind: KindContext, Context: &ContextCard{Label: label, Text: text}}, true
}

// trSessionRefs composes the entries of a well-formed references array: every
// entry has a string sessionId and a string label.
func trSessionRefs(raw json.RawMessage) ([]string, bool) {
	var refs []map[string]json.RawMessage
	if json.Unmarshal(raw, &refs) != nil || refs == nil {
		return nil, false
	}
	entries := make([]string, 0, len(refs))
	for _, r := range refs {
		id, ok1 := trString(r["sessionId"])
		label, ok2 := trString(r["label"])
		if !ok1 || !ok2 {
			return nil, false
		}
		if label == id {
			entries = append(entries, label)
		} else {
			entries = append(entries, label+" ("+id+")")
		}
	}
	return entries, true
}

// trString reads raw as a JSON string.
func trString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return fastjson.DecodeString(raw) // json.Unmarshal into a string
}

// trNumber reports whether raw is a JSON number.
func trNumber(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// trRetryNotice is llm/retry's warning notice.
func trRetryNotice(data json.RawMessage) *Notice {
	var r sessionlog.RetryData
	_ = json.Unmarshal(data, &r)
	max := "∞"
	if r.Mode != "always" && r.MaxRetries != nil {
		max = strconv.FormatInt(*r.MaxRetries, 10)
	}
	return &Notice{Level: LevelWarning, Text: "Retrying model request (" + strconv.FormatInt(r.Retry, 10) + "/" + max +
		") in " + strconv.FormatInt(r.DelayMs, 10) + "ms: " + r.Failure.Message}
}

// trChunk decodes a chunk event's chunk.
func trChunk(data json.RawMessage) (sessionlog.StreamChunk, bool) {
	c, err := fastjson.DecodeChunkData(data)
	if err != nil {
		return sessionlog.StreamChunk{}, false
	}
	return c.Chunk, true
}
