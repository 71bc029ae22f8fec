package terminal

import (
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/dshtest/dshtest/internal/ground/spread"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/markdown"
	"github.com/dshtest/dshtest/terminal/palette"
	"github.com/dshtest/dshtest/transcript"
)

// The pure renderer: a transcript's items laid out as rows under fixed
// settings, a batch of items at a time, on several goroutines for a long
// document. Cards are drawn by terminal/cards, Markdown bodies laid out by
// terminal/markdown.
//
// Drawers lay an item out at several widths at once, so the part of its
// layout that does not depend on the width is worked out once for all of
// them and dropped with the item: the judgement, split, measure and parse
// of its Markdown bodies (markdown.Memo), and a tool card's presenter
// view, header and escaped body (cards.Layouts). Repro draws its three
// sizes in step. A model keeps nothing between widths: a resize in view
// redraws a screenful (about 30 us, BenchmarkResize), too little to gain,
// and a layout kept for every item would cost memory for the whole
// transcript.

// Render renders the whole transcript document at s.Width. It is a pure
// function of its arguments.
func Render(t transcript.Transcript, s Settings) Document {
	return Document{Width: max(s.Width, 1), Lines: slices.Collect(RenderRows(t, s))}
}

// RenderRows yields the rows of Render(t, s) one at a time, rendering the
// items a batch at a time (batchEnd, on several goroutines: renderEach) as
// their rows are reached, so that a caller writing them out holds a
// batch's rows rather than the document's.
func RenderRows(t transcript.Transcript, s Settings) iter.Seq[string] {
	return func(yield func(string) bool) {
		d := NewDrawer(s)
		_ = d.Draw(t.Items, yield) && d.End(t.Progress, yield)
	}
}

// A Drawer draws a transcript that arrives a stretch of items at a time,
// in order, into the rows RenderRows yields for the whole transcript: for
// a reader that never holds the whole transcript (repro compares the live
// and replay paths as the log streams, dropping what both have drawn). It
// keeps none of the items it drew, only what the hidden tool mode's rule
// for folded steps reads of earlier items: which turns have shown a step.
type Drawer struct {
	s     Settings
	r     *renderer
	shown map[int64]bool // the turns whose first visible step is drawn
	rows  [][]string     // a batch's rows, reused
}

// NewDrawer returns a Drawer of a transcript's document under s.
func NewDrawer(s Settings) *Drawer {
	return &Drawer{s: s, r: newRenderer(s), shown: map[int64]bool{}}
}

// Drawers draw one transcript's documents at several sizes, a stretch of
// items at a time, laying each item out once for every size: what of it
// does not depend on the width (the parse of its Markdown bodies) is
// worked out for the first size and reused for the others. Each size's
// rows are RenderRows' rows under its settings.
type Drawers struct {
	ds   []*Drawer
	memo *widthMemo  // the one goroutine's, when the items are few
	rs   []*renderer // with memo, one per size
}

// NewDrawers returns Drawers of a transcript's documents under each of
// settings.
func NewDrawers(settings []Settings) *Drawers {
	g := &Drawers{memo: newWidthMemo()}
	for _, s := range settings {
		g.ds = append(g.ds, NewDrawer(s))
		g.rs = append(g.rs, withMemo(s, g.memo))
	}
	return g
}

// heavyText is the text of a stretch that Drawers lay out one size at a
// time, each without a memo: its rows at every size at once, and its
// parse beside them, would be megabytes each.
const heavyText = 1 << 20

