package invariant

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/markdown"
	"github.com/dshtest/dshtest/transcript"
)

// This file is no-lost-message: the oracle of the texts a transcript must
// show, and their search in rendered documents.

// shownText is a message text the transcript must show.
type shownText struct {
	seq  int64
	kind string // "prompt" or "assistant"
	text string
	// norms are what of text a rendered document must hold (shownNorms).
	norms []string
}

// Text is a text the transcript must show, read from the log alone.
type Text struct {
	Seq        int64
	Kind       transcript.ItemKind
	Header     string // prompts
	Text       string
	Reasoning  string // steps
	SessionRef int    // number of entries, for session references
}

// ExpectedTexts is the invariants' one oracle of what a transcript must
// show. It reads, from the log alone, what the transcript must keep:
// every append-origin prompt and context with non-empty text, every
// well-formed session reference, and every settled append-origin assistant
// message with a non-empty text or reasoning whose step block survives.
//
// Which step blocks survive follows terminal.md §2.3 and §2.6: a block is
// created at the step's first chunk, message or step/end (or at step/start
// under the eager rule), a second message in a settled block starts a new
// one, llm/retry removes the current block (else the one step/end just
// completed), and turn/end removes a block still open.
func ExpectedTexts(events []sessionlog.Event, eager bool) []Text {
	x := newExpecter(eager, nil)
	for i := range events {
		x.add(&events[i])
	}
	return x.texts()
}

// expecter is ExpectedTexts for a log read an event at a time.
type expecter struct {
	eager            bool
	shared           *transcript.Texts // the texts it shares with the projections
	out              []Text
	blocks           []*expectedBlock
	current, lastEnd *expectedBlock
}

// expectedBlock is a step block and the assistant texts it shows.
type expectedBlock struct {
	settled bool
	msgs    []Text
	removed bool
}

func newExpecter(eager bool, texts *transcript.Texts) *expecter {
	return &expecter{eager: eager, shared: texts}
}

func (x *expecter) newBlock() *expectedBlock {
	b := &expectedBlock{}
	x.blocks = append(x.blocks, b)
	x.current = b
	return b
}

// add reads the log's next event.
func (x *expecter) add(e *sessionlog.Event) {
	if sessionlog.IsReplacementSurfaceEvent(e) {
		return
	}
	switch sessionlog.Canonical(e.Type) {
	case sessionlog.TypeUserMessage, sessionlog.TypeSteeringMessage:
		raw := e.Data
		header := "You"
		if e.Type == sessionlog.TypeSteeringMessage {
			var d struct {
				Message json.RawMessage `json:"message"`
			}
			_ = json.Unmarshal(e.Data, &d)
			raw, header = d.Message, "Steering"
		}
		var m sessionlog.Message
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		text := x.shared.Share(sessionlog.TrimJS(sessionlog.ContentText(m.Content)))
		src := fastjson.DecodeSource(m.Source)
		switch {
		case e.Type == sessionlog.TypeSteeringMessage || src.Kind == "user":
			if text != "" {
				x.out = append(x.out, Text{Seq: e.Seq, Kind: transcript.KindPrompt, Header: header, Text: text})
			}
		case src.Kind == "session-reference" && sessionRefEntries(m.Source) >= 0:
			x.out = append(x.out, Text{Seq: e.Seq, Kind: transcript.KindSessionRef, SessionRef: sessionRefEntries(m.Source)})
		case text != "":
			x.out = append(x.out, Text{Seq: e.Seq, Kind: transcript.KindContext, Text: text})
		}
	case sessionlog.TypeStepStart:
		x.lastEnd = nil
		if x.eager {
			x.newBlock()
		}
	case sessionlog.TypeAssistantChunk:
		if x.current == nil || x.current.settled {
			x.newBlock()
		}
	case sessionlog.TypeAssistantMessage:
		if x.current == nil || x.current.settled {
			x.newBlock()
		}
		x.current.settled = true
		var d sessionlog.AssistantMessageData
		if json.Unmarshal(e.Data, &d) != nil {
			return
		}
		st := transcript.Step{Blocks: blocksOf(d.Message.Content)}
		x.shared.ShareBlocks(st.Blocks)
		if t := (Text{Seq: e.Seq, Kind: transcript.KindStep, Text: st.Text(), Reasoning: st.Reasoning()}); t.Text != "" || t.Reasoning != "" {
			x.current.msgs = append(x.current.msgs, t)
		}
	case sessionlog.TypeStepEnd:
		if x.current == nil {
			x.newBlock()
		}
		x.lastEnd, x.current = x.current, nil
	case sessionlog.TypeLLMRetry, sessionlog.TypeTurnEnd:
		if b := transcript.RemovedStep(e.Type, x.current, x.lastEnd); b != nil {
			b.removed = true
		}
		x.current, x.lastEnd = nil, nil
	}
}

