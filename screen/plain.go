package screen

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/internal/ground/swar"
)

// This file is the one place rendered rows become plain text: the fixture
// recorder, the command line tool and the invariants all read rows through
// it.

// Plain returns rows without their styling (every escape sequence removed)
// and with trailing spaces trimmed.
func Plain(rows []string) []string {
	out := make([]string, len(rows))
	for i, l := range rows {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// AppendPlain appends row's text without its styling to dst: what
// ansi.Strip(row) gives. A row whose only escapes are SGR sequences (ESC [
// params m), which is every row the renderer draws, is copied without them
// in one pass; a row with any other escape, or a byte or rune that may start
// one (C1 controls, invalid UTF-8), goes through ansi.Strip.
func AppendPlain(dst []byte, row string) []byte {
	start := len(dst)
	for i := 0; i < len(row); {
		// A run of ASCII bytes but ESC is copied whole, found eight bytes
		// at a time: a row is mostly such text.
		j := i
		for j+8 <= len(row) && swar.ASCIIWithout(swar.Load(row[j:]), 0x1b) {
			j += 8
		}
		for j < len(row) && row[j] < 0x80 && row[j] != 0x1b {
			j++
		}
		if j > i {
			dst = append(dst, row[i:j]...)
			if i = j; i == len(row) {
				break
			}
		}
		c := row[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j < len(row) && row[j] == '[' {
				j++
				for j < len(row) && (row[j] >= '0' && row[j] <= '9' || row[j] == ';' || row[j] == ':') {
					j++
				}
				if j < len(row) && row[j] == 'm' {
					i = j + 1
					continue
				}
			}
			return append(dst[:start], ansi.Strip(row)...)
		case c < 0x80:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(row[i:])
			if r == utf8.RuneError && n == 1 || r >= 0x80 && r <= 0x9f {
				// A C1 control, raw or encoded, may start an escape.
				return append(dst[:start], ansi.Strip(row)...)
			}
			dst = append(dst, row[i:i+n]...)
			i += n
		}
	}
	return dst
}

// Preview returns s on one line (runs of white space made one space), cut
// to n runes with "…", as a JSON string (Quote): a short, safe quotation of
// a log's text for a report.
//
// It reads s only as far as the preview needs: a text of megabytes is
// neither split nor copied whole.
func Preview(s string, n int) string {
	var b strings.Builder
	runes, space, cut := 0, false, false
	for i, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if runes == n {
			cut = true
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
			if runes++; runes == n {
				cut = true
				break
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size]) // as it was, an invalid byte too
		runes++
	}
	out := b.String()
	if cut {
		out = string([]rune(out)) + "…" // a cut one is read rune by rune
	}
	return Quote(out)
}
