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
// applied, less the items taken (Take). Neither Apply nor Transcript may
// be called after it.
func (r *Replay) Transcript() Transcript { return r.r.finish() }

// Settled returns how many of the items the replay holds no later event
// can change, move or remove (as Projector.Settled says of its own): a
// reader that compares the transcript as the log streams may Take them.
func (r *Replay) Settled() int { return r.r.settled() }

// Take hands over the first n items the replay holds, which must be
// settled, ended as Transcript ends them (a footer's final timing, a step
// that never settled rebuilt from its chunks), and forgets them:
// Transcript holds the items after them.
func (r *Replay) Take(n int) []Item { return r.r.take(n) }

// newTrReplay returns an empty replay. Its maps are made as they are
// first written (made): a history page of a message or two is a replay of
// its own, and its six maps were most of what opening one cost.
func newTrReplay(opts Options) *trReplay {
	return &trReplay{opts: opts}
}

// made returns *m, made first if it is nil.
func made[M ~map[K]V, K comparable, V any](m *M) M {
	if *m == nil {
		*m = make(M)
	}
	return *m
}

// trSlotItem is one item of the replay path with its place in the slot list.
type trSlotItem struct {
	item    Item
	slot    int
	removed bool
	// chunks are the payloads of the chunk events fed to an unsettled step
	// block; they are replayed into the block at the end if it never settles.
	// Past foldChunks of them they are folded into stream, which the later
	// ones are too: a step of millions of chunks holds its blocks' text, not
	// every chunk's payload (2 million held 0.6 GB).
	chunks []json.RawMessage
	stream *trStream
}

// foldChunks is how many chunk payloads an unsettled step block holds
// before it folds them into its blocks: a step that settles, as nearly
// every one does, never decodes its chunks at all.
const foldChunks = 4096

// fold applies the chunk payloads held to the block's stream.
func (it *trSlotItem) fold() {
	if it.stream == nil {
		it.stream = &trStream{}
	}
	for _, data := range it.chunks {
		if c, ok := trChunk(data); ok {
			it.stream.apply(&c)
		}
	}
	clear(it.chunks)
	it.chunks = it.chunks[:0]
}

// trReplayStep is a step block and its footer.
type trReplayStep struct{ block, footer *trSlotItem }

// trReplay is the replay path's state. Placements go to slots in order; moving
// an item tombstones its old slot and appends a new one, removing it
// tombstones its slot. The transcript is the live slots in order.
type trReplay struct {
	opts      Options
	slots     []*trSlotItem
	current   *trReplayStep
	lastDone  *trReplayStep
	cards     map[string]*trSlotItem
	shells    map[string]*trSlotItem // unsettled Shell cards by id
	advert    map[string]struct{}
	summaries trSummaries
	timing    trTimingTable
	progress  trProgress
	// open are the footers whose step's buckets may still move, by step;
	// off is where the items not yet taken start in slots.
	open map[trKey][]*trSlotItem
	off  int
	// pool, when set, holds slot items other replays are done with
	// (release), for add: the history windows share one.
	pool *[]*trSlotItem
	// spare is the chunk list of the last block that settled, emptied, for
	// the next block that streams: nearly every step streams its chunks
	// and settles, and growing a list for each was a twentieth of what
	// repro allocated.
	spare []json.RawMessage
}

func (r *trReplay) place(it *trSlotItem) {
	it.slot = len(r.slots)
	r.slots = append(r.slots, it)
}

func (r *trReplay) add(item Item) *trSlotItem {
	var it *trSlotItem
	if r.pool != nil && len(*r.pool) > 0 {
		n := len(*r.pool)
		it, *r.pool = (*r.pool)[n-1], (*r.pool)[:n-1]
		it.item = item
	} else {
		it = &trSlotItem{item: item}
	}
	r.place(it)
	return it
}

// reset empties a replay that has ended (finish, release) for another
// log or window, keeping what its lists and maps have grown to.
func (r *trReplay) reset() {
	clear(r.slots)
	r.slots, r.off = r.slots[:0], 0
	r.current, r.lastDone = nil, nil
	clear(r.cards)
	clear(r.shells)
	clear(r.advert)
	clear(r.summaries)
	clear(r.timing)
	clear(r.open)
	r.progress = trProgress{}
}

