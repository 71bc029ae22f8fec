package sessionlog

import (
	"strconv"
	"strings"
)

// Refusal formats a reader's refusal of a log the one way every layer
// prints it (the container, the decoder, the reader, the CLI): "path:line:
// reason (seq N)", without ":line" when line is 0 (no line applies) and
// without the seq when seq is negative (none is known). path and reason
// may hold text from the log or the user: a caller escapes the result
// before a terminal.
func Refusal(path string, line int, seq int64, reason string) string {
	var b strings.Builder
	b.WriteString(path)
	if line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(line))
	}
	b.WriteString(": ")
	b.WriteString(reason)
	if seq >= 0 {
		b.WriteString(" (seq ")
		b.WriteString(strconv.FormatInt(seq, 10))
		b.WriteByte(')')
	}
	return b.String()
}
