package surface

import (
	"bytes"
	"math"
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/fastjson"
)

// payloadWalk reads a payload, valid JSON, once for the load-time checks
// of a message event: the members of its message that the shape checks
// read (messageFacts), and whether any number in the whole payload is one
// JSON.parse would change (losslessJSON). Splitting the payload, then its
// message, then a tool result's block, each into its members, skipped a
// message's content three or four times before the number check skipped
// it again; on logs of long tool output that was most of the checks' cost.
//
// The walk is over valid JSON; on anything else it stops (ok false), and
// never reads past the payload.
type payloadWalk struct {
	raw   []byte
	lossy bool // a number JSON.parse would change was met
}

// messageFacts is what the shape checks read of a message: each member's
// value as it stands in the payload, a repeated key's last (as
// fastjson.SplitObject reads an object), nil when absent.
type messageFacts struct {
	object       bool // the message is an object
	id, role     []byte
	source       sourceFacts
	contentArray bool       // content holds an array
	block        blockFacts // a tool result's: its content's sole element
}

// sourceFacts is what the shape checks read of a message's source.
type sourceFacts struct {
	object                        bool
	kind, provider, model, callID []byte
}

// blockFacts is what the shape checks read of a tool result's block.
type blockFacts struct {
	sole         bool // content holds exactly one element, an object
	typ, callID  []byte
	contentArray bool
}

// readMessage walks payload, valid JSON: the facts of its message (the
// payload itself when whole, else its "message" member's value; a tool
// result's block when block) and whether every number in it is lossless.
// ok is false when the walk could not read the payload.
func readMessage(payload []byte, whole, block bool) (m messageFacts, lossless, ok bool) {
	w := &payloadWalk{raw: payload}
	i := fastjson.SkipSpace(payload, 0)
	var end int
	if whole {
		end = w.message(i, &m, block)
	} else {
		end = w.object(i, func(key []byte, start int) int {
			if string(key) == "message" {
				m = messageFacts{}
				return w.message(start, &m, block)
			}
			return w.skip(start)
		})
	}
	if end < 0 || fastjson.SkipSpace(payload, end) != len(payload) {
		return messageFacts{}, false, false
	}
	return m, !w.lossy, true
}

// message reads a message at i into m; it returns where the message ends,
// or -1.
func (w *payloadWalk) message(i int, m *messageFacts, block bool) int {
	return w.objectOr(i, &m.object, func(key []byte, start int) int {
		switch string(key) {
		case "id":
			return w.value(start, &m.id)
		case "role":
			return w.value(start, &m.role)
		case "source":
			m.source = sourceFacts{}
			s := &m.source
			return w.objectOr(start, &s.object, func(key []byte, start int) int {
				switch string(key) {
				case "kind":
					return w.value(start, &s.kind)
				case "provider":
					return w.value(start, &s.provider)
				case "model":
					return w.value(start, &s.model)
				case "callId":
					return w.value(start, &s.callID)
				}
				return w.skip(start)
			})
		case "content":
			m.contentArray = start < len(w.raw) && w.raw[start] == '['
			m.block = blockFacts{}
			if !block || !m.contentArray {
				return w.skip(start)
			}
			return w.soleBlock(start, &m.block)
		}
		return w.skip(start)
	})
}

// soleBlock reads the array at i into b; it returns where the array
// ends, or -1.
func (w *payloadWalk) soleBlock(i int, b *blockFacts) int {
	n := 0
	end := w.array(i, func(start int) int {
		if n++; n > 1 || w.raw[start] != '{' {
			b.sole = false
			return w.skip(start)
		}
		b.sole = true
		return w.object(start, func(key []byte, start int) int {
			switch string(key) {
			case "type":
				return w.value(start, &b.typ)
			case "toolCallId":
				return w.value(start, &b.callID)
			case "content":
				b.contentArray = w.raw[start] == '['
			}
			return w.skip(start)
		})
	})
	if !b.sole { // the sole element must be an object
		*b = blockFacts{}
	}
	return end
}

// objectOr walks the value at i as object does when it is an object,
// setting *isObject, and skips it when it is anything else.
func (w *payloadWalk) objectOr(i int, isObject *bool, member func(key []byte, start int) int) int {
	if i >= len(w.raw) || w.raw[i] != '{' {
		return w.skip(i)
	}
	*isObject = true
	return w.object(i, member)
}

