package transcript

import (
	"slices"

	"github.com/dshtest/dshtest/sessionlog"
)

// Projector is the incremental transcript projector: the terminal's live path
// (terminal.md §1.2 as amended by §11). Feed it the log's events in order with
// Apply; after every Apply its Transcript equals Project over the same events
// (ignoring Item.Rev). Unlike Project it streams assistant/chunk deltas into
// the current step as they arrive.
//
// Apply costs O(1) amortised in the length of the session: the only items it
// moves or removes belong to the current (or just completed) step, which sits
// at the tail of the list, and everything it looks up is indexed.
//
// A Projector is not safe for concurrent use.
type Projector struct {
	opts    Options
	items   []Item
	handles []*prHandle // handles[i] is items[i]'s handle

	current, lastDone *prStep
	cards             map[string]*prHandle  // pending tool cards by call id
	shells            map[string]*prHandle  // unsettled Shell cards by id
	footers           map[trKey][]*prHandle // footers of steps whose buckets still run
	advert            map[string]struct{}   // tool-call ids advertised so far
	summaries         trSummaries
	timing            trTimingTable
	progress          trProgress

	// The change being built by the current Apply.
	from  int
	dirty []int
}

// prHandle follows one item through moves and removals.
type prHandle struct {
	pos     int
	removed bool
	stream  *trStream // an unsettled step block's streamed content
}

type prStep struct{ block, footer *prHandle }

// NewProjector returns an empty projector.
func NewProjector(opts Options) *Projector {
	return &Projector{
		opts:      opts,
		cards:     map[string]*prHandle{},
		shells:    map[string]*prHandle{},
		footers:   map[trKey][]*prHandle{},
		advert:    map[string]struct{}{},
		summaries: trSummaries{},
		timing:    trTimingTable{},
	}
}

// Transcript returns the transcript so far. Items is the projector's own
// slice, and the payloads it points to are updated in place: both are valid
// until the next Apply and must not be modified; copy what must outlive it.
func (p *Projector) Transcript() Transcript {
	t := Transcript{Items: p.items, Progress: p.progress.get()}
	if len(t.Items) == 0 {
		t.Items = nil // as Project has it
	}
	return t
}

// Apply projects the next event of the log and reports what changed.
func (p *Projector) Apply(e *sessionlog.Event) Change {
	d := trDecode(e, &p.summaries, false)
	p.opts.Texts.share(&d)
	return p.applyDecoded(e, &d)
}

// ApplyDecoded is Apply of e decoded by a Decoder given the same Options
// and fed the same log. The decoding is shared with other projections, so
// the projector copies what of it it edits in place (a shell card).
func (p *Projector) ApplyDecoded(e *sessionlog.Event, dd *Decoded) Change {
	d := dd.d
	if d.summarized {
		p.summaries[e.Seq] = d.summary
	}
	if d.item.Shell != nil {
		card := *d.item.Shell
		d.item.Shell = &card
	}
	return p.applyDecoded(e, &d)
}