// release hands the slot items of a replay that has ended (finish) to
// its pool, for another replay's add: nothing of a replay refers to them
// once its items are copied out.
func (r *trReplay) release() {
	if r.pool == nil {
		return
	}
	for i, it := range r.slots {
		if it != nil {
			*it = trSlotItem{} // holding nothing while it waits
			*r.pool = append(*r.pool, it)
			r.slots[i] = nil
		}
	}
}

func (r *trReplay) remove(it *trSlotItem) {
	if it.removed {
		return
	}
	it.removed = true
	r.slots[it.slot] = nil
}

// moveCurrentFooter moves the current step's footer to the end.
func (r *trReplay) moveCurrentFooter() {
	if r.current == nil {
		return
	}
	f := r.current.footer
	if f.slot == len(r.slots)-1 {
		return
	}
	r.slots[f.slot] = nil
	r.place(f)
}

func (r *trReplay) newStep(seq int64, key trKey) *trReplayStep {
	// A step's block and footer are made together: they live and go
	// together.
	a := &struct {
		s      trReplayStep
		step   Step
		footer Footer
	}{step: Step{Turn: key.turn, Step: key.step}, footer: Footer{Turn: key.turn, Step: key.step}}
	s := &a.s
	s.block = r.add(Item{ID: ItemID{seq, PartMain}, Kind: KindStep, Step: &a.step})
	s.footer = r.add(Item{ID: ItemID{seq, PartFooter}, Kind: KindFooter, Footer: &a.footer})
	if !r.timing.ended(key) {
		made(&r.open)[key] = append(r.open[key], s.footer)
	}
	r.current = s
	return s
}

func (r *trReplay) removeStep(s *trReplayStep) {
	if f := s.footer; !f.removed {
		trForgetFooter(r.open, trKey{f.item.Footer.Turn, f.item.Footer.Step}, f)
	}
	r.remove(s.block)
	r.remove(s.footer)
}

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
	if key, _ := r.timing.apply(d, e.Time); d.op == trOpStepEnd {
		if r.timing.ended(key) {
			delete(r.open, key) // its footers' timing is final
		}
	}
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
		if r.current == nil || r.current.block.item.Step.Settled {
			r.newStep(e.Seq, d.key)
		}
		b := r.current.block
		if b.chunks == nil {
			b.chunks, r.spare = r.spare, nil
		}
		b.chunks = append(b.chunks, e.Data)
		if len(b.chunks) >= foldChunks {
			b.fold()
		}
	case trOpMessage:
		if len(d.adverts) > 0 {
			trAdvertise(made(&r.advert), d.adverts)
		}
		if r.current == nil || r.current.block.item.Step.Settled {
			r.newStep(e.Seq, d.key)
		}
		b := r.current.block
		if b.chunks != nil {
			clear(b.chunks) // let go of the payloads
			r.spare = b.chunks[:0]
		}
		b.chunks, b.stream = nil, nil
		b.item.Step.Settled = true
		b.item.Step.Blocks = d.blocks
	case trOpStepEnd:
		if r.current == nil {
			r.newStep(e.Seq, d.key)
		}
		f := r.current.footer.item.Footer
		f.Completed, f.CompletedAt = true, e.Time
		r.lastDone, r.current = r.current, nil
	case trOpToolCall:
		card := d.call
		made(&r.cards)[card.CallID] = r.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard, Tool: &card})
		r.moveCurrentFooter()
	case trOpToolResult:
		it, ok := r.cards[d.result.CallID]
		if ok {
			delete(r.cards, d.result.CallID)
		} else {
			it = r.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard,
				Tool: &ToolCard{CallID: d.result.CallID, Name: "tool", Orphan: true}})
		}
		d.result.setOn(it.item.Tool)
		r.moveCurrentFooter()
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
		made(&r.shells)[card.ID] = r.add(Item{ID: d.item.ID, Kind: KindShell, Shell: &card})
	case trOpShellDone:
		if it, ok := r.shells[d.shellID]; ok {
			delete(r.shells, d.shellID)
			settleShell(it.item.Shell, d.shellResult)
		}
	}
}

