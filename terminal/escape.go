package terminal

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// DisplayText makes untrusted text safe to print (terminal.md §6): every
// character in U+0000–U+0009, U+000B–U+001F and U+007F–U+009F becomes the
// literal text \xNN with two lower-case hex digits. LF is kept: it is
// structure. A byte that is not part of valid UTF-8 becomes U+FFFD, the
// replacement character, as encoding/json and a JavaScript TextDecoder would
// decode it, so no raw byte of a log ever reaches the terminal.
func DisplayText(s string) string { return escape(s, false) }

// displayInlineText is displayText for single-row fields: it also turns LF
// into \x0a.
func DisplayInlineText(s string) string { return escape(s, true) }

func escape(s string, inline bool) string {
	if isSafe(s, inline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' && !inline:
			b.WriteByte('\n')
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&15])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isSafe reports whether escape would return s unchanged.
func isSafe(s string, inline bool) bool {
	nonASCII := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			if inline {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case c >= 0x80:
			nonASCII = true
			// C1 controls U+0080–U+009F are encoded as 0xc2 0x80–0x9f.
			if c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
				return false
			}
		}
	}
	return !nonASCII || utf8.ValidString(s)
}
