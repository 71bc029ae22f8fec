package projection

import (
	"encoding/json"
	"strconv"
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
// earlier in events advertised its callId (see TranscriptToolCallIDs). Chunks
// create a step block but their content is shown only while the block is
// unsettled: a step still streaming at the end of events (or one that never
// settled) shows exactly what its chunks streamed, as the live path did.
func Project(events []Event, opts TranscriptOptions) Transcript {
	r := newTrReplay(opts)
	for i := range events {
		r.apply(events, i)
	}
	return r.finish(events)
}

func newTrReplay(opts TranscriptOptions) *trReplay {
	return &trReplay{
		opts:      opts,
		cards:     map[string]*trSlotItem{},
		shells:    map[string]*trSlotItem{},
		advert:    map[string]struct{}{},
		summaries: trSummaries{},
		timing:    trTimingTable{},
	}
}

// trSlotItem is one item of the replay path with its place in the slot list.
type trSlotItem struct {
	item    Item
	slot    int
	removed bool
	// chunks are the indices of the chunk events fed to an unsettled step
	// block; they are replayed into the block at the end if it never settles.
	chunks []int
}

// trReplayStep is a step block and its footer.
type trReplayStep struct{ block, footer *trSlotItem }

// trReplay is the replay path's state. Placements go to slots in order; moving
// an item tombstones its old slot and appends a new one, removing it
// tombstones its slot. The transcript is the live slots in order.
type trReplay struct {
	opts      TranscriptOptions
	slots     []*trSlotItem
	current   *trReplayStep
	lastDone  *trReplayStep
	cards     map[string]*trSlotItem
	shells    map[string]*trSlotItem // unsettled Shell cards by id
	advert    map[string]struct{}
	summaries trSummaries
	timing    trTimingTable
	progress  trProgress
}

func (r *trReplay) place(it *trSlotItem) {
	it.slot = len(r.slots)
	r.slots = append(r.slots, it)
}

func (r *trReplay) add(item Item) *trSlotItem {
	it := &trSlotItem{item: item}
	r.place(it)
	return it
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
	s := &trReplayStep{
		block:  r.add(Item{ID: ItemID{seq, PartMain}, Kind: KindStep, Step: &Step{Turn: key.turn, Step: key.step}}),
		footer: r.add(Item{ID: ItemID{seq, PartFooter}, Kind: KindFooter, Footer: &Footer{Turn: key.turn, Step: key.step}}),
	}
	r.current = s
	return s
}

func (r *trReplay) removeStep(s *trReplayStep) {
	r.remove(s.block)
	r.remove(s.footer)
}

func (r *trReplay) apply(events []Event, i int) {
	d := trDecode(&events[i], &r.summaries, true)
	r.applyDecoded(events, i, &d)
}

// applyDecoded applies events[i], decoded as d. It reads d and never writes
// to it or to what it points to, so one decoding may be applied to several
// replays (ProjectWindows).
func (r *trReplay) applyDecoded(events []Event, i int, d *trDecoded) {
	e := &events[i]
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
		if r.current == nil || r.current.block.item.Step.Settled {
			r.newStep(e.Seq, d.key)
		}
		b := r.current.block
		b.chunks = append(b.chunks, i)
	case trOpMessage:
		trAdvertise(r.advert, d.adverts)
		if r.current == nil || r.current.block.item.Step.Settled {
			r.newStep(e.Seq, d.key)
		}
		b := r.current.block
		b.chunks = nil
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
		r.cards[card.CallID] = r.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard, Tool: &card})
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
		switch {
		case r.current != nil:
			r.removeStep(r.current)
		case r.lastDone != nil:
			r.removeStep(r.lastDone)
		}
		r.current, r.lastDone = nil, nil
		r.add(d.item)
	case trOpTurnEnd:
		if r.current != nil {
			r.removeStep(r.current)
		}
		r.current, r.lastDone = nil, nil
		if d.item.Kind != 0 {
			r.add(d.item)
		}
	case trOpShellStart:
		card := *d.item.Shell
		r.shells[card.ID] = r.add(Item{ID: d.item.ID, Kind: KindShell, Shell: &card})
	case trOpShellDone:
		if it, ok := r.shells[d.shellID]; ok {
			delete(r.shells, d.shellID)
			settleShell(it.item.Shell, d.shellResult)
		}
	}
}

