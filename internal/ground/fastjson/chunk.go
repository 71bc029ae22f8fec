package fastjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dshtest/dshtest/sessionlog"
)

// DecodeChunkData is json.Unmarshal of an assistant/chunk payload into a
// ChunkData, the commonest decode of a projection (a streamed session is
// mostly chunks). The usual shapes — deltas, block starts, settled blocks,
// finish and usage chunks — are read by a small scanner; anything else (an
// unusual block, a repeated key, a key that matches a field only when case
// is ignored, whitespace, a number that is not a plain integer, null,
// malformed JSON) goes to json.Unmarshal, so the result and the error are
// always those of json.Unmarshal.
func DecodeChunkData(data []byte) (sessionlog.ChunkData, error) {
	if c, ok := scanChunkData(data, false); ok {
		return c, nil
	}
	var c sessionlog.ChunkData
	err := json.Unmarshal(data, &c)
	return c, err
}

// DecodeChunkHead is DecodeChunkData keeping only what places a chunk and
// times its step: turn, step, and the chunk's type, index and block type.
// The rest is checked but not decoded, which spares the replay path the
// copy of every streamed text (it keeps only where the chunks are, and
// decodes them again for a step that never settles).
func DecodeChunkHead(data []byte) sessionlog.ChunkData {
	c, ok := scanChunkData(data, true)
	if !ok {
		c, _ = DecodeChunkData(data)
	}
	return chunkHead(c)
}

// chunkHead keeps the fields of c that DecodeChunkHead decodes.
func chunkHead(c sessionlog.ChunkData) sessionlog.ChunkData {
	return sessionlog.ChunkData{TurnStep: c.TurnStep, Chunk: sessionlog.StreamChunk{Type: c.Chunk.Type, Index: c.Chunk.Index, BlockType: c.Chunk.BlockType}}
}

// Field names json.Unmarshal matches keys against (case aside): a key the
// scanner does not read is skipped only if it matches none of them.
var (
	chunkDataFields    = []string{"turn", "step", "chunk"}
	streamChunkFields  = []string{"type", "index", "blockType", "text", "id", "name", "argumentsDelta", "block"}
	contentBlockFields = []string{"type", "text", "id", "name", "arguments", "toolCallId", "content", "isError"}
)

// onceSet is the keys of one object read so far, one bit each: a scanner
// refuses a repeated key, whose value json.Unmarshal would take from its
// last occurrence, and leaves that object to it.
type onceSet uint16

// first reports whether bit is not set yet, and sets it.
func (o *onceSet) first(bit onceSet) bool {
	if *o&bit != 0 {
		return false
	}
	*o |= bit
	return true
}

// scanChunkData reads {"turn":N,"step":N,"chunk":{…}}, each key at most
// once, in any order, without whitespace. With head, the chunk's texts and
// block are checked but not decoded. ok is false for anything the scanner
// does not take.
func scanChunkData(b []byte, head bool) (c sessionlog.ChunkData, ok bool) {
	s := &chunkScanner{b: b}
	var seen onceSet
	text := func(v *string) bool {
		if head {
			return s.skipString()
		}
		return s.str(v)
	}
	ok = s.object(func(key []byte) bool {
		switch string(key) {
		case "turn":
			return seen.first(1<<0) && s.integer(&c.Turn)
		case "step":
			return seen.first(1<<1) && s.integer(&c.Step)
		case "chunk":
			return seen.first(1<<2) && s.object(func(key []byte) bool {
				ch := &c.Chunk
				switch string(key) {
				case "type":
					return seen.first(1<<3) && s.word(&ch.Type)
				case "index":
					var n int64
					if !seen.first(1<<4) || !s.integer(&n) || int64(int(n)) != n {
						return false
					}
					ch.Index = int(n)
					return true
				case "blockType":
					return seen.first(1<<5) && s.word(&ch.BlockType)
				case "text":
					return seen.first(1<<6) && text(&ch.Text)
				case "id":
					return seen.first(1<<7) && text(&ch.ID)
				case "name":
					return seen.first(1<<8) && text(&ch.Name)
				case "argumentsDelta":
					return seen.first(1<<9) && text(&ch.ArgumentsDelta)
				case "block":
					if !seen.first(1 << 10) {
						return false
					}
					if head {
						return s.peek('{') && s.skip()
					}
					ch.Block = new(sessionlog.ContentBlock)
					return s.contentBlock(ch.Block)
				}
				return s.skipUnknown(key, streamChunkFields)
			})
		}
		return s.skipUnknown(key, chunkDataFields)
	})
	return c, ok && s.i == len(b)
}

