package logforms

import (
	"fmt"
	"strings"
)

// The short logs the container, store and SQLite tests write.

// Header is a current session header line, of session s1.
const Header = `{"type":"session","version":0,"id":"s1","createdAt":1700000000000,"cwd":"/w","delegationDepth":0}`

// Event is an event line of type typ at seq with empty data.
func Event(seq int, typ string) string {
	return fmt.Sprintf(`{"type":%q,"seq":%d,"time":0,"data":{}}`, typ, seq)
}

// JSONL joins lines into a log's text, each newline-terminated.
func JSONL(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// Turn is a committed turn of events seq from..from+3.
func Turn(from int) []string {
	return []string{Event(from, "turn/start"), Event(from+1, "step/start"), Event(from+2, "step/end"), Event(from+3, "turn/end")}
}

// Cat concatenates lists of lines.
func Cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