// Draw lays out items, the transcript's next stretch, at every size, a
// batch at a time (batchEnd, on several goroutines when they are many),
// and hands each size's rows, item by item, to rows. A batch of heavyText
// or more is laid out and handed one size at a time, heavy set: rows must
// then be done with them before it returns, and Draw lays the next size
// out once it has.
func (g *Drawers) Draw(items []transcript.Item, rows func(size int, items [][]string, heavy bool)) {
	for start, end := 0, 0; start < len(items); start = end {
		end = batchEnd(items, start, len(items))
		batch := items[start:end]
		conts := make([][]bool, len(g.ds))
		for i, d := range g.ds {
			conts[i] = d.continuations(batch)
		}
		if textOf(batch) >= heavyText {
			for i, d := range g.ds {
				out := make([][]string, len(batch))
				d.render(batch, conts[i], out)
				rows(i, out, true)
			}
			continue
		}
		out := make([][][]string, len(g.ds))
		for i := range out {
			out[i] = make([][]string, len(batch))
		}
		g.layout(batch, conts, out)
		for i := range g.ds {
			rows(i, out[i], false)
		}
	}
}

// layout renders batch at every size into out[size], each item at every
// size in turn with one memo: on this goroutine when the work is little
// or there is one CPU, else spread as renderEach spreads it, each
// goroutine with renderers and a memo of its own.
func (g *Drawers) layout(batch []transcript.Item, conts [][]bool, out [][][]string) {
	each := func(rs []*renderer, memo *widthMemo, k int) {
		for i, r := range rs {
			out[i][k] = r.item(&batch[k], conts[i][k])
		}
		memo.reset()
	}
	spreadWork(len(batch), len(batch)*len(g.ds), func(k int) { each(g.rs, g.memo, k) }, func() func(int) {
		memo := newWidthMemo()
		rs := make([]*renderer, len(g.ds))
		for i, d := range g.ds {
			rs[i] = withMemo(d.s, memo)
		}
		return func(k int) { each(rs, memo, k) }
	})
}

// End hands each size's last rows, the standalone compaction indicator
// of p (nil: none), to rows.
func (g *Drawers) End(p *transcript.Progress, rows func(size int, items [][]string, heavy bool)) {
	if p == nil {
		return
	}
	for i, d := range g.ds {
		rows(i, [][]string{d.r.progress(p)}, false)
	}
}

// Draw yields the rows of items, the transcript's next stretch, rendering
// them a batch at a time (batchEnd, on several goroutines: renderEach). An
// item's rows are let go before its last row is yielded. It returns false
// once yield does.
func (d *Drawer) Draw(items []transcript.Item, yield func(string) bool) bool {
	for start, end := 0, 0; start < len(items); start = end {
		end = batchEnd(items, start, len(items))
		batch := items[start:end]
		cont := d.continuations(batch)
		if cap(d.rows) < len(batch) {
			d.rows = make([][]string, len(batch))
		}
		rows := d.rows[:len(batch)]
		d.render(batch, cont, rows)
		for k, item := range rows {
			rows[k] = nil
			for _, row := range item {
				if !yield(row) {
					clear(rows)
					return false
				}
			}
		}
	}
	return true
}

// render renders batch, with its continuation marks, into out
// (renderEach).
func (d *Drawer) render(batch []transcript.Item, cont []bool, out [][]string) {
	renderEach(len(batch), d.s, d.r, func(r *renderer, k int) {
		out[k] = r.item(&batch[k], cont[k])
	})
}

// textOf is about how many bytes of text items' rows show (itemText).
func textOf(items []transcript.Item) int {
	n := 0
	for i := range items {
		n += itemText(&items[i])
	}
	return n
}

// End yields the document's last rows, the standalone compaction
// indicator of p (nil: none). It returns false once yield does.
func (d *Drawer) End(p *transcript.Progress, yield func(string) bool) bool {
	if p == nil {
		return true
	}
	for _, row := range d.r.progress(p) {
		if !yield(row) {
			return false
		}
	}
	return true
}

