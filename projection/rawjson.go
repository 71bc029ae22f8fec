package projection

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Raw JSON walking without decoding, for the codec's envelope and the
// tool/result rewrite rule. The walkers never copy and never panic; on
// malformed input they report ok == false (callers that need validity run
// json.Valid first).

// field is one member of a JSON object: its key and raw value.
type field struct {
	key string
	val json.RawMessage
}

// splitObject splits raw holding a JSON object into its members, in order,
// repeated keys included. Values are sub-slices of raw. ok is false when raw
// is not an object or its member structure is broken.
func splitObject(raw []byte) (fields []field, ok bool) {
	return splitObjectInto(make([]field, 0, 8), raw)
}

// splitObjectInto is splitObject appending to fields[:0] (a buffer the
// caller reuses line after line).
func splitObjectInto(fields []field, raw []byte) ([]field, bool) {
	fields = fields[:0]
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return fields, true
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		end := skipString(raw, i)
		if end > len(raw) {
			return nil, false
		}
		k, ok := decodeString(raw[i:end])
		if !ok {
			return nil, false
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		end = skipValue(raw, i)
		if end <= i || end > len(raw) {
			return nil, false
		}
		fields = append(fields, field{k, raw[i:end]})
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == '}' {
			return fields, true
		}
		if i >= len(raw) || raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
}

// objectMembers is splitObject as a map; a repeated key keeps its last
// value, as decoding does.
func objectMembers(raw []byte) (map[string][]byte, bool) {
	fields, ok := splitObject(raw)
	if !ok {
		return nil, false
	}
	m := make(map[string][]byte, len(fields))
	for _, f := range fields {
		m[f.key] = f.val
	}
	return m, true
}

// lookup returns the value of the first member named key.
func lookup(fields []field, key string) (json.RawMessage, bool) {
	for _, f := range fields {
		if f.key == key {
			return f.val, true
		}
	}
	return nil, false
}

// hasDuplicateKey reports whether a key repeats.
func hasDuplicateKey(fields []field) bool {
	for i := range fields {
		for j := range i {
			if fields[i].key == fields[j].key {
				return true
			}
		}
	}
	return false
}

// decodeString decodes a JSON string token (quotes included). Plain ASCII
// or valid UTF-8 without escapes is converted directly; anything else goes
// through encoding/json, which also turns invalid UTF-8 into U+FFFD.
func decodeString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", false
	}
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		for _, c := range body {
			if c < 0x20 {
				return "", false
			}
		}
		if s, ok := internedStrings[string(body)]; ok {
			return s, true
		}
		return string(body), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return "", false
	}
	return s, true
}

// firstElement returns the first element of raw holding a non-empty JSON
// array; ok is false for anything else.
func firstElement(raw []byte) ([]byte, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if i >= len(raw) || raw[i] == ']' {
		return nil, false
	}
	end := skipValue(raw, i)
	if end <= i || end > len(raw) {
		return nil, false
	}
	return raw[i:end], true
}

// soleElement returns the element of raw holding a JSON array of exactly
// one element; ok is false for anything else.
func soleElement(raw []byte) ([]byte, bool) {
	first, ok := firstElement(raw)
	if !ok {
		return nil, false
	}
	end := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n")) // index of '['
	end = skipSpace(raw, end+1) + len(first)
	i := skipSpace(raw, end)
	return first, i < len(raw) && raw[i] == ']'
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at raw[i].
// On malformed input it returns some index that may be ≤ i or > len(raw);
// callers check.
func skipValue(raw []byte, i int) int {
	depth := 0
	for i < len(raw) {
		switch raw[i] {
		case '"':
			i = skipString(raw, i)
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 {
				for i < len(raw) && !isDelim(raw[i]) {
					i++
				}
				return i
			}
			i++
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at raw[i],
// or len(raw)+1 when it is not terminated.
func skipString(raw []byte, i int) int {
	for j := i + 1; j < len(raw); {
		k := bytes.IndexByte(raw[j:], '"')
		if k < 0 {
			break
		}
		q := j + k
		backslashes := 0
		for p := q - 1; p > i && raw[p] == '\\'; p-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return len(raw) + 1
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// internedStrings are the strings a log repeats on every line, envelope
// keys and event types: decodeString returns these rather than allocate a
// copy per line. The table is built once and only read.
var internedStrings = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{"type", "seq", "time", "data", "surfaceOp", "sourceEventSeqs", "ignorable",
		TypeTurnStart, TypeTurnEnd, TypeStepStart, TypeStepEnd, TypeUserMessage, TypeSteeringMessage,
		TypeAssistantChunk, TypeAssistantMessage, TypeToolCall, TypeToolResult, TypeTodoWrite,
		TypeRequestHeader, TypeRequestContext, TypeSessionTitle, TypeSessionEndSeed, TypeLLMRetry,
		TypeCompactionStart, TypeCompactionSummary, TypeCompactionEnd, TypeCompactionPrune,
		TypeCompactStart, TypeCompactSummary, TypeCompactEnd, TypeLegacyHeaderDelta} {
		m[s] = s
	}
	return m
}()
