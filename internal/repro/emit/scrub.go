package emit

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/sessionlog"
)

// Scrub returns an anonymised copy of a log that draws the same shapes:
//
//   - Every string value of every payload becomes filler of the same
//     display width, grapheme cluster by grapheme cluster: a word (a run
//     of one-cell clusters that are neither digits nor kept) becomes a
//     filler word of as many letters, spelled with fillerLetters and
//     upper case where the word's cluster was; digits become '0',
//     two-cell clusters '宽'. White space, ASCII punctuation, controls
//     (C0, DEL, C1), zero-width clusters and U+FFFD are kept, so line
//     structure, Markdown and escaping cases survive.
//   - The same word (ignoring case) becomes the same filler word
//     throughout the log, and different words different ones (as long as
//     there are filler words of their length to go round), in order of
//     first appearance: what the invariants compare (a summary that
//     quotes a prompt, a payload line that shows) compares the same in
//     the scrubbed log, so its verdicts are the original's. A filler word
//     says nothing of its word but its length.
//   - Ids become aliases in order of first appearance: message ids id-N,
//     call ids (callId, toolCallId, a tool-call block's or delta's id)
//     call-N, compactionId cmp-N, sourceCommandId cmd-N, sessionId
//     session-N, goalId goal-N, rpcId rpc-N. A session reference's label
//     equal to its sessionId gets the same alias.
//   - Structural values are kept: object keys and the values of type,
//     kind, role, op, blockType, status, mode, reason, provider, model,
//     plugin, form, name, policyKey, code, reasoningEffort, mediaType.
//   - A tool call's arguments that parse as JSON keep their keys and
//     layout; only their string values are scrubbed.
//
// Numbers, booleans, seqs, times, surfaceOp and sourceEventSeqs are
// unchanged, so the result folds exactly as the input did (a pruned copy
// still differs from its original only in content). Payload strings are
// re-encoded as JSON.stringify would write them; an escape the decoder
// maps to U+FFFD (a lone surrogate) is written as U+FFFD itself.
func Scrub(events []sessionlog.Event) ([]sessionlog.Event, error) {
	s := newScrubber()
	out := make([]sessionlog.Event, len(events))
	for i, e := range events {
		v, err := jsonobj.Decode(e.Data)
		if err != nil {
			return nil, fmt.Errorf("emit: scrub seq %d: %w", e.Seq, err)
		}
		e.Data = jsonobj.Append(nil, s.value(v, ""), jsonobj.AppendString)
		out[i] = e
	}
	return out, nil
}

type scrubber struct {
	alias map[string]map[string]string
	count map[string]int
	// words maps a word, in lower case, to its filler word; spelt[n]
	// counts the filler words of n letters handed out.
	words map[string]string
	spelt map[int]int
}

func newScrubber() *scrubber {
	return &scrubber{alias: map[string]map[string]string{}, count: map[string]int{},
		words: map[string]string{}, spelt: map[int]int{}}
}

// idPrefix maps id-bearing keys to their alias namespaces.
var idPrefix = map[string]string{
	"callId":          "call",
	"toolCallId":      "call",
	"compactionId":    "cmp",
	"sourceCommandId": "cmd",
	"sessionId":       "session",
	"goalId":          "goal",
	"rpcId":           "rpc",
}

var keepKeys = map[string]bool{
	"type": true, "kind": true, "role": true, "op": true, "blockType": true, "status": true,
	"mode": true, "reason": true, "provider": true, "model": true, "plugin": true, "form": true,
	"name": true, "policyKey": true, "code": true, "reasoningEffort": true, "mediaType": true,
}

func (s *scrubber) id(ns, v string) string {
	m := s.alias[ns]
	if m == nil {
		m = map[string]string{}
		s.alias[ns] = m
	}
	if a, ok := m[v]; ok {
		return a
	}
	s.count[ns]++
	a := fmt.Sprintf("%s-%d", ns, s.count[ns])
	m[v] = a
	return a
}

// value returns v scrubbed, in place where v holds objects or arrays; key
// is the object key v sits under.
func (s *scrubber) value(v any, key string) any {
	switch x := v.(type) {
	case jsonobj.Object:
		s.object(x)
	case []any:
		for i, e := range x {
			x[i] = s.value(e, key)
		}
	case string:
		if !keepKeys[key] {
			return s.filler(x)
		}
	}
	return v
}

