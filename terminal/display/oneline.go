package display

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// OneLine makes a message safe to print as one row: line breaks are
// written as \n, tabs as spaces, every other control character goes
// through EscapeInline (messages carry log-derived text), invalid bytes are
// named as \xNN rather than hidden behind U+FFFD, and a very long message
// is shortened in the middle.
func OneLine(s string) string {
	const max = 400
	s = strings.NewReplacer("\n", `\n`, "\t", " ").Replace(s)
	if !utf8.ValidString(s) {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
		s = b.String()
	}
	out := EscapeInline(s)
	if len(out) > max {
		out = out[:max/2] + " … " + out[len(out)-max/2:]
		out = strings.ToValidUTF8(out, "")
	}
	return out
}