// finish collects the live slots, gives every footer its step's final timing
// and rebuilds every block that never settled from the chunks it streamed.
func (r *trReplay) finish(events []Event) Transcript {
	live := 0
	for _, it := range r.slots {
		if it != nil {
			live++
		}
	}
	var t Transcript
	if live > 0 {
		t.Items = make([]Item, 0, live)
	}
	for _, it := range r.slots {
		if it == nil {
			continue
		}
		switch it.item.Kind {
		case KindFooter:
			it.item.Footer.Timing = r.timing.get(trKey{it.item.Footer.Turn, it.item.Footer.Step})
		case KindStep:
			if !it.item.Step.Settled && len(it.chunks) > 0 {
				var s trStream
				for _, i := range it.chunks {
					if c, ok := trChunk(&events[i]); ok {
						s.apply(&c)
					}
				}
				it.item.Step.Blocks = s.blocks
			}
		}
		t.Items = append(t.Items, it.item)
	}
	t.Progress = r.progress.get()
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
	chunk   StreamChunk
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
// goes and what it times (decodeChunkHead); the live path's stream needs
// all of it.
func trDecode(e *Event, summaries *trSummaries, replay bool) trDecoded {
	var d trDecoded
	if IsReplacementSurfaceEvent(e) {
		if IsCheckpoint(e) {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindMarker, Marker: summaries.marker(e)}
		}
		return d
	}
	switch Canonical(e.Type) {
	case TypeUserMessage:
		if item, ok := trUserItem(e); ok {
			d.op, d.item = trOpItem, item
		}
	case TypeSteeringMessage:
		var m struct {
			Message json.RawMessage `json:"message"`
		}
		_ = json.Unmarshal(e.Data, &m)
		if text := TrimJS(ContentText(trContent(m.Message))); text != "" {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindPrompt, Prompt: &Prompt{Header: "Steering", Text: text}}
		}
	case TypeStepStart:
		d.op, d.key = trOpStepStart, trTurnStep(e.Data)
	case TypeStepEnd:
		d.op, d.key = trOpStepEnd, trTurnStep(e.Data)
	case TypeAssistantChunk:
		var c ChunkData
		if replay {
			c = decodeChunkHead(e.Data)
		} else {
			c, _ = decodeChunkData(e.Data)
		}
		d.op, d.key, d.chunk = trOpChunk, trKey{c.Turn, c.Step}, c.Chunk
	case TypeAssistantMessage:
		key, content, ok := scanAssistant(e.Data)
		if !ok {
			key, content = trAssistantSlow(e.Data)
		}
		d.op, d.key, d.blocks = trOpMessage, key, trSettledBlocks(content)
		if IsAppendSurfaceEvent(e) {
			d.adverts = trToolCallIDs(content)
		}
	case TypeToolCall:
		var c ToolCallData
		_ = json.Unmarshal(e.Data, &c)
		d.op, d.key = trOpToolCall, trKey{c.Turn, c.Step}
		d.call = ToolCard{CallID: c.CallID, Name: c.Name, Arguments: c.Arguments}
	case TypeToolResult:
		d.op, d.result = trOpToolResult, trDecodeResult(e.Data)
	case TypeLLMRetry:
		d.op = trOpRetry
		d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice, Notice: trRetryNotice(e.Data)}
	case TypeTurnEnd:
		d.op = trOpTurnEnd
		if n := trTurnEndNotice(e.Data); n != nil {
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice, Notice: n}
		}
	case TypeCompactionStart:
		var s CompactionStartData
		d.compactStart = json.Unmarshal(e.Data, &s) == nil && s.Turn == nil
	case TypeCompactionEnd:
		var s CompactionEndData
		ok := json.Unmarshal(e.Data, &s) == nil
		d.compactEnd = ok && s.Turn == nil
		if ok && s.Error != "" {
			d.op = trOpItem
			d.item = Item{ID: ItemID{e.Seq, PartMain}, Kind: KindNotice,
				Notice: &Notice{Level: LevelWarning, Text: "Compaction failed: " + s.Error}}
		}
	case TypeCompactionSummary:
		summaries.record(e)
	case TypeSessionEndSeed:
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

