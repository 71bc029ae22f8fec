package fastjson

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/dshtest/dshtest/sessionlog"
)

// Raw JSON walking without decoding, for the codec's envelope and the
// tool/result rewrite rule. The walkers never copy and never panic; on
// malformed input they report ok == false (callers that need validity run
// json.Valid first).

// field is one member of a JSON object: its key and raw value.
type Field struct {
	Key string
	Val json.RawMessage
}

// Span is one member of a JSON object split by an earlier pass over it: its
// key, decoded, and where its value lies in the object's bytes,
// [Start:End). Offsets, not a slice, so that the bytes may be copied.
type Span struct {
	Key        string
	Start, End int
}

// FieldsOf is SplitObjectInto of raw given the spans an earlier pass split
// it into.
func FieldsOf(fields []Field, raw []byte, spans []Span) []Field {
	fields = fields[:0]
	for _, sp := range spans {
		fields = append(fields, Field{sp.Key, raw[sp.Start:sp.End]})
	}
	return fields
}

// SplitObject splits raw holding a JSON object into its members, in order,
// repeated keys included. Values are sub-slices of raw. ok is false when raw
// is not an object or its member structure is broken.
func SplitObject(raw []byte) (fields []Field, ok bool) {
	return SplitObjectInto(make([]Field, 0, 8), raw)
}

// SplitObjectInto is SplitObject appending to fields[:0] (a buffer the
// caller reuses line after line).
func SplitObjectInto(fields []Field, raw []byte) ([]Field, bool) {
	fields = fields[:0]
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = SkipSpace(raw, i+1)
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
		k, ok := DecodeString(raw[i:end])
		if !ok {
			return nil, false
		}
		i = SkipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
		end = skipValue(raw, i)
		if end <= i || end > len(raw) {
			return nil, false
		}
		fields = append(fields, Field{k, raw[i:end]})
		i = SkipSpace(raw, end)
		if i < len(raw) && raw[i] == '}' {
			return fields, true
		}
		if i >= len(raw) || raw[i] != ',' {
			return nil, false
		}
		i = SkipSpace(raw, i+1)
	}
}

// ObjectMembers is SplitObject as a map; a repeated key keeps its last
// value, as decoding does.
func ObjectMembers(raw []byte) (map[string][]byte, bool) {
	fields, ok := SplitObject(raw)
	if !ok {
		return nil, false
	}
	m := make(map[string][]byte, len(fields))
	for _, f := range fields {
		m[f.Key] = f.Val
	}
	return m, true
}

// Lookup returns the value of the first member named key.
func Lookup(fields []Field, key string) (json.RawMessage, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f.Val, true
		}
	}
	return nil, false
}

// HasDuplicateKey reports whether a key repeats.
func HasDuplicateKey(fields []Field) bool {
	for i := range fields {
		for j := range i {
			if fields[i].Key == fields[j].Key {
				return true
			}
		}
	}
	return false
}

// DecodeString decodes a JSON string token (quotes included). Plain ASCII
// or valid UTF-8 without escapes is converted directly; anything else goes
// through encoding/json, which also turns invalid UTF-8 into U+FFFD.
func DecodeString(tok []byte) (string, bool) {
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
		return sessionlog.Intern(body), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return "", false
	}
	return s, true
}

// SplitArrayInto appends the elements of raw holding a JSON array to
// elems[:0], in order; values are sub-slices of raw. ok is false when raw
// is not an array or its structure is broken.
func SplitArrayInto(elems [][]byte, raw []byte) ([][]byte, bool) {
	elems = elems[:0]
	c := NewArrayCursor(raw)
	for {
		v, more := c.Next()
		if !more {
			break
		}
		elems = append(elems, v)
	}
	if c.Broken() {
		return nil, false
	}
	return elems, true
}

// ArrayCursor walks the elements of a JSON array one at a time, as
// SplitArrayInto splits them, holding none: a packed chunk row of millions
// of members is expanded as its events are read, not all at once.
type ArrayCursor struct {
	raw    []byte
	i      int  // where the next element starts
	done   bool // no element is left
	broken bool // raw is not an array, or its structure is broken
}

// NewArrayCursor returns a cursor at the first element of raw.
func NewArrayCursor(raw []byte) ArrayCursor {
	c := ArrayCursor{raw: raw}
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		c.done, c.broken = true, true
		return c
	}
	c.i = SkipSpace(raw, i+1)
	if c.i < len(raw) && raw[c.i] == ']' {
		c.close()
	}
	return c
}

// close ends the walk at the array's closing bracket, c.i: nothing but
// white space may follow it.
func (c *ArrayCursor) close() {
	c.done = true
	c.broken = SkipSpace(c.raw, c.i+1) != len(c.raw)
}

// Next returns the next element, a sub-slice of the array, and true; false
// once there is none, or the structure is broken (Broken).
func (c *ArrayCursor) Next() ([]byte, bool) {
	if c.done {
		return nil, false
	}
	raw, i := c.raw, c.i
	end := skipValue(raw, i)
	if end <= i || end > len(raw) {
		c.done, c.broken = true, true
		return nil, false
	}
	c.i = SkipSpace(raw, end)
	switch {
	case c.i < len(raw) && raw[c.i] == ']':
		c.close()
	case c.i < len(raw) && raw[c.i] == ',':
		c.i = SkipSpace(raw, c.i+1)
	default:
		c.done, c.broken = true, true
	}
	return raw[i:end], true
}

// Broken reports whether the walk found raw not to be a well-formed array.
// An element Next returned before the fault is not itself at fault.
func (c *ArrayCursor) Broken() bool { return c.broken }

// FirstElement returns the first element of raw holding a non-empty JSON
// array; ok is false for anything else.
func FirstElement(raw []byte) ([]byte, bool) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i = SkipSpace(raw, i+1)
	if i >= len(raw) || raw[i] == ']' {
		return nil, false
	}
	end := skipValue(raw, i)
	if end <= i || end > len(raw) {
		return nil, false
	}
	return raw[i:end], true
}

// SoleElement returns the element of raw holding a JSON array of exactly
// one element; ok is false for anything else.
func SoleElement(raw []byte) ([]byte, bool) {
	first, ok := FirstElement(raw)
	if !ok {
		return nil, false
	}
	end := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n")) // index of '['
	end = SkipSpace(raw, end+1) + len(first)
	i := SkipSpace(raw, end)
	return first, i < len(raw) && raw[i] == ']'
}

func SkipSpace(raw []byte, i int) int {
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
