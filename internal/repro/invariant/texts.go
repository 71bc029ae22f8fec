package invariant

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/internal/ground/spread"
	"github.com/dshtest/dshtest/internal/ground/swar"
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
	// norms are what of text a rendered document must hold (shownNorms),
	// nil when they are not kept (keptNorms): normsOf works them out
	// again. keys are their keys (normKey), always kept.
	norms [][]byte
	keys  []uint64
	// whole is the key (normKey) of text's whole norm, and markers how
	// many times that norm holds the marker's: what the payload and
	// marker checks ask of a text (payloadFinder, quotedMarkers).
	whole   uint64
	markers int
}

// keptNorms is how many bytes of norms shownTexts keeps, in log order,
// and keptNorm the most of one text's: the norms of a log of long texts
// are about as large as its texts, and working them out again costs less
// than holding them. A text of megabytes costs as much to work out again
// as to search, and a log of a few of them has a budget of a few times
// their size (at least 64 MiB) for all of repro.
const (
	keptNorms = 16 << 20
	keptNorm  = 1 << 20
)

// normsOf returns s's norms, worked out again if they are not kept.
func (s *shownText) normsOf() [][]byte {
	if s.norms == nil && len(s.keys) > 0 {
		return shownNorms(s.text, s.kind == "prompt")
	}
	return s.norms
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
		m, ok := fastjson.ScanMessage(raw)
		if !ok && json.Unmarshal(raw, &m) != nil {
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
		d, ok := fastjson.ScanAssistantMessage(e.Data)
		if !ok && json.Unmarshal(e.Data, &d) != nil {
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
// looks for in a rendered document: the prompts and the assistant texts,
// with the keys of their norms (normKey with seed) and the norms
// themselves up to keptNorms bytes.
func shownTexts(want []Text, seed maphash.Seed) []shownText {
	var out []shownText
	for _, w := range want {
		switch {
		case w.Kind == transcript.KindPrompt:
			out = append(out, shownText{seq: w.Seq, kind: "prompt", text: w.Text})
		case w.Kind == transcript.KindStep && w.Text != "":
			out = append(out, shownText{seq: w.Seq, kind: "assistant", text: w.Text})
		}
	}
	slices.SortStableFunc(out, func(a, b shownText) int { return cmp.Compare(a.seq, b.seq) })
	// The texts are worked out side by side (repro's second read waits
	// for them), a batch of about shownBatch bytes of text at a time, and
	// what the batch's norms hold past the budget let go in log order.
	marker := []byte(norm(transcript.MarkerText))
	sizes := make([]int, len(out))
	kept := 0
	for lo := 0; lo < len(out); {
		hi, text := lo+1, len(out[lo].text)
		for ; hi < len(out) && text+len(out[hi].text) <= shownBatch; hi++ {
			text += len(out[hi].text)
		}
		spread.Each(hi-lo, func() func(int) {
			return func(k int) { sizes[lo+k] = out[lo+k].work(seed, marker) }
		})
		for i := lo; i < hi; i++ {
			if size := sizes[i]; size <= keptNorm && kept+size <= keptNorms {
				kept += size
			} else {
				out[i].norms = nil
			}
		}
		lo = hi
	}
	return out
}

// shownBatch is about how many bytes of text shownTexts works out at a
// time: the norms of a batch are held until the budget decides which it
// keeps.
const shownBatch = 1 << 20

// work works out s's norms (shownNorms), their keys, its whole norm's key
// and marker count, and returns the norms' size. The text is escaped once
// for all of them.
func (s *shownText) work(seed maphash.Seed, marker []byte) (size int) {
	escaped := display.Escape(s.text)
	whole := keepLettersDigits([]byte(escaped), 0)
	s.whole = maphash.Bytes(seed, whole) // as normKey(seed, norm(s.text))
	s.markers = bytes.Count(whole, marker)
	s.norms = escapedNorms(escaped, s.kind == "prompt")
	s.keys = make([]uint64, len(s.norms))
	for k, n := range s.norms {
		s.keys[k] = maphash.Bytes(seed, n) // as normKey(seed, string(n))
		size += len(n)
	}
	return size
}

// norm reduces text to its letters and digits after the renderer's control
// escape, so that a text can be found in a rendered document whatever the
// wrapping, padding and Markdown styling.
func norm(s string) string { return lettersDigits(display.Escape(s)) }

func lettersDigits(s string) string { return string(keepLettersDigits([]byte(s), 0)) }

// lettersDigitsBytes is lettersDigits in a buffer of its own, made once:
// the norm of a text of megabytes is about as long.
func lettersDigitsBytes(s string) []byte { return slices.Clip(keepLettersDigits([]byte(s), 0)) }

// shownNorms returns the norms a rendered document must hold for a
// prompt's (prompt) or an answer's text, in order: those of the stretches
// its Markdown shows (markdown.ShownText), which are not the text's own
// words where a link, an image, a link definition or a table is. A text
// that is nothing but tables has no norm.
func shownNorms(text string, prompt bool) [][]byte {
	return escapedNorms(display.Escape(text), prompt)
}

// escapedNorms is shownNorms of a text already escaped.
func escapedNorms(escaped string, prompt bool) [][]byte {
	var out [][]byte
	for _, s := range markdown.ShownText(escaped, prompt) {
		if n := lettersDigitsBytes(s); len(n) > 0 {
			out = append(out, n)
		}
	}
	return out
}

// appendRowNorm appends the letters and digits of a styled row, its
// styling skipped (screen.AppendPlain). A drawn row is mostly its padding:
// the trailing spaces are cut first, since a space is neither a letter nor
// a digit, nor does what follows an escape decide how it is read.
func appendRowNorm(b []byte, row string) []byte {
	start := len(b)
	for len(row) >= 8 && swar.Load(row[len(row)-8:]) == eightSpaces { // the padding, eight at a time
		row = row[:len(row)-8]
	}
	return keepLettersDigits(screen.AppendPlain(b, strings.TrimRight(row, " ")), start)
}

// eightSpaces is eight spaces as one word (swar.Load).
const eightSpaces = 0x2020202020202020

// keepLettersDigits filters b[start:] in place down to its letters and
// digits: the one rule of what a norm keeps.
func keepLettersDigits(b []byte, start int) []byte {
	w := start // what is kept never overtakes what is read
	for r := start; r < len(b); {
		if c := b[r]; c < utf8.RuneSelf {
			// Branch-free: every byte of a drawn row passes here.
			b[w] = c
			w += int(asciiKept[c])
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

// asciiKept is 1 for the ASCII letters and digits, 0 for any other byte
// below utf8.RuneSelf (keepLettersDigits).
var asciiKept = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			t[c] = 1
		}
	}
	return t
}()

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
			if slices.ContainsFunc(w.keys, func(k uint64) bool { return c.sized[i].lacking[k] }) {
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