// applyDecoded applies e, decoded as d, which it may keep and edit.
func (p *Projector) applyDecoded(e *sessionlog.Event, d *trDecoded) Change {
	p.from, p.dirty = len(p.items), nil
	p.progress.apply(d, e)
	if d.op == trOpToolCall && !trAdvertised(p.advert, d.call.CallID) {
		return p.change() // an orphan call renders nothing and moves no bucket
	}
	if key, changed := p.timing.apply(d, e.Time); changed {
		p.refreshFooters(key)
	}
	switch d.op {
	case trOpItem:
		p.add(d.item)
	case trOpStepStart:
		p.lastDone = nil
		if p.opts.EagerSteps {
			p.newStep(e.Seq, d.key)
		}
	case trOpChunk:
		if p.current == nil || p.items[p.current.block.pos].Step.Settled {
			p.newStep(e.Seq, d.key)
		}
		h := p.current.block
		if h.stream == nil {
			h.stream = &trStream{}
		}
		if h.stream.apply(&d.chunk) {
			p.items[h.pos].Step.Blocks = h.stream.Blocks()
			p.touch(h)
		}
	case trOpMessage:
		trAdvertise(p.advert, d.adverts)
		if p.current == nil || p.items[p.current.block.pos].Step.Settled {
			p.newStep(e.Seq, d.key)
		}
		h := p.current.block
		h.stream = nil
		s := p.items[h.pos].Step
		s.Settled, s.Blocks = true, d.blocks
		p.touch(h)
	case trOpStepEnd:
		if p.current == nil {
			p.newStep(e.Seq, d.key)
		}
		h := p.current.footer
		f := p.items[h.pos].Footer
		f.Completed, f.CompletedAt = true, e.Time
		p.touch(h)
		p.lastDone, p.current = p.current, nil
	case trOpToolCall:
		card := d.call
		p.cards[card.CallID] = p.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard, Tool: &card})
		p.moveCurrentFooter()
	case trOpToolResult:
		if h, ok := p.cards[d.result.CallID]; ok {
			delete(p.cards, d.result.CallID)
			d.result.setOn(p.items[h.pos].Tool)
			p.touch(h)
		} else {
			card := &ToolCard{CallID: d.result.CallID, Name: "tool", Orphan: true}
			d.result.setOn(card)
			p.add(Item{ID: ItemID{e.Seq, PartMain}, Kind: KindToolCard, Tool: card})
		}
		p.moveCurrentFooter()
	case trOpRetry:
		if s := RemovedStep(sessionlog.TypeLLMRetry, p.current, p.lastDone); s != nil {
			p.removeStep(s)
		}
		p.current, p.lastDone = nil, nil
		p.add(d.item)
	case trOpTurnEnd:
		if s := RemovedStep(sessionlog.TypeTurnEnd, p.current, p.lastDone); s != nil {
			p.removeStep(s)
		}
		p.current, p.lastDone = nil, nil
		if d.item.Kind != 0 {
			p.add(d.item)
		}
	case trOpShellStart:
		p.shells[d.item.Shell.ID] = p.add(d.item)
	case trOpShellDone:
		if h, ok := p.shells[d.shellID]; ok {
			delete(p.shells, d.shellID)
			settleShell(p.items[h.pos].Shell, d.shellResult)
			p.touch(h)
		}
	}
	return p.change()
}

func (p *Projector) change() Change {
	var dirty []int
	for _, i := range p.dirty {
		if i < p.from {
			dirty = append(dirty, i)
		}
	}
	slices.Sort(dirty)
	return Change{From: p.from, Dirty: slices.Compact(dirty)}
}

// touch records an in-place update of h's item.
func (p *Projector) touch(h *prHandle) {
	p.items[h.pos].Rev++
	if h.pos < p.from {
		p.dirty = append(p.dirty, h.pos)
	}
}

func (p *Projector) add(item Item) *prHandle {
	h := &prHandle{pos: len(p.items)}
	p.items = append(p.items, item)
	p.handles = append(p.handles, h)
	return h
}

// reindex fixes the positions of the items from i on after a structural
// change there.
func (p *Projector) reindex(i int) {
	for j := i; j < len(p.handles); j++ {
		p.handles[j].pos = j
	}
	p.from = min(p.from, i)
}

func (p *Projector) remove(h *prHandle) {
	if h.removed {
		return
	}
	h.removed = true
	i, last := h.pos, len(p.items)-1
	copy(p.items[i:], p.items[i+1:])
	copy(p.handles[i:], p.handles[i+1:])
	p.items[last], p.handles[last] = Item{}, nil
	p.items, p.handles = p.items[:last], p.handles[:last]
	p.reindex(i)
}

func (p *Projector) moveCurrentFooter() {
	if p.current == nil {
		return
	}
	h := p.current.footer
	i, last := h.pos, len(p.items)-1
	if i == last {
		return
	}
	item := p.items[i]
	copy(p.items[i:], p.items[i+1:])
	copy(p.handles[i:], p.handles[i+1:])
	p.items[last], p.handles[last] = item, h
	p.reindex(i)
}

