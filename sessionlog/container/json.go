package container

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file is the minimal, exact look at a record that the torn-tail rules
// need (containers.md §2, §5): the envelope's type and seq, and for packed
// rows the strict validation upstream's decoder applies (validateRow). It
// walks JSON that json.Valid has already accepted, so the walkers need not
// re-check the grammar. Keys are compared exactly (encoding/json's struct
// decoding folds case; JSON.parse does not).

const maxSafe = 1<<53 - 1

// skipWS returns b without leading JSON whitespace.
func skipWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// valueEnd returns the length of the JSON value at the start of b (valid JSON).
func valueEnd(b []byte) int {
	switch b[0] {
	case '"':
		return stringEnd(b)
	case '{', '[':
		depth := 0
		for i := 0; i < len(b); i++ {
			switch b[i] {
			case '"':
				i += stringEnd(b[i:]) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	default:
		i := 0
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// stringEnd returns the length of the JSON string at the start of b, quotes included.
func stringEnd(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// members calls fn for each member of the JSON object v (valid JSON, no
// surrounding whitespace), with the raw key (quotes included) and raw value.
func members(v []byte, fn func(key, val []byte)) {
	b := skipWS(v[1:])
	for len(b) > 0 && b[0] == '"' {
		n := stringEnd(b)
		key := b[:n]
		b = skipWS(b[n:])
		b = skipWS(b[1:]) // ':'
		m := valueEnd(b)
		fn(key, b[:m])
		b = skipWS(b[m:])
		if len(b) > 0 && b[0] == ',' {
			b = skipWS(b[1:])
		}
	}
}

// elements calls fn for each element of the JSON array v.
func elements(v []byte, fn func(val []byte)) {
	b := skipWS(v[1:])
	for len(b) > 0 && b[0] != ']' {
		m := valueEnd(b)
		fn(b[:m])
		b = skipWS(b[m:])
		if len(b) > 0 && b[0] == ',' {
			b = skipWS(b[1:])
		}
	}
}

// keyIs reports whether the raw JSON string key equals name, decoding escapes.
func keyIs(key []byte, name string) bool {
	for _, c := range key {
		if c == '\\' {
			return unquote(key) == name
		}
	}
	return len(key) == len(name)+2 && string(key[1:len(key)-1]) == name
}

// unquote decodes a raw JSON string (valid JSON).
func unquote(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// stringValue returns the decoded string of a raw JSON value, and whether it is a string.
func stringValue(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	for _, c := range raw {
		if c == '\\' {
			return unquote(raw), true
		}
	}
	return sessionlog.Intern(raw[1 : len(raw)-1]), true
}

func isNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// number returns a raw JSON number's value as JavaScript would hold it.
func number(raw []byte) (float64, bool) {
	if !isNumber(raw) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true // ±Inf or 0, as JSON.parse gives
		}
		return 0, false
	}
	return f, true
}

func isSafeInt(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= maxSafe
}

// jsString renders a raw JSON value as JavaScript's String() would, for
// upstream's "got S" in a seq-gap message.
func jsString(raw []byte, present bool) string {
	if !present {
		return "undefined"
	}
	switch {
	case isNumber(raw):
		f, _ := number(raw)
		return jsNumber(f)
	case raw[0] == '"':
		s, _ := stringValue(raw)
		return s
	case raw[0] == '{':
		return "[object Object]"
	case raw[0] == '[':
		return "[array]"
	}
	return string(raw) // true, false, null
}

func jsNumber(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	// JavaScript writes 1e-7 and 1e+21 where Go writes 1e-07 and 1e+21.
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' && i+2 < len(s) && s[i+2] == '0' && i+3 < len(s) {
			s = s[:i+2] + s[i+3:]
			break
		}
	}
	return s
}

// record is what the scanner knows of one complete, valid JSON line.
type record struct {
	object  bool   // the line is a JSON object
	typ     string // the decoded type, when it is a string
	hasType bool
	seq     []byte // raw seq value
	hasSeq  bool
	// packed rows (containers.md §5)
	row     bool  // type is a packed-row tag
	seq0    int64 // first member's seq, when row
	members int64 // member count, when row
}

var rowTags = map[string]bool{"text-chunks": true, "reasoning-chunks": true, "tool-call-chunks": true}

// IsPackedRow reports whether typ is a packed chunk row's type tag.
func IsPackedRow(typ string) bool { return rowTags[typ] }

// peek reads the envelope of a line. ok is false when the line is not valid
// JSON or is a malformed packed row: upstream's "unparsable" line. The
// usual line is checked and split in one pass, and split is its members,
// appended to spans[:0] (Line.Members); any other goes the long way,
// checked whole and then walked, and split is nil.
func peek(line []byte, spans []fastjson.Span) (rec record, split []fastjson.Span, ok bool) {
	env := envelope{spans: spans[:0]}
	if fastjson.ValidMembers(line, func(key []byte, start, end int) {
		env.member(key, line[start:end])
		env.spans = append(env.spans, fastjson.Span{Key: sessionlog.Intern(key[1 : len(key)-1]), Start: start, End: end})
	}) {
		split = env.spans
	} else {
		env = envelope{}
		if !fastjson.Valid(line) {
			return rec, nil, false
		}
		v := skipWS(line)
		v = v[:valueEnd(v)]
		if v[0] != '{' {
			return rec, nil, true // JSON.parse accepts it; its seq is undefined
		}
		members(v, env.member)
	}
	rec = env.rec
	rec.object = true
	if !rec.hasType || !rowTags[rec.typ] {
		return rec, split, true
	}
	rec.row = true
	if env.other || !env.hasSeq0 || !env.hasTime0 || !env.hasData {
		return rec, nil, false // envelope must be exactly {type, seq0, time0, data}
	}
	s0, isNum := number(env.seq0)
	if !isNum || !isSafeInt(s0) || s0 < 0 {
		return rec, nil, false
	}
	t0, isNum := number(env.time0)
	if !isNum || !isSafeInt(t0) {
		return rec, nil, false
	}
	n, good := validRowData(rec.typ, env.data, t0, 0)
	if !good || !isSafeInt(s0+float64(n)-1) {
		return rec, nil, false
	}
	rec.seq0, rec.members = int64(s0), n
	return rec, split, true
}

// envelope is what peek gathers from a line's members.
type envelope struct {
	spans                      []fastjson.Span
	rec                        record
	seq0, time0, data          []byte
	hasSeq0, hasTime0, hasData bool
	other                      bool // a member other than a packed row's
}

// member takes one member: its raw key, quoted as it stands, and value.
func (e *envelope) member(key, val []byte) {
	switch {
	case keyIs(key, "type"):
		e.rec.typ, e.rec.hasType = stringValue(val)
	case keyIs(key, "seq"):
		e.rec.seq, e.rec.hasSeq = val, true
		e.other = true
	case keyIs(key, "seq0"):
		e.seq0, e.hasSeq0 = val, true
	case keyIs(key, "time0"):
		e.time0, e.hasTime0 = val, true
	case keyIs(key, "data"):
		e.data, e.hasData = val, true
	default:
		e.other = true
	}
}

// PackedRowMembers applies upstream's validateRow to a packed row's data
// (valid JSON, without leading white space) under the SQLite codec's bound
// of maxBytes, and returns the member count: the SQLite reader's check of a
// packed row, the rule the JSONL form's rows are held to.
func PackedRowMembers(tag string, data []byte, time0 float64, maxBytes int) (int64, bool) {
	return validRowData(tag, data[:valueEnd(data)], time0, maxBytes)
}

// validRowData applies upstream's validateRow to a packed row's data and
// returns the member count. minMembers, maxMembers and maxBytes are the
// SQLite codec's extra bounds (0 for JSONL: any non-empty row).
func validRowData(tag string, data []byte, time0 float64, sqliteBounds int) (int64, bool) {
	if data[0] != '{' {
		return 0, false
	}
	payloadKey := "texts"
	allowed := []string{"turn", "step", "index", "dt", "texts"}
	if tag == "tool-call-chunks" {
		payloadKey = "args"
		allowed = []string{"turn", "step", "index", "id", "name", "dt", "args"}
	}
	seen := make(map[string]bool, 8)
	vals := make(map[string][]byte, 8)
	bad := false
	members(data, func(key, val []byte) {
		k, _ := stringValue(key)
		known := false
		for _, a := range allowed {
			if a == k {
				known = true
			}
		}
		if !known {
			bad = true
		}
		seen[k] = true
		vals[k] = val
	})
	if bad {
		return 0, false
	}
	need := len(allowed)
	if tag == "tool-call-chunks" && !seen["name"] {
		need--
	}
	if len(seen) != need {
		return 0, false
	}
	if tag == "tool-call-chunks" {
		if _, ok := stringValue(vals["id"]); !ok {
			return 0, false
		}
		if seen["name"] {
			if _, ok := stringValue(vals["name"]); !ok {
				return 0, false
			}
		}
	}
	for _, k := range []string{"turn", "step", "index"} {
		if !isNumber(vals[k]) {
			return 0, false
		}
	}
	payload := vals[payloadKey]
	if payload[0] != '[' {
		return 0, false
	}
	var n int64
	elements(payload, func(val []byte) {
		n++
		if val[0] != '"' {
			bad = true
		}
	})
	if bad || n == 0 {
		return 0, false
	}
	if sqliteBounds > 0 && (n < 3 || n > 1024 || len(data) > sqliteBounds) {
		return 0, false
	}
	dt := vals["dt"]
	if dt[0] != '[' {
		return 0, false
	}
	var gaps int64
	t := time0
	elements(dt, func(val []byte) {
		gaps++
		g, ok := number(val)
		if !ok || !isSafeInt(g) {
			bad = true
			return
		}
		t += g
		if !isSafeInt(t) {
			bad = true
		}
	})
	if bad || gaps != n-1 {
		return 0, false
	}
	return n, true
}