// finish collects the live slots, gives every footer its step's final timing
// and rebuilds every block that never settled from the chunks it streamed.
func (r *trReplay) finish() Transcript {
	live := 0
	for _, it := range r.slots[r.off:] {
		if it != nil {
			live++
		}
	}
	var t Transcript
	if live > 0 {
		t.Items = make([]Item, 0, live)
	}
	for _, it := range r.slots[r.off:] {
		if it != nil {
			r.end(it)
			t.Items = append(t.Items, it.item)
		}
	}
	t.Progress = r.progress.get()
	return t
}

// end ends an item as the transcript shows it: a footer gets its step's
// timing, a block that never settled is rebuilt from its chunks.
func (r *trReplay) end(it *trSlotItem) {
	switch it.item.Kind {
	case KindFooter:
		it.item.Footer.Timing = r.timing.get(trKey{it.item.Footer.Turn, it.item.Footer.Step})
	case KindStep:
		if !it.item.Step.Settled && (len(it.chunks) > 0 || it.stream != nil) {
			it.fold()
			it.item.Step.Blocks = it.stream.Blocks()
			it.chunks, it.stream = nil, nil
		}
	}
}

// settled is Replay.Settled: the items not yet taken before the first a
// later event may still reach (trFirstPending).
func (r *trReplay) settled() int {
	var steps []*trSlotItem
	for _, s := range [...]*trReplayStep{r.current, r.lastDone} {
		if s != nil {
			steps = append(steps, s.block, s.footer)
		}
	}
	end := trFirstPending(len(r.slots), func(it *trSlotItem) (int, bool) { return it.slot, !it.removed },
		r.cards, r.shells, r.open, steps)
	n := 0
	for _, it := range r.slots[r.off:max(end, r.off)] {
		if it != nil {
			n++
		}
	}
	return n
}

// take is Replay.Take.
func (r *trReplay) take(n int) []Item {
	if n < 0 || n > r.settled() {
		panic("transcript: Take of items not settled")
	}
	out := make([]Item, 0, n)
	for len(out) < n {
		it := r.slots[r.off]
		r.slots[r.off] = nil
		r.off++
		if it != nil {
			r.end(it)
			out = append(out, it.item)
		}
	}
	if r.off >= takeCompact && r.off >= len(r.slots)-r.off {
		// The slots taken go: the rest moves to the front.
		rest := copy(r.slots, r.slots[r.off:])
		clear(r.slots[rest:])
		r.slots, r.off = r.slots[:rest], 0
		for i, it := range r.slots {
			if it != nil {
				it.slot = i
			}
		}
	}
	return out
}

// takeCompact is the fewest slots taken before the rest is moved to the
// front (take).
const takeCompact = 4096

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

	// summarized: a compaction summary, recorded in the summaries
	// trDecode was given, and decoded as summary, for a projection that
	// applies a decoding it did not make (Decoded) to record too.
	summarized bool
	summary    *trSummary
}

// trDecode decodes e. summaries is where compaction summaries are recorded and
// looked up (a checkpoint cites one that precedes it). For the replay path
// (replay), a chunk is decoded only as far as the replay reads it: where it
// goes and what it times (fastjson.DecodeChunkHead); the live path's stream needs
// all of it.
func trDecode(e *sessionlog.Event, summaries *trSummaries, replay bool) trDecoded {
	var d trDecoded
	if sessionlog.IsReplacementSurfaceEvent(e) {
		if fastjson.IsCheckpoint(e) {
			seqs, _ := e.Sources()
			d = summaries.checkpoint(e, seqs)
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
		c, ok := fastjson.ScanToolCall(e.Data)
		if !ok {
			_ = json.Unmarshal(e.Data, &c)
		}
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
		d.summarized, d.summary = true, trDecodeSummary(e)
		made(summaries)[e.Seq] = d.summary
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