// continuations marks, in hidden mode, the step items of items that are
// folded continuations (terminal.md §3.2): every step of a turn except
// the first, in creation order, with a visible body. The turns shown are
// remembered across stretches.
func (d *Drawer) continuations(items []transcript.Item) []bool {
	cont := make([]bool, len(items))
	if d.s.Tools != display.ToolsHidden {
		return cont
	}
	for i := range items {
		st := items[i].Step
		if items[i].Kind != transcript.KindStep || st == nil {
			continue
		}
		if !d.shown[st.Turn] && visibleBody(st, !d.s.HideReasoning) {
			d.shown[st.Turn] = true
			continue
		}
		cont[i] = true
	}
	return cont
}

// visibleBody reports whether a step shows a body: non-empty text, or
// non-empty reasoning while reasoning is shown.
func visibleBody(st *transcript.Step, reasoning bool) bool {
	hasText, hasReasoning := blockPresence(st)
	return hasText || (reasoning && hasReasoning)
}

// blockPresence reports whether the step's joined, trimmed text and
// reasoning are non-empty, without joining them.
func blockPresence(st *transcript.Step) (text, reasoning bool) {
	for _, b := range st.Blocks {
		switch b.Type {
		case "text":
			text = text || sessionlog.TrimJS(b.Text) != ""
		case "reasoning":
			reasoning = reasoning || sessionlog.TrimJS(b.Text) != ""
		}
	}
	return text, reasoning
}

// renderer renders items under fixed settings.
type renderer struct {
	s     Settings
	pal   *palette.Palette
	width int
	cards cards.Renderer
	memo  *markdown.Memo // nil, or shared by the renderers of other widths
	texts *itemTexts     // nil, or shared by the renderers of other widths
}

// widthMemo is what renderers of one item at several widths share of its
// layout: the Markdown bodies', the tool cards' and the item's texts.
type widthMemo struct {
	md    *markdown.Memo
	cards *cards.Layouts
	texts *itemTexts
}

func newWidthMemo() *widthMemo {
	return &widthMemo{md: markdown.NewMemo(), cards: cards.NewLayouts(), texts: &itemTexts{}}
}

// reset forgets the item laid out.
func (m *widthMemo) reset() {
	m.md.Reset()
	m.cards.Reset()
	*m.texts = itemTexts{}
}

// itemTexts are the texts of one item that do not depend on the width (a
// step's escaped text and reasoning, a footer's line), worked out by the
// renderer of the first width and reused by the others: joining and
// escaping a step's text again at each width was a tenth of what each
// further size cost repro.
type itemTexts struct {
	have [itemTextKinds]bool
	text [itemTextKinds]string
	// The clock a footer's line was worked out under: renderers of other
	// settings work it out again.
	now int64
	loc *time.Location
}

// The texts itemTexts keeps.
const (
	stepText = iota
	stepReasoning
	footerLine
	itemTextKinds
)

// footer returns the line of footer f under r's clock.
func (r *renderer) footer(f *transcript.Footer) string {
	t := r.texts
	if t == nil {
		return footerText(f, r.s.Now, r.s.Location)
	}
	if !t.have[footerLine] || t.now != r.s.Now || t.loc != r.s.Location {
		t.have[footerLine], t.now, t.loc = true, r.s.Now, r.s.Location
		t.text[footerLine] = footerText(f, r.s.Now, r.s.Location)
	}
	return t.text[footerLine]
}

// itemText returns the item's text of kind k, which f works out: once for
// every width when r shares its texts.
func (r *renderer) itemText(k int, f func() string) string {
	t := r.texts
	if t == nil {
		return f()
	}
	if !t.have[k] {
		t.have[k], t.text[k] = true, f()
	}
	return t.text[k]
}

// withMemo returns a renderer for s that keeps the width-independent
// layout of what it draws in memo, for the renderers of the same items at
// other widths.
func withMemo(s Settings, memo *widthMemo) *renderer {
	r := newRenderer(s)
	r.memo, r.cards.Memo, r.cards.Layouts, r.texts = memo.md, memo.md, memo.cards, memo.texts
	return r
}

