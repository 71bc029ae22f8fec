// The envelope walkers read raw JSON event lines without decoding them, so
// that the reader's per-event rules (load-time upgrades, crash recovery) can leave the
// common current-shape event untouched at the cost of a byte scan instead of
// a full decode. Logs hold up to millions of events; most are chunks that no
// rule looks inside.
//
// The walkers never copy, never allocate on the fast paths and never panic.
// They check member structure, not full JSON validity: a caller that is about
// to rewrite or refuse a line runs json.Valid on it first.

package fastjson

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/dshtest/dshtest/sessionlog"
)

// Member is one member of a JSON object: its decoded key and raw value.
type Member struct {
	Key   string
	Value []byte
}

// Members splits obj, a JSON object, into its members in first-occurrence
// order. A repeated key keeps its first position and takes its last value,
// as JavaScript's JSON.parse does (upstream's reader). ok is false when obj
// is not an object or its member structure is broken.
func Members(obj []byte) (members []Member, ok bool) {
	var index map[string]int // built once an object is too large to search
	ok = Each(obj, func(key string, val []byte) bool {
		if index == nil && len(members) > 16 {
			index = make(map[string]int, 2*len(members))
			for i, m := range members {
				index[m.Key] = i
			}
		}
		if index != nil {
			if i, seen := index[key]; seen {
				members[i].Value = val
				return true
			}
			index[key] = len(members)
		} else {
			for i := range members {
				if members[i].Key == key {
					members[i].Value = val
					return true
				}
			}
		}
		members = append(members, Member{key, val})
		return true
	})
	if !ok {
		return nil, false
	}
	if members == nil {
		members = []Member{}
	}
	return members, true
}

// Each calls fn for each member of the object at the start of b (after
// white space), in order, until fn returns false. Bytes after the object's
// closing brace are ignored, so b may be the rest of an enclosing document.
// ok is false when the structure is broken before fn stopped the walk.
func Each(b []byte, fn func(key string, val []byte) bool) (ok bool) {
	return each(b, func(rawKey []byte, val []byte) bool {
		return fn(keyString(rawKey), val)
	})
}

// each is Each with the key still in its raw (quoted) form.
func each(b []byte, fn func(rawKey, val []byte) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end > len(b) {
			return false
		}
		key := b[i:end]
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = SkipSpace(b, i+1)
		end = SkipValue(b, i)
		if end < 0 {
			return false
		}
		if !fn(key, b[i:end]) {
			return true
		}
		i = SkipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
}

// Find returns the raw value of the first member named key of the object at
// the start of b. It stops at that member, so finding an early key in a long
// line costs only the bytes before it.
func Find(b []byte, key string) (val []byte, ok bool) {
	each(b, func(rawKey, v []byte) bool {
		if keyIs(rawKey, key) {
			val, ok = v, true
			return false
		}
		return true
	})
	return val, ok
}

// keyIs reports whether rawKey (quoted, possibly escaped) spells key.
func keyIs(rawKey []byte, key string) bool {
	if len(rawKey) == len(key)+2 && string(rawKey[1:len(rawKey)-1]) == key {
		return true
	}
	if bytes.IndexByte(rawKey, '\\') < 0 {
		return false
	}
	return keyString(rawKey) == key
}

// keyString decodes a quoted key. A key that does not decode (broken escape)
// is returned raw, which matches no real key.
func keyString(rawKey []byte) string {
	if bytes.IndexByte(rawKey, '\\') < 0 && utf8.Valid(rawKey) {
		return sessionlog.Intern(rawKey[1 : len(rawKey)-1])
	}
	s, ok := String(rawKey)
	if !ok {
		return string(rawKey)
	}
	return s
}

// Type returns the value of a line's top-level "type" member when it is a
// string. The fast path reads a line that starts {"type":"…" (how upstream's
// JSON.stringify writes every event) without walking the rest of it.
func Type(line []byte) (string, bool) {
	const prefix = `{"type":"`
	if bytes.HasPrefix(line, []byte(prefix)) {
		rest := line[len(prefix):]
		if end := bytes.IndexByte(rest, '"'); end >= 0 && bytes.IndexByte(rest[:end], '\\') < 0 {
			return sessionlog.Intern(rest[:end]), true
		}
	}
	v, ok := Find(line, "type")
	if !ok {
		return "", false
	}
	return String(v)
}

