package projection

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeChunkData is json.Unmarshal of an assistant/chunk payload into a
// ChunkData, the commonest decode of a projection (a streamed session is
// mostly chunks). The flat shapes — deltas, block starts — are read by a
// small scanner; anything else (a settled block, an unknown or repeated key,
// whitespace, a number that is not a plain integer, null, malformed JSON)
// goes to json.Unmarshal, so the result and the error are always those of
// json.Unmarshal.
func decodeChunkData(data []byte) (ChunkData, error) {
	if c, ok := scanChunkData(data); ok {
		return c, nil
	}
	var c ChunkData
	err := json.Unmarshal(data, &c)
	return c, err
}

// scanChunkData reads {"turn":N,"step":N,"chunk":{…}} whose chunk holds
// only string and integer fields of StreamChunk, each key at most once, in
// any order, without whitespace. ok is false for anything else.
func scanChunkData(b []byte) (c ChunkData, ok bool) {
	s := &chunkScanner{b: b}
	var seen uint16
	once := func(bit uint16) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	ok = s.object(func(key string) bool {
		switch key {
		case "turn":
			return once(1<<0) && s.integer(&c.Turn)
		case "step":
			return once(1<<1) && s.integer(&c.Step)
		case "chunk":
			return once(1<<2) && s.object(func(key string) bool {
				ch := &c.Chunk
				switch key {
				case "type":
					return once(1<<3) && s.str(&ch.Type)
				case "index":
					var n int64
					if !once(1<<4) || !s.integer(&n) || int64(int(n)) != n {
						return false
					}
					ch.Index = int(n)
					return true
				case "blockType":
					return once(1<<5) && s.str(&ch.BlockType)
				case "text":
					return once(1<<6) && s.str(&ch.Text)
				case "id":
					return once(1<<7) && s.str(&ch.ID)
				case "name":
					return once(1<<8) && s.str(&ch.Name)
				case "argumentsDelta":
					return once(1<<9) && s.str(&ch.ArgumentsDelta)
				}
				return false
			})
		}
		return false
	})
	return c, ok && s.i == len(b)
}

type chunkScanner struct {
	b []byte
	i int
}

func (s *chunkScanner) next(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads an object whose keys are plain ASCII strings, calling field
// to read each value.
func (s *chunkScanner) object(field func(key string) bool) bool {
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
		key := string(s.b[start:s.i])
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

// str reads a string. Plain ASCII is taken as it is; a string with escapes
// or other bytes is decoded by json.Unmarshal (escapes, surrogates,
// invalid UTF-8 as U+FFFD).
func (s *chunkScanner) str(v *string) bool {
	start := s.i
	if !s.next('"') {
		return false
	}
	plain := true
	for {
		if s.i >= len(s.b) {
			return false
		}
		c := s.b[s.i]
		s.i++
		switch {
		case c == '"':
			tok := s.b[start:s.i]
			if plain {
				*v = string(tok[1 : len(tok)-1])
				return true
			}
			return json.Unmarshal(tok, v) == nil
		case c == '\\':
			plain = false
			s.i++ // the escaped byte; a \u's hex digits are plain bytes
		case c < 0x20:
			return false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
}