func newRenderer(s Settings) *renderer {
	pal := palette.For(s.Scheme)
	if s.Unstyled {
		pal = palette.Unstyled()
	}
	r := &renderer{s: s, width: max(s.Width, 1), pal: pal}
	maxLines := s.MaxToolOutputLines
	if maxLines <= 0 {
		maxLines = cards.DefaultMaxToolOutputLines
	}
	r.cards = cards.Renderer{Width: r.width, Palette: r.pal, MaxLines: maxLines, Tools: s.Tools,
		Presenters: s.Presenters}
	return r
}

// parallelMin is the number of items to render from which renderEach
// spreads them over several goroutines; documentBatch is how many items
// RenderRows and DocumentRows render at a time, and documentBatchText how
// much text at most (a batch holds its items' rows, which are larger than
// their text: 2048 items of long prompts held hundreds of megabytes).
const (
	parallelMin       = 512
	documentBatch     = 2048
	documentBatchText = 4 << 20
)

// batchEnd returns the end of the batch of items that starts at start,
// n items in all: documentBatch items, fewer when they hold more than
// documentBatchText bytes of text, and at least one. An index past items
// (the progress pseudo-item) counts as no text.
func batchEnd(items []transcript.Item, start, n int) int {
	end, text := start, 0
	for end < n && end-start < documentBatch && (end == start || text < documentBatchText) {
		if end < len(items) {
			text += itemText(&items[end])
		}
		end++
	}
	return end
}

// itemText is about how many bytes of text an item's rows show.
func itemText(it *transcript.Item) int {
	switch {
	case it.Prompt != nil:
		return len(it.Prompt.Text)
	case it.Context != nil:
		return len(it.Context.Text)
	case it.Step != nil:
		n := 0
		for _, b := range it.Step.Blocks {
			n += len(b.Text)
		}
		return n
	case it.Tool != nil:
		n := len(it.Tool.Arguments)
		for _, b := range it.Tool.Result {
			n += len(b.Text)
		}
		return n
	}
	return 0
}

// renderEach calls render(r, k) for each k in [0, n): on this goroutine,
// with r, when n is below parallelMin or there is one CPU; else spread
// over up to 8 goroutines, each with a renderer of its own for s (a
// renderer is not safe for concurrent use), and back when all are done.
// An item's rows are a function of the item and the settings, so the
// output is the same either way.
func renderEach(n int, s Settings, r *renderer, render func(r *renderer, k int)) {
	spreadWork(n, n, func(k int) { render(r, k) }, func() func(int) {
		r := newRenderer(s)
		return func(k int) { render(r, k) }
	})
}

// spreadWork calls each k in [0, n) with here, on this goroutine, when the
// work (in items rendered at one width) is below parallelMin or there is
// one CPU; else over the CPUs (spread.Each), each goroutine calling with
// what newWorker makes it (renderers are not safe for concurrent use), and
// back when all are done.
func spreadWork(n, work int, here func(k int), newWorker func() func(k int)) {
	if spread.Workers() < 2 || work < parallelMin {
		for k := range n {
			here(k)
		}
		return
	}
	spread.Each(n, newWorker)
}

// text wraps logical lines to the width and renders them as padded rows.
func (r *renderer) text(lines []display.Line) []string {
	return r.pal.Wrapped(lines, r.width)
}

// item renders one transcript item; cont marks a folded continuation step.
// An unstyled row's trailing spaces are cut (Settings.Unstyled), whatever
// drew it.
func (r *renderer) item(it *transcript.Item, cont bool) []string {
	rows := r.drawItem(it, cont)
	if r.s.Unstyled {
		for i, row := range rows {
			rows[i] = strings.TrimRight(row, " ")
		}
	}
	return rows
}