// String decodes a raw JSON string value. ok is false for any other value.
func String(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) && skipString(raw, 0) == len(raw) {
		return sessionlog.Intern(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Number parses a raw JSON number as JavaScript does (a float64).
func Number(raw []byte) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !isRange(err) {
		return 0, false
	}
	return f, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// maxSafe is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafe = 1<<53 - 1

// SafeInt reports whether raw is a JSON number that JavaScript's
// Number.isSafeInteger accepts, and its value. -0 is a safe integer.
func SafeInt(raw []byte) (int64, bool) {
	f, ok := Number(raw)
	if !ok || f != math.Trunc(f) || math.Abs(f) > maxSafe {
		return 0, false
	}
	return int64(f), true
}

// IsObject reports whether raw is a JSON object (upstream's asRecord: an
// object, not an array, not null).
func IsObject(raw []byte) bool {
	return len(raw) > 0 && raw[0] == '{'
}

// FormatNumber formats a raw JSON number as JavaScript's String(n) does for
// the values a log holds (integers print without exponent or fraction), so
// that minted ids and refusal texts read as upstream's do.
func FormatNumber(raw []byte) string {
	f, ok := Number(raw)
	if !ok {
		return string(raw)
	}
	if f == 0 { // String(-0) is "0"
		return "0"
	}
	if math.IsInf(f, 0) { // a literal beyond float64's range
		if f < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// SkipValue returns the index just past the JSON value starting at b[i], or
// -1 when none does.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		if end := skipString(b, i); end <= len(b) {
			return end
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end > len(b) {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) {
			switch b[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
				if j == i {
					return -1
				}
				return j
			}
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// Quote encodes s as a JSON string without HTML escaping (upstream's
// JSON.stringify leaves <, > and & as they are).
func Quote(s string) []byte { return AppendQuote(nil, s) }

// AppendQuote appends Quote(s) to b. A string of printable ASCII with no
// quote or backslash, most keys and ids, is written as it is: what the
// encoder would write (FuzzAppendQuote).
func AppendQuote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Object writes members as a compact JSON object, keys re-quoted and values
// copied raw.
func Object(members []Member) []byte {
	n := 2
	for _, m := range members {
		n += len(m.Key) + len(m.Value) + 4 // quotes, colon, comma
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendQuote(b, m.Key)
		b = append(b, ':')
		b = append(b, m.Value...)
	}
	return append(b, '}')
}

// Has reports whether members holds key.
func Has(members []Member, key string) bool {
	_, ok := Get(members, key)
	return ok
}

// Get returns the value of key in members.
func Get(members []Member, key string) ([]byte, bool) {
	for _, m := range members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Without returns members minus the named keys, order kept.
func Without(members []Member, keys ...string) []Member {
	out := make([]Member, 0, len(members))
next:
	for _, m := range members {
		for _, k := range keys {
			if m.Key == k {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

// OnlyKeys is upstream's hasOnlyKeys: every required key is present and no
// key falls outside required ∪ optional.
func OnlyKeys(members []Member, required []string, optional ...string) bool {
	for _, k := range required {
		if !Has(members, k) {
			return false
		}
	}
next:
	for _, m := range members {
		for _, k := range required {
			if m.Key == k {
				continue next
			}
		}
		for _, k := range optional {
			if m.Key == k {
				continue next
			}
		}
		return false
	}
	return true
}

// Set returns members with key set to val: in place when present (a JS
// spread followed by an override keeps the key's position), else appended.
func Set(members []Member, key string, val []byte) []Member {
	out := append([]Member(nil), members...)
	for i := range out {
		if out[i].Key == key {
			out[i].Value = val
			return out
		}
	}
	return append(out, Member{key, val})
}

// JSText renders a raw JSON value as JavaScript's template literal
// `${value}` does for the values a log holds: numbers as String(n), strings
// unquoted, null and booleans as their words, objects as "[object Object]".
// present is false for an absent member, which renders "undefined".
func JSText(raw []byte, present bool) string {
	if !present {
		return "undefined"
	}
	if _, ok := Number(raw); ok {
		return FormatNumber(raw)
	}
	if s, ok := String(raw); ok {
		return s
	}
	if IsObject(raw) {
		return "[object Object]"
	}
	return string(raw)
}

// Elements calls fn for each element of the array at the start of b, in
// order, until fn returns false. ok is false when b holds no well-formed
// array before fn stopped the walk.
func Elements(b []byte, fn func(val []byte) bool) (ok bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for {
		end := SkipValue(b, i)
		if end < 0 {
			return false
		}
		if !fn(b[i:end]) {
			return true
		}
		i = SkipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
}