// trAssistantSlow is scanAssistant by json.Unmarshal, keeping what is well
// formed of a malformed payload.
func trAssistantSlow(data json.RawMessage) (trKey, []ContentBlock) {
	var fast struct {
		TurnStep
		Message struct {
			Content []ContentBlock `json:"content"`
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
	var ts TurnStep
	_ = json.Unmarshal(data, &ts)
	return trKey{ts.Turn, ts.Step}
}

// trContent decodes a message's content; anything malformed reads as empty.
func trContent(message json.RawMessage) []ContentBlock {
	var m struct {
		Content []ContentBlock `json:"content"`
	}
	if json.Unmarshal(message, &m) != nil {
		return nil
	}
	return m.Content
}

// trSettledBlocks is a settled step's blocks: one per content block, with the
// text of text and reasoning blocks.
func trSettledBlocks(content []ContentBlock) []Block {
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

// trUserSlow is scanUser by json.Unmarshal, keeping what is well formed
// of a malformed payload.
func trUserSlow(data json.RawMessage) (content []ContentBlock, src map[string]json.RawMessage) {
	var fast struct {
		Content []ContentBlock             `json:"content"`
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
func trUserItem(e *Event) (Item, bool) {
	content, src, ok := scanUser(e.Data)
	if !ok {
		content, src = trUserSlow(e.Data)
	}
	kind, kindOK := trString(src["kind"])
	id := ItemID{e.Seq, PartMain}
	if kindOK && kind == "user" {
		text := TrimJS(ContentText(content))
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
	text := TrimJS(ContentText(content))
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
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// trNumber reports whether raw is a JSON number.
func trNumber(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// trRetryNotice is llm/retry's warning notice.
func trRetryNotice(data json.RawMessage) *Notice {
	var r RetryData
	_ = json.Unmarshal(data, &r)
	max := "∞"
	if r.Mode != "always" && r.MaxRetries != nil {
		max = strconv.FormatInt(*r.MaxRetries, 10)
	}
	return &Notice{Level: LevelWarning, Text: "Retrying model request (" + strconv.FormatInt(r.Retry, 10) + "/" + max +
		") in " + strconv.FormatInt(r.DelayMs, 10) + "ms: " + r.Failure.Message}
}

// trChunk decodes a chunk event's chunk.
func trChunk(e *Event) (StreamChunk, bool) {
	c, err := decodeChunkData(e.Data)
	if err != nil {
		return StreamChunk{}, false
	}
	return c.Chunk, true
}

// ---------------------------------------------------------------------------
// Streaming.

// trStream is a step's content as its chunks streamed it: blocks in index
// order (terminal.md §2.3).
type trStream struct {
	index  []int
	blocks []Block
}

// at returns the position of the block at index, inserting a block of type
// typ there if there is none.
func (s *trStream) at(index int, typ string) int {
	k := len(s.index)
	for k > 0 && s.index[k-1] >= index {
		k--
	}
	if k < len(s.index) && s.index[k] == index {
		return k
	}
	s.index = append(s.index, 0)
	s.blocks = append(s.blocks, Block{})
	copy(s.index[k+1:], s.index[k:])
	copy(s.blocks[k+1:], s.blocks[k:])
	s.index[k], s.blocks[k] = index, Block{Type: typ}
	return k
}

// apply feeds one chunk and reports whether the blocks changed.
func (s *trStream) apply(c *StreamChunk) bool {
	switch c.Type {
	case "block-start":
		n := len(s.blocks)
		k := s.at(c.Index, c.BlockType)
		if len(s.blocks) == n {
			if s.blocks[k] == (Block{Type: c.BlockType}) {
				return false
			}
			s.blocks[k] = Block{Type: c.BlockType}
		}
		return true
	case "text-delta", "reasoning-delta":
		typ := "text"
		if c.Type == "reasoning-delta" {
			typ = "reasoning"
		}
		n := len(s.blocks)
		k := s.at(c.Index, typ)
		s.blocks[k].Text += c.Text
		return c.Text != "" || len(s.blocks) != n
	case "block-end":
		if c.Block == nil || (c.Block.Type != "text" && c.Block.Type != "reasoning") {
			return false
		}
		b := Block{Type: c.Block.Type, Text: c.Block.Text}
		n := len(s.blocks)
		k := s.at(c.Index, b.Type)
		if len(s.blocks) == n && s.blocks[k] == b {
			return false
		}
		s.blocks[k] = b
		return true
	}
	return false
}

// ---------------------------------------------------------------------------
// Timing buckets (terminal.md §2.5.1).

type trTimingRec struct {
	t     Timing
	ended bool
}

// trTimingTable holds the buckets of every turn:step.
type trTimingTable map[trKey]*trTimingRec

func (tt trTimingTable) get(k trKey) Timing {
	if r := tt[k]; r != nil {
		return r.t
	}
	return Timing{}
}

func (tt trTimingTable) rec(k trKey) *trTimingRec {
	r := tt[k]
	if r == nil {
		r = &trTimingRec{}
		tt[k] = r
	}
	return r
}

func (t *Timing) trClose(at int64) {
	if t.Open == BucketNone {
		return
	}
	gap := max(at-t.OpenSince, 0)
	switch t.Open {
	case BucketWait:
		t.WaitMs += gap
	case BucketThinking:
		t.ThinkingMs += gap
	case BucketResponding:
		t.RespondingMs += gap
	case BucketTools:
		t.ToolsMs += gap
	}
	t.Open, t.OpenSince = BucketNone, 0
}

func (t *Timing) trEnter(b Bucket, at int64) {
	if t.Open == b {
		return
	}
	t.trClose(at)
	t.Open, t.OpenSince = b, at
}

// apply moves the buckets of d's step and reports which key changed.
func (tt trTimingTable) apply(d *trDecoded, at int64) (trKey, bool) {
	var enter Bucket
	switch d.op {
	case trOpStepStart:
		enter = BucketWait
	case trOpToolCall:
		enter = BucketTools
	case trOpChunk, trOpStepEnd:
	default:
		return trKey{}, false
	}
	r := tt.rec(d.key)
	if r.ended {
		return d.key, false
	}
	before := r.t
	switch d.op {
	case trOpStepEnd:
		r.t.trClose(at)
		r.ended = true
		return d.key, true // ended changes what later events may do
	case trOpChunk:
		if r.t.Open == BucketWait {
			r.t.trClose(at)
		}
		switch {
		case d.chunk.Type == "reasoning-delta" || (d.chunk.Type == "block-start" && d.chunk.BlockType == "reasoning"):
			r.t.trEnter(BucketThinking, at)
		case d.chunk.Type == "text-delta" || (d.chunk.Type == "block-start" && d.chunk.BlockType == "text"):
			r.t.trEnter(BucketResponding, at)
		}
	default:
		r.t.trEnter(enter, at)
	}
	return d.key, r.t != before
}

// ---------------------------------------------------------------------------
// Compaction summaries and markers (log.md §12.3).

// trSummaries records the compaction summaries seen so far, by seq. A nil
// entry is a malformed summary.
type trSummaries map[int64]*trSummary

type trSummary struct {
	text   *string
	items  int
	tokens int64
}

func (s trSummaries) record(e *Event) {
	var m map[string]json.RawMessage
	var sum trSummary
	var blocks []ContentBlock
	var seqs []int64
	if json.Unmarshal(e.Data, &m) != nil ||
		json.Unmarshal(m["summary"], &blocks) != nil || m["summary"] == nil ||
		json.Unmarshal(m["shadowedSeqs"], &seqs) != nil || seqs == nil ||
		!trNumber(m["shadowedTokenCount"]) || json.Unmarshal(m["shadowedTokenCount"], &sum.tokens) != nil {
		s[e.Seq] = nil
		return
	}
	var text []byte
	for _, b := range blocks {
		if b.Type == "text" {
			text = append(text, b.Text...)
		}
	}
	if str := string(text); TrimJS(str) != "" {
		sum.text = &str
	}
	sum.items = len(seqs)
	s[e.Seq] = &sum
}

// marker is the marker of checkpoint e, with data from the first
// compaction summary among its sourceEventSeqs that was seen before it.
func (s trSummaries) marker(e *Event) *Marker {
	m := &Marker{Seq: e.Seq, Time: e.Time}
	seqs, _ := e.Sources()
	for _, seq := range seqs {
		sum, ok := s[seq]
		if !ok {
			continue
		}
		if sum != nil {
			items, tokens := sum.items, sum.tokens
			m.SummaryEventSeq, m.Summary, m.ShadowedItemCount, m.ShadowedTokenCount = &seq, sum.text, &items, &tokens
		}
		break
	}
	return m
}

// ---------------------------------------------------------------------------
// Standalone compaction progress (terminal.md §11.2).

// trProgress tracks the standalone compaction open at the tail: set by a
// turn:null start when none is open, cleared by a turn:null end and by
// session/end-seed (an earlier start belongs to a dead writer).
type trProgress struct {
	open bool
	p    Progress
}

func (t *trProgress) apply(d *trDecoded, e *Event) {
	switch {
	case d.compactStart:
		if !t.open {
			t.open, t.p = true, Progress{StartSeq: e.Seq, StartTime: e.Time}
		}
	case d.compactEnd, d.endSeed:
		t.open = false
	}
}

func (t *trProgress) get() *Progress {
	if !t.open {
		return nil
	}
	p := t.p
	return &p
}