// drawItem is item, its unstyled rows not yet cut.
func (r *renderer) drawItem(it *transcript.Item, cont bool) []string {
	switch it.Kind {
	case transcript.KindPrompt:
		if it.Prompt == nil {
			return nil
		}
		rows := []string{"", r.header(it.Prompt.Header)}
		return append(rows, r.mdText(r.memo.Rows(display.Escape(it.Prompt.Text), plain, markdown.PromptMode, r.width))...)
	case transcript.KindContext:
		if it.Context == nil {
			return nil
		}
		return r.cards.ContextCard(it.Context)
	case transcript.KindSessionRef:
		if it.SessionRef == nil {
			return nil
		}
		items := make([]string, len(it.SessionRef.Entries))
		for i, e := range it.SessionRef.Entries {
			items[i] = display.Escape(e)
		}
		return append([]string{""}, r.dimText("Referenced sessions · "+strings.Join(items, ", "))...)
	case transcript.KindStep:
		if it.Step == nil {
			return nil
		}
		return r.step(it.Step, cont)
	case transcript.KindFooter:
		if it.Footer == nil {
			return nil
		}
		return r.dimText(r.footer(it.Footer))
	case transcript.KindToolCard:
		if it.Tool == nil || r.s.Tools == display.ToolsHidden {
			return nil
		}
		return r.cards.ToolCard(it.Tool)
	case transcript.KindNotice:
		if it.Notice == nil {
			return nil
		}
		st := dimSty
		switch it.Notice.Level {
		case transcript.LevelWarning:
			st = yellowSty
		case transcript.LevelError:
			st = redSty
		}
		return append([]string{""}, r.styledText(display.Escape(it.Notice.Text), st)...)
	case transcript.KindMarker:
		return append([]string{""}, r.dimText(transcript.MarkerText)...)
	case transcript.KindShell:
		if it.Shell == nil || r.s.Tools == display.ToolsHidden {
			return nil
		}
		return r.cards.ShellCard(it.Shell)
	}
	return nil
}

// header renders a role header: bold, underline and accent on the label
// only, padded.
func (r *renderer) header(label string) string {
	return r.text([]display.Line{display.TextLine(display.EscapeInline(label), headerSty)})[0]
}

func (r *renderer) dimText(s string) []string { return r.styledText(s, dimSty) }

// styledText renders display-safe text, one logical line per LF, in one
// style.
func (r *renderer) styledText(s string, st display.Style) []string {
	var rows []string
	for l := range strings.SplitSeq(s, "\n") {
		if display.TextWidth(l) <= r.width { // its one row, as Wrap leaves it
			rows = append(rows, r.pal.PaddedText(l, st, r.width))
			continue
		}
		rows = append(rows, r.text([]display.Line{display.TextLine(l, st)})...)
	}
	return rows
}

func (r *renderer) step(st *transcript.Step, cont bool) []string {
	showReasoning := !r.s.HideReasoning
	reasoning := ""
	if showReasoning {
		reasoning = r.itemText(stepReasoning, func() string { return display.Escape(st.Reasoning()) })
	}
	text := r.itemText(stepText, func() string { return display.Escape(st.Text()) })
	if cont && reasoning == "" && text == "" {
		return nil
	}
	rows := []string{""}
	if !cont {
		rows = append(rows, r.header("Assistant"))
	}
	if reasoning != "" {
		rows = append(rows, r.text([]display.Line{display.TextLine("Reasoning", reasonSty)})...)
		rows = append(rows, r.mdText(r.memo.Rows(reasoning, reasonSty, markdown.ReasoningMode, r.width))...)
	}
	if text != "" {
		rows = append(rows, r.mdText(r.memo.Rows(text, plain, markdown.TextMode, r.width))...)
	}
	return rows
}

// progress renders the standalone compaction indicator.
func (r *renderer) progress(p *transcript.Progress) []string {
	return append([]string{""}, r.dimText(progressText(p, r.s.Now))...)
}

// mdText renders Markdown rows as padded rows.
func (r *renderer) mdText(rows []markdown.Row) []string {
	out := make([]string, len(rows))
	for i, row := range rows {
		out[i] = r.pal.Padded(row.Line, r.width, row.Pad)
	}
	return out
}
