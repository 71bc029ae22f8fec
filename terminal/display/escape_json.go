package display

import "unicode/utf8"

// EscapeJSON is the one escaper's JSON form, for every JSON document a
// command prints or writes (an encoded value, a JSONL log line). It returns
// b with every DEL, C1 control and character that Reorders written as a
// \uXXXX escape (a UTF-16 surrogate pair beyond U+FFFF), and every byte that
// is not valid UTF-8 as \ufffd. encoding/json already escapes C0 controls
// inside strings, but leaves DEL and C1 raw, and json.RawMessage values as
// they were.
//
// b must be valid JSON (or JSONL): those characters can then only occur
// inside strings, where the escape decodes back to the same text, so the
// value is unchanged.
func EscapeJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			out = appendU(out, utf8.RuneError)
		case r == 0x7f || (r >= 0x80 && r <= 0x9f) || Reorders(r):
			if r > 0xffff {
				r -= 0x10000
				out = appendU(out, 0xd800+(r>>10))
				out = appendU(out, 0xdc00+(r&0x3ff))
			} else {
				out = appendU(out, r)
			}
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

func appendU(out []byte, r rune) []byte {
	return append(out, '\\', 'u', hexDigits[(r>>12)&15], hexDigits[(r>>8)&15], hexDigits[(r>>4)&15], hexDigits[r&15])
}
