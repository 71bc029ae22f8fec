package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
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
		v, err := parseValue(e.Data)
		if err != nil {
			return nil, fmt.Errorf("emit: scrub seq %d: %w", e.Seq, err)
		}
		s.value(v, "")
		e.Data = v.appendTo(nil)
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

// value scrubs v in place; key is the object key v sits under.
func (s *scrubber) value(v *jvalue, key string) {
	switch v.kind {
	case 'o':
		s.object(v)
	case 'a':
		for _, e := range v.arr {
			s.value(e, key)
		}
	case 's':
		if keepKeys[key] {
			return
		}
		v.str = Filler(v.str)
	}
}

func (s *scrubber) object(v *jvalue) {
	typ, _ := v.get("type")
	callBlock := typ != nil && typ.kind == 's' && (typ.str == "tool-call" || typ.str == "tool-call-delta")
	sessionID := ""
	if sv, ok := v.get("sessionId"); ok && sv.kind == 's' {
		sessionID = sv.str
	}
	for i, k := range v.keys {
		val := v.vals[i]
		if val.kind != 's' {
			s.value(val, k)
			continue
		}
		switch {
		case k == "id":
			if callBlock {
				val.str = s.id("call", val.str)
			} else {
				val.str = s.id("id", val.str)
			}
		case idPrefix[k] != "":
			val.str = s.id(idPrefix[k], val.str)
		case k == "label" && sessionID != "" && val.str == sessionID:
			val.str = s.id("session", val.str)
		case k == "arguments":
			val.str = scrubArguments(val.str)
		default:
			s.value(val, k)
		}
	}
}

// scrubArguments scrubs a raw JSON arguments string: string values only
// when it parses, as plain text otherwise.
func scrubArguments(raw string) string {
	v, err := parseValue([]byte(raw))
	if err != nil || !json.Valid([]byte(raw)) {
		return Filler(raw)
	}
	var walk func(*jvalue)
	walk = func(v *jvalue) {
		switch v.kind {
		case 'o':
			for _, e := range v.vals {
				walk(e)
			}
		case 'a':
			for _, e := range v.arr {
				walk(e)
			}
		case 's':
			v.str = Filler(v.str)
		}
	}
	walk(v)
	return string(v.appendTo(nil))
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

// jvalue is a JSON value with object key order kept.
type jvalue struct {
	kind byte // 'o' object, 'a' array, 's' string, 'l' other literal
	keys []string
	vals []*jvalue
	arr  []*jvalue
	str  string // string value, or a literal's text
}

func (v *jvalue) get(k string) (*jvalue, bool) {
	for i, key := range v.keys {
		if key == k {
			return v.vals[i], true
		}
	}
	return nil, false
}

func parseValue(raw []byte) (*jvalue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseNext(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func parseNext(dec *json.Decoder) (*jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			v := &jvalue{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				e, err := parseNext(dec)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k)
				v.vals = append(v.vals, e)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &jvalue{kind: 'a', arr: []*jvalue{}}
		for dec.More() {
			e, err := parseNext(dec)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, e)
		}
		_, err := dec.Token()
		return v, err
	case string:
		return &jvalue{kind: 's', str: t}, nil
	case json.Number:
		return &jvalue{kind: 'l', str: t.String()}, nil
	case bool:
		return &jvalue{kind: 'l', str: fmt.Sprint(t)}, nil
	case nil:
		return &jvalue{kind: 'l', str: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func (v *jvalue) appendTo(dst []byte) []byte {
	switch v.kind {
	case 'o':
		dst = append(dst, '{')
		for i, k := range v.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonl.AppendJSONString(dst, k)
			dst = append(dst, ':')
			dst = v.vals[i].appendTo(dst)
		}
		return append(dst, '}')
	case 'a':
		dst = append(dst, '[')
		for i, e := range v.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.appendTo(dst)
		}
		return append(dst, ']')
	case 's':
		return jsonl.AppendJSONString(dst, v.str)
	}
	return append(dst, v.str...)
}
