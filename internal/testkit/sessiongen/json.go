package sessiongen

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
)

// Sentinels stand for JSON escapes that no Go string can hold. The generator
// writes them into texts; the encoder turns them into escapes:
//
//   - loneSurrogate becomes `\udc80`, a lone low surrogate. JSON.parse keeps
//     it as an unpaired UTF-16 unit; Go's decoder (and so every Go reader of
//     the log) turns it into U+FFFD. This is how the generator exercises
//     "invalid UTF-8": raw invalid bytes cannot appear in a JSON string, and
//     a Go string holding them is written as `\ufffd` (the replacement the
//     decoder would make anyway), so both spellings of a broken code unit
//     reach the readers.
//   - escapedPair becomes `\ud83d\ude00`, the surrogate-pair escape of
//     U+1F600, which must decode to one emoji.
//
// Both count one code point on either side of the encoding, so the pruner's
// code-point arithmetic is the same before and after.
const (
	loneSurrogate = '\uE000'
	escapedPair   = '\uE001'
)

// encode writes v, a jsonobj value tree, as compact JSON with appendString.
func encode(v any) json.RawMessage {
	return jsonobj.Append(nil, v, appendString)
}

// appendString writes s as jsonobj.AppendString does (JSON.stringify's
// spelling), except for the sentinels above and invalid UTF-8, which becomes
// the escape `\ufffd` rather than U+FFFD itself, one per byte.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	run := 0 // start of the run not yet written
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\ufffd`
		case r == loneSurrogate:
			esc = `\udc80`
		case r == escapedPair:
			esc = `\ud83d\ude00`
		default:
			i += size
			continue
		}
		dst = append(jsonobj.AppendEscaped(dst, s[run:i]), esc...)
		i += size
		run = i
	}
	return append(jsonobj.AppendEscaped(dst, s[run:]), '"')
}

// decoded returns s as a Go reader of the log sees it: sentinels and
// invalid bytes replaced the way the decoder replaces their escapes.
func decoded(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == loneSurrogate:
			b = utf8.AppendRune(b, utf8.RuneError)
		case r == escapedPair:
			b = utf8.AppendRune(b, 0x1F600)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