func (p *Projector) newStep(seq int64, key trKey) {
	s := &prStep{
		block: p.add(Item{ID: ItemID{seq, PartMain}, Kind: KindStep, Step: &Step{Turn: key.turn, Step: key.step}}),
		footer: p.add(Item{ID: ItemID{seq, PartFooter}, Kind: KindFooter,
			Footer: &Footer{Turn: key.turn, Step: key.step, Timing: p.timing.get(key)}}),
	}
	if !p.timing.ended(key) {
		p.footers[key] = append(p.footers[key], s.footer)
	}
	p.current = s
}

func (p *Projector) removeStep(s *prStep) {
	if !s.footer.removed {
		f := p.items[s.footer.pos].Footer
		trForgetFooter(p.footers, trKey{f.Turn, f.Step}, s.footer)
	}
	p.remove(s.footer)
	p.remove(s.block)
}

// refreshFooters copies key's buckets into its footers; once the step has
// ended they never change again and are forgotten.
func (p *Projector) refreshFooters(key trKey) {
	r := p.timing[key]
	live := p.footers[key][:0]
	for _, h := range p.footers[key] {
		if h.removed {
			continue
		}
		live = append(live, h)
		if f := p.items[h.pos].Footer; f.Timing != r.t {
			f.Timing = r.t
			p.touch(h)
		}
	}
	if r.ended || len(live) == 0 {
		delete(p.footers, key)
	} else {
		p.footers[key] = live
	}
}

// Settled returns how many of the transcript's first items no later event
// can change, move or remove: those before the first item still pending
// (a tool card awaiting its result, an unfinished shell card, a footer
// whose buckets still run, the current and the last completed step). A
// reader that compares the transcript as it grows may read them and Drop
// them.
func (p *Projector) Settled() int {
	var steps []*prHandle
	for _, s := range [...]*prStep{p.current, p.lastDone} {
		if s != nil {
			steps = append(steps, s.block, s.footer)
		}
	}
	return trFirstPending(len(p.items), func(h *prHandle) (int, bool) { return h.pos, !h.removed },
		p.cards, p.shells, p.footers, steps)
}

// Drop forgets the transcript's first n items, which must be settled
// (Settled): Transcript no longer holds them, and the indexes of a later
// Change count from the first item kept. It costs the items kept, so a
// reader drops in stretches, not one item at a time.
func (p *Projector) Drop(n int) {
	if n < 0 || n > p.Settled() {
		panic("transcript: Drop of items not settled")
	}
	rest := copy(p.items, p.items[n:])
	copy(p.handles, p.handles[n:])
	clear(p.items[rest:])
	clear(p.handles[rest:])
	p.items, p.handles = p.items[:rest], p.handles[:rest]
	for i, h := range p.handles {
		h.pos = i
	}
}

// trForgetFooter drops h, a footer removed from the transcript, from the
// footers whose buckets still run: a step removed before its timing ends
// (one that drew nothing) would otherwise stay there for good, and every
// Settled would read it again (on a million events of short turns, a
// third of repro's CPU).
func trForgetFooter[H comparable](footers map[trKey][]H, key trKey, h H) {
	hs := footers[key]
	if i := slices.Index(hs, h); i >= 0 {
		hs = slices.Delete(hs, i, i+1)
	}
	if len(hs) == 0 {
		delete(footers, key)
	} else {
		footers[key] = hs
	}
}

// trFirstPending is the one rule of what a path has settled, for the live
// projector and the replay alike: the least place, below end, of an item a
// later event may still reach (a card awaiting its result, an unfinished
// shell card, a footer whose buckets still run, the current and the last
// completed step's items). place says where a handle's item is, and
// whether it is still there.
func trFirstPending[H any](end int, place func(H) (int, bool), cards, shells map[string]H, footers map[trKey][]H, steps []H) int {
	lower := func(h H) {
		if at, ok := place(h); ok {
			end = min(end, at)
		}
	}
	for _, h := range cards {
		lower(h)
	}
	for _, h := range shells {
		lower(h)
	}
	for _, hs := range footers {
		for _, h := range hs {
			lower(h)
		}
	}
	for _, h := range steps {
		lower(h)
	}
	return end
}