// texts returns the expected texts of the events added.
func (x *expecter) texts() []Text {
	out := x.out
	for _, b := range x.blocks {
		if !b.removed {
			out = append(out, b.msgs...)
		}
	}
	return out
}

func blocksOf(content []sessionlog.ContentBlock) []transcript.Block {
	var out []transcript.Block
	for _, c := range content {
		out = append(out, transcript.Block{Type: c.Type, Text: c.Text})
	}
	return out
}

// sessionRefEntries returns the number of references of a well-formed
// session-reference source (terminal.md §2.1.2), or -1.
func sessionRefEntries(source json.RawMessage) int {
	var s struct {
		References []map[string]json.RawMessage `json:"references"`
	}
	if json.Unmarshal(source, &s) != nil || s.References == nil {
		return -1
	}
	for _, r := range s.References {
		var a, b string
		if json.Unmarshal(r["sessionId"], &a) != nil || json.Unmarshal(r["label"], &b) != nil {
			return -1
		}
	}
	return len(s.References)
}

// shownTexts keeps, in log order, the texts of want that no-lost-message
// looks for in a rendered document: the prompts and the assistant texts.
func shownTexts(want []Text) []shownText {
	var out []shownText
	for _, w := range want {
		switch {
		case w.Kind == transcript.KindPrompt:
			out = append(out, shownText{w.Seq, "prompt", w.Text, shownNorms(w.Text, true)})
		case w.Kind == transcript.KindStep && w.Text != "":
			out = append(out, shownText{w.Seq, "assistant", w.Text, shownNorms(w.Text, false)})
		}
	}
	slices.SortStableFunc(out, func(a, b shownText) int { return cmp.Compare(a.seq, b.seq) })
	return out
}

// norm reduces text to its letters and digits after the renderer's control
// escape, so that a text can be found in a rendered document whatever the
// wrapping, padding and Markdown styling.
func norm(s string) string { return lettersDigits(display.Escape(s)) }

func lettersDigits(s string) string { return string(keepLettersDigits([]byte(s), 0)) }

// shownNorms returns the norms a rendered document must hold for a
// prompt's (prompt) or an answer's text, in order: those of the stretches
// its Markdown shows (markdown.ShownText), which are not the text's own
// words where a link, an image, a link definition or a table is. A text
// that is nothing but tables has no norm.
func shownNorms(text string, prompt bool) []string {
	var out []string
	for _, s := range markdown.ShownText(display.Escape(text), prompt) {
		if n := lettersDigits(s); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// docNorm is norm over a whole rendered document.
func docNorm(lines []string) string {
	var b []byte
	for _, l := range lines {
		b = appendRowNorm(b, l)
	}
	return string(b)
}

// appendRowNorm appends the letters and digits of a styled row, its
// styling skipped (screen.AppendPlain).
func appendRowNorm(b []byte, row string) []byte {
	start := len(b)
	return keepLettersDigits(screen.AppendPlain(b, row), start)
}

// keepLettersDigits filters b[start:] in place down to its letters and
// digits: the one rule of what a norm keeps.
func keepLettersDigits(b []byte, start int) []byte {
	w := start // what is kept never overtakes what is read
	for r := start; r < len(b); {
		if c := b[r]; c < utf8.RuneSelf {
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				b[w] = c
				w++
			}
			r++
			continue
		}
		ru, n := utf8.DecodeRune(b[r:])
		if unicode.IsLetter(ru) || unicode.IsDigit(ru) {
			w += copy(b[w:], b[r:r+n])
		}
		r += n
	}
	return b[:w]
}

// textNorms are the norms of the log's expected texts, in log order, and
// how many times each must show.
type textNorms struct {
	norms []string
	need  map[string]int
}

func (c *Checker) textNorms() *textNorms {
	t := &textNorms{need: map[string]int{}}
	for _, w := range c.expected() {
		for _, n := range w.norms {
			t.norms = append(t.norms, n)
			t.need[n]++
		}
	}
	return t
}

func (c *Checker) checkNoLoss() (bool, string) {
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
		var at []string
		for i, sz := range c.sizes {
			if slices.ContainsFunc(w.norms, func(n string) bool { return c.sized[i].lacking[n] }) {
				at = append(at, sz.String())
			}
		}
		if len(at) > 0 {
			missing = append(missing, fmt.Sprintf("seq %d %s %s (at %s)", w.seq, w.kind, screen.Preview(display.Escape(w.text), 40), strings.Join(at, ", ")))
		}
	}
	if len(missing) > 0 {
		n := len(missing)
		if n > 4 {
			missing = append(missing[:4], fmt.Sprintf("%d more", n-4))
		}
		return false, fmt.Sprintf("%d of %d texts missing: %s", n, len(want), strings.Join(missing, "; "))
	}
	return true, fmt.Sprintf("%s and %s shown at every size", words.Plural(prompts, "prompt"), words.Plural(assistant, "assistant text"))
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