// value skips the value at i and sets *v to it.
func (w *payloadWalk) value(i int, v *[]byte) int {
	end := w.skip(i)
	if end >= 0 {
		*v = w.raw[i:end]
	}
	return end
}

// object walks the object at i (its '{'), calling member with each key,
// unescaped, and where its value starts; member returns where the value
// ends. It returns where the object ends, or -1.
func (w *payloadWalk) object(i int, member func(key []byte, start int) int) int {
	raw := w.raw
	if i >= len(raw) || raw[i] != '{' {
		return -1
	}
	i, done := w.first(i, '}')
	for !done {
		if i >= len(raw) || raw[i] != '"' {
			return -1
		}
		end := stringEnd(raw, i+1)
		if end >= len(raw) {
			return -1
		}
		key := raw[i+1 : end]
		if bytes.IndexByte(key, '\\') >= 0 {
			s, ok := fastjson.DecodeString(raw[i : end+1])
			if !ok {
				return -1
			}
			key = []byte(s)
		}
		i = fastjson.SkipSpace(raw, end+1)
		if i >= len(raw) || raw[i] != ':' {
			return -1
		}
		i = fastjson.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return -1
		}
		if i = member(key, i); i < 0 {
			return -1
		}
		i, done = w.more(i, '}')
	}
	return i
}

// array walks the array at i (its '['), calling elem with where each
// element starts; elem returns where it ends. It returns where the array
// ends, or -1.
func (w *payloadWalk) array(i int, elem func(start int) int) int {
	i, done := w.first(i, ']')
	for !done {
		if i >= len(w.raw) {
			return -1
		}
		if i = elem(i); i < 0 {
			return -1
		}
		i, done = w.more(i, ']')
	}
	return i
}

// first reads past the opening byte at i of an object or array closed by
// close: where its first member or element starts, or, done, where the
// empty one ends.
func (w *payloadWalk) first(i int, close byte) (next int, done bool) {
	i = fastjson.SkipSpace(w.raw, i+1)
	if i < len(w.raw) && w.raw[i] == close {
		return i + 1, true
	}
	return i, false
}

// more reads what follows a member or element ending at i: where the next
// one starts, or, done, where the object or array closed by close ends;
// -1 (done) for anything else.
func (w *payloadWalk) more(i int, close byte) (next int, done bool) {
	raw := w.raw
	i = fastjson.SkipSpace(raw, i)
	switch {
	case i >= len(raw):
	case raw[i] == ',':
		return fastjson.SkipSpace(raw, i+1), false
	case raw[i] == close:
		return i + 1, true
	}
	return -1, true
}

// skip returns where the value at i ends (-1 if none does), noting a
// number in it that JSON.parse would change. Strings are skipped whole
// (stringEnd); only what lies between them is read byte by byte.
func (w *payloadWalk) skip(i int) int {
	raw := w.raw
	depth := 0
	for j := i; j < len(raw); j++ {
		c := raw[j]
		switch {
		case c == '"':
			j = stringEnd(raw, j+1)
			if j >= len(raw) {
				return -1
			}
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth < 0 {
				return -1
			}
		case c == '-' || c >= '0' && c <= '9':
			k, ok := number(raw, j)
			w.lossy = w.lossy || !ok
			j = k - 1
		case c >= 'a' && c <= 'z': // true, false, null
			k := j
			for k < len(raw) && raw[k] >= 'a' && raw[k] <= 'z' {
				k++
			}
			j = k - 1
		case j == i: // a value starts with none of the above
			return -1
		}
		if depth == 0 {
			return j + 1
		}
	}
	return -1
}

// number reads the number token at raw[i]: where it ends, and whether
// JSON.parse and JSON.stringify keep its value: neither negative zero nor
// beyond a float64. Only a negative number, an exponent or a very long
// one can be either.
func number(raw []byte, i int) (end int, lossless bool) {
	end = i
	for end < len(raw) && isNumberByte(raw[end]) {
		end++
	}
	num := raw[i:end]
	if num[0] != '-' && len(num) < 300 && !bytes.ContainsAny(num, "eE") {
		return end, true
	}
	f, _ := strconv.ParseFloat(string(num), 64)
	return end, !math.IsInf(f, 0) && !(f == 0 && math.Signbit(f))
}