func (s *scrubber) object(o jsonobj.Object) {
	typ, _ := o.Get("type")
	callBlock := typ == "tool-call" || typ == "tool-call-delta"
	sessionID := ""
	if sv, ok := o.Get("sessionId"); ok {
		sessionID, _ = sv.(string)
	}
	for i, f := range o {
		str, ok := f.Value.(string)
		if !ok {
			o[i].Value = s.value(f.Value, f.Key)
			continue
		}
		switch k := f.Key; {
		case k == "id":
			if callBlock {
				o[i].Value = s.id("call", str)
			} else {
				o[i].Value = s.id("id", str)
			}
		case idPrefix[k] != "":
			o[i].Value = s.id(idPrefix[k], str)
		case k == "label" && sessionID != "" && str == sessionID:
			o[i].Value = s.id("session", str)
		case k == "arguments":
			o[i].Value = s.arguments(str)
		default:
			o[i].Value = s.value(str, k)
		}
	}
}

// arguments scrubs a raw JSON arguments string: string values only when
// it parses, as plain text otherwise.
func (s *scrubber) arguments(raw string) string {
	v, err := jsonobj.Decode([]byte(raw))
	if err != nil || !json.Valid([]byte(raw)) {
		return s.filler(raw)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case jsonobj.Object:
			for i := range x {
				x[i].Value = walk(x[i].Value)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case string:
			return s.filler(x)
		}
		return v
	}
	return string(jsonobj.Append(nil, walk(v), jsonobj.AppendString))
}

// fillerLetters spell filler words. No word of them starts a link (www.,
// http:, mailto:), names an HTML entity (&…;) or an HTML block's tag, so
// the Markdown of a scrubbed text parses as the original's did.
const fillerLetters = "xqzjkvy"

// fillerSpelt is how many of a filler word's first letters tell it from
// the others of its length; the rest are 'x'.
const fillerSpelt = 8

// filler returns same-width filler for str (see Scrub), cluster by
// cluster.
func (s *scrubber) filler(str string) string {
	var b strings.Builder
	var word []string // the clusters of the word being read
	flush := func() {
		if len(word) == 0 {
			return
		}
		f := s.fillerWord(strings.ToLower(strings.Join(word, "")), len(word))
		for i, g := range word {
			c := f[i]
			if r, _ := utf8.DecodeRuneInString(g); unicode.IsUpper(r) {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
		}
		word = word[:0]
	}
	for str != "" {
		g, w := ansi.FirstGraphemeCluster(str, ansi.GraphemeWidth)
		if g == "" {
			_, size := utf8.DecodeRuneInString(str)
			g, w = str[:size], 0
		}
		str = str[len(g):]
		r, _ := utf8.DecodeRuneInString(g)
		if w == 1 && !keepCluster(g) && (r >= utf8.RuneSelf || !unicode.IsDigit(r)) {
			word = append(word, g)
			continue
		}
		flush()
		switch {
		case keepCluster(g), w == 0:
			b.WriteString(g)
		case w >= 2:
			b.WriteString("宽")
		default: // an ASCII digit
			b.WriteByte('0')
		}
	}
	flush()
	return b.String()
}

// fillerWord returns the lower-case filler word of n letters for word:
// the one it was given, or the next of that length.
func (s *scrubber) fillerWord(word string, n int) string {
	if f, ok := s.words[word]; ok && len(f) == n {
		return f
	}
	k := s.spelt[n]
	s.spelt[n]++
	f := make([]byte, n)
	for i := range f {
		f[i] = 'x'
		if i < fillerSpelt {
			f[i] = fillerLetters[k%len(fillerLetters)]
			k /= len(fillerLetters)
		}
	}
	s.words[word] = string(f)
	return string(f)
}

// keepCluster reports whether a cluster carries structure rather than
// content: white space, ASCII punctuation and symbols, controls, U+FFFD.
func keepCluster(g string) bool {
	for _, r := range g {
		switch {
		case unicode.IsSpace(r), r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == utf8.RuneError:
		case r < utf8.RuneSelf && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
		default:
			return false
		}
	}
	return true
}
