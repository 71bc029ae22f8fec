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
//     display width, grapheme cluster by grapheme cluster: letters become
//     'x' (or 'X'), digits '0', any other one-cell cluster 'x', two-cell
//     clusters '宽'. White space, ASCII punctuation, controls (C0, DEL,
//     C1), zero-width clusters and U+FFFD are kept, so line structure,
//     Markdown and escaping cases survive.
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
	s := &scrubber{alias: map[string]map[string]string{}, count: map[string]int{}}
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
			return Filler(x)
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
			o[i].Value = scrubArguments(str)
		default:
			o[i].Value = s.value(str, k)
		}
	}
}

// scrubArguments scrubs a raw JSON arguments string: string values only
// when it parses, as plain text otherwise.
func scrubArguments(raw string) string {
	v, err := jsonobj.Decode([]byte(raw))
	if err != nil || !json.Valid([]byte(raw)) {
		return Filler(raw)
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
			return Filler(x)
		}
		return v
	}
	return string(jsonobj.Append(nil, walk(v), jsonobj.AppendString))
}

// Filler returns same-width filler for s (see Scrub), cluster by cluster.
func Filler(s string) string {
	var b strings.Builder
	for s != "" {
		g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if g == "" {
			_, size := utf8.DecodeRuneInString(s)
			g, w = s[:size], 0
		}
		s = s[len(g):]
		r, _ := utf8.DecodeRuneInString(g)
		switch {
		case keepCluster(g):
			b.WriteString(g)
		case w >= 2:
			b.WriteString("宽")
		case w == 0:
			b.WriteString(g)
		case r < utf8.RuneSelf && unicode.IsDigit(r):
			b.WriteByte('0')
		case unicode.IsUpper(r):
			b.WriteByte('X')
		default:
			b.WriteByte('x')
		}
	}
	return b.String()
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