type chunkScanner struct {
	b     []byte
	i     int
	depth int
}

func (s *chunkScanner) next(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object whose keys are plain ASCII strings, calling field
// to read each value. The key is the scanned bytes themselves, valid only
// during the call: a field switches on string(key), which allocates
// nothing, where a string made for every key was a fifth of repro's
// allocations.
func (s *chunkScanner) object(field func(key []byte) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	for {
		if !s.next('"') {
			return false
		}
		start := s.i
		for s.i < len(s.b) && s.b[s.i] != '"' {
			if c := s.b[s.i]; c < 0x20 || c == '\\' || c >= 0x80 {
				return false
			}
			s.i++
		}
		key := s.b[start:s.i]
		if !s.next('"') || !s.next(':') || !field(key) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// array reads an array, calling elem to read each value.
func (s *chunkScanner) array(elem func() bool) bool {
	if !s.next('[') {
		return false
	}
	if s.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// integer reads -?(0|[1-9][0-9]*) that fits in an int64 and is not
// followed by a fraction or exponent.
func (s *chunkScanner) integer(v *int64) bool {
	neg := s.next('-')
	start := s.i
	var n uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		if n > (1<<63)/10 {
			return false
		}
		n = n*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || (digits > 1 && s.b[start] == '0') || n > 1<<63 || (!neg && n == 1<<63) {
		return false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return false
	}
	if neg {
		*v = -int64(n)
	} else {
		*v = int64(n)
	}
	return true
}

// str reads a string. Plain ASCII is taken as it is; escapes, surrogates
// and other bytes are decoded as json.Unmarshal decodes them (unquote).
func (s *chunkScanner) str(v *string) bool { return s.strAs(v, false) }

// word is str for a type-like value, one of a few words repeated on every
// line (sessionlog.Intern).
func (s *chunkScanner) word(v *string) bool { return s.strAs(v, true) }

func (s *chunkScanner) strAs(v *string, word bool) bool {
	start := s.i
	ok, plain := s.scanString()
	if !ok {
		return false
	}
	body := s.b[start+1 : s.i-1]
	switch {
	case !plain:
		*v = unquote(body)
	case word:
		*v = sessionlog.Intern(body)
	default:
		*v = string(body)
	}
	return true
}

// unquote decodes the body of a JSON string that skipString accepted, as
// encoding/json does: escapes decoded, a \u escape of a lone surrogate and
// every byte of invalid UTF-8 as U+FFFD. The text between two escapes is
// copied whole where it is valid UTF-8 (no escape can split a rune: a
// backslash is ASCII): most of a multi-line text is such runs.
func unquote(body []byte) string {
	var b strings.Builder
	b.Grow(len(body) + 2*utf8.UTFMax)
	for r := 0; r < len(body); {
		c := body[r]
		if c != '\\' {
			end := bytes.IndexByte(body[r:], '\\')
			if end < 0 {
				end = len(body)
			} else {
				end += r
			}
			appendUTF8(&b, body[r:end])
			r = end
			continue
		}
		r++
		switch body[r] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			rr := hex4(body[r+1 : r+5])
			r += 5
			if utf16.IsSurrogate(rr) {
				if r+6 <= len(body) && body[r] == '\\' && body[r+1] == 'u' {
					if dec := utf16.DecodeRune(rr, hex4(body[r+2:r+6])); dec != unicode.ReplacementChar {
						b.WriteRune(dec)
						r += 6
						continue
					}
				}
				rr = unicode.ReplacementChar
			}
			b.WriteRune(rr)
			continue
		default: // '"', '\\', '/'
			b.WriteByte(body[r])
		}
		r++
	}
	return b.String()
}

// appendUTF8 writes text, every byte of invalid UTF-8 in it as U+FFFD.
func appendUTF8(b *strings.Builder, text []byte) {
	if utf8.Valid(text) {
		b.Write(text)
		return
	}
	for r := 0; r < len(text); {
		rr, size := utf8.DecodeRune(text[r:])
		b.WriteRune(rr)
		r += size
	}
}

// hex4 reads four hex digits (skipString checked them).
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r*16 + rune(c)
	}
	return r
}

// maxDepth bounds how deep skip follows nested values; deeper ones are
// left to json.Unmarshal.
const maxDepth = 64

func (s *chunkScanner) peek(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// skipUnknown skips the value of a key that matches none of fields, even
// with case ignored (json.Unmarshal would ignore it too).
func (s *chunkScanner) skipUnknown(key []byte, fields []string) bool {
	for _, f := range fields {
		if strings.EqualFold(string(key), f) {
			return false
		}
	}
	return s.skip()
}

// skip checks one JSON value, without whitespace, and moves past it.
func (s *chunkScanner) skip() bool {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.skipString()
	case c == '{':
		return s.object(func([]byte) bool { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

func (s *chunkScanner) literal(lit string) bool {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *chunkScanner) number() bool {
	s.next('-')
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	start := s.i
	if n := digits(); n == 0 || (n > 1 && s.b[start] == '0') {
		return false
	}
	if s.next('.') && digits() == 0 {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// skipString checks a string and moves past it.
func (s *chunkScanner) skipString() bool {
	ok, _ := s.scanString()
	return ok
}

// Eight bytes at a time: lsb and msb hold a byte's low and high bit in
// every lane.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// scanString checks a string and moves past it; plain says it holds no
// escape and no byte outside ASCII. Runs of bytes that need no attention
// (any but a control byte, '"' and '\\') are skipped eight at a time.
func (s *chunkScanner) scanString() (ok, plain bool) {
	if !s.next('"') {
		return false, false
	}
	plain = true
	for {
		for s.i+8 <= len(s.b) {
			w := binary.LittleEndian.Uint64(s.b[s.i:])
			q, bs := w^('"'*lsb), w^('\\'*lsb)
			// Whether some lane is below 0x20, is '"' or is '\\'
			// ((x-n·lsb) &^ x & msb is nonzero exactly when some byte
			// of x is below n, for n ≤ 0x80): the byte loop below
			// finds which. A byte with its high bit set is only noted.
			if ((w-0x20*lsb)&^w|(q-lsb)&^q|(bs-lsb)&^bs)&msb != 0 {
				break
			}
			if w&msb != 0 {
				plain = false
			}
			s.i += 8
		}
		if s.i >= len(s.b) {
			return false, false
		}
		c := s.b[s.i]
		s.i++
		switch {
		case c == '"':
			return true, plain
		case c == '\\':
			plain = false
			if s.i >= len(s.b) {
				return false, false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if s.i+5 > len(s.b) {
					return false, false
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false, false
					}
				}
				s.i += 5
			default:
				return false, false
			}
		case c < 0x20:
			return false, false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
}

// boolean reads true or false.
func (s *chunkScanner) boolean(v *bool) bool {
	switch {
	case s.peek('t'):
		*v = true
		return s.literal("true")
	case s.peek('f'):
		*v = false
		return s.literal("false")
	}
	return false
}

// contentBlock reads a ContentBlock object whose keys are among its
// fields (case exact, each once) or match none of them.
func (s *chunkScanner) contentBlock(b *sessionlog.ContentBlock) bool {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth {
		return false
	}
	var seen onceSet
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return seen.first(1<<0) && s.word(&b.Type)
		case "text":
			return seen.first(1<<1) && s.str(&b.Text)
		case "id":
			return seen.first(1<<2) && s.str(&b.ID)
		case "name":
			return seen.first(1<<3) && s.str(&b.Name)
		case "arguments":
			return seen.first(1<<4) && s.str(&b.Arguments)
		case "toolCallId":
			return seen.first(1<<5) && s.str(&b.ToolCallID)
		case "content":
			return seen.first(1<<6) && s.contentBlocks(&b.Content)
		case "isError":
			return seen.first(1<<7) && s.boolean(&b.IsError)
		}
		return s.skipUnknown(key, contentBlockFields)
	})
}

// contentBlocks reads an array of ContentBlock objects ([] is an empty,
// non-nil slice, as json.Unmarshal makes it).
func (s *chunkScanner) contentBlocks(v *[]sessionlog.ContentBlock) bool {
	out := []sessionlog.ContentBlock{}
	if !s.array(func() bool {
		var b sessionlog.ContentBlock
		if !s.peek('{') || !s.contentBlock(&b) {
			return false
		}
		out = append(out, b)
		return true
	}) {
		return false
	}
	*v = out
	return true
}
