package display

import (
	"strings"
	"unicode/utf8"

	"github.com/dshtest/dshtest/internal/ground/swar"
)

const hexDigits = "0123456789abcdef"

// Escape is the one escaper for every log-derived string a command
// prints or writes as text (terminal.md §6 and its amendment,
// docs/spec/terminal.md §14): every character in
// U+0000–U+0009, U+000B–U+001F and U+007F–U+009F becomes the literal text
// \xNN with two lower-case hex digits. LF is kept: it is structure. A
// character that reorders or hides text (see Reorders) becomes \uNNNN (four
// lower-case hex digits), or \U000eNNNN for a tag character, so a reviewer
// never sees text a log reordered. A byte that is not part of valid UTF-8
// becomes U+FFFD, the replacement character, as encoding/json and a
// JavaScript TextDecoder would decode it, so no raw byte of a log ever
// reaches the terminal. JSON outputs use EscapeJSON instead.
func Escape(s string) string { return escape(s, false) }

// EscapeInline is Escape for a field printed on one row: LF
// becomes \x0a as well.
func EscapeInline(s string) string { return escape(s, true) }

// Reorders reports whether r is a character the escaper shows as a \u
// escape because a terminal would let it reorder, hide or break text: the
// BiDi embedding, override and isolate controls (U+202A–U+202E,
// U+2066–U+2069), the Arabic letter mark U+061C, the LRM and RLM marks
// (U+200E, U+200F), the byte-order mark U+FEFF, the line and paragraph
// separators U+2028 and U+2029, and the tag characters U+E0000–U+E007F.
func Reorders(r rune) bool {
	switch {
	case r < 0x061c:
		return false
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0xfeff,
		r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// Unsafe reports whether the escaper rewrites r in text (other than LF):
// a C0 control, DEL, a C1 control, or a character that Reorders.
func Unsafe(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || Reorders(r)
}

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
		case r > 0xffff && Reorders(r):
			b.WriteString(`\U`)
			writeHex(&b, r, 8)
		case Reorders(r):
			b.WriteString(`\u`)
			writeHex(&b, r, 4)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func writeHex(b *strings.Builder, r rune, digits int) {
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&15])
	}
}

// isSafe reports whether escape would return s unchanged.
func isSafe(s string, inline bool) bool {
	nonASCII := false
	for i := 0; i < len(s); i++ {
		// Printable ASCII needs no look, eight bytes at a time.
		if i = swar.PrintableRun(s, i); i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '\n':
			if inline {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case c >= 0x80:
			nonASCII = true
			switch c {
			case 0xc2: // C1 controls U+0080–U+009F are 0xc2 0x80–0x9f.
				if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
					return false
				}
			case 0xd8, 0xe2, 0xef, 0xf3: // lead bytes of every rune Reorders
				if r, _ := utf8.DecodeRuneInString(s[i:]); Reorders(r) {
					return false
				}
			}
		}
	}
	return !nonASCII || utf8.ValidString(s)
}
