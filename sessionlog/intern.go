package sessionlog

import "slices"

// Intern returns b as a string: a shared one when b is one of the words a
// log repeats on nearly every line (envelope and payload keys, event types,
// packed-row tags, content-block and chunk types, source kinds), a fresh copy
// otherwise. The decoders read their type-like strings through it, so that
// a long log's words are not allocated once per line: they were the
// largest share of a decode pass's allocations.
func Intern(b []byte) string {
	if n := len(b); n > 0 && n <= internMaxLen {
		for _, w := range interned[internSlot(b)] {
			if w == string(b) {
				return w
			}
		}
	}
	return string(b)
}

// Intern's table is open hashing on a word's length and its first and
// last bytes, a few words a slot: cheaper than a map's hash of the whole
// word, and Intern runs several times on every line read.
const (
	internSlots  = 1 << 10
	internMaxLen = 64 // longer words are not in the table
)

func internSlot(b []byte) int {
	n := len(b)
	return (n*131 + int(b[0])*31 + int(b[n-1])*7 + int(b[n/2])) & (internSlots - 1)
}

// interned is Intern's table, built once and only read.
var interned = func() *[internSlots][]string {
	t := new([internSlots][]string)
	for w := range internWords() {
		if len(w) == 0 || len(w) > internMaxLen {
			panic("sessionlog: an interned word's length is out of the table's range: " + w)
		}
		slot := internSlot([]byte(w))
		if !slices.Contains(t[slot], w) {
			t[slot] = append(t[slot], w)
		}
	}
	return t
}()

// internWords is the set of words Intern shares.
func internWords() map[string]string {
	words := []string{
		// envelope keys and values
		"type", "seq", "time", "data", "surfaceOp", "sourceEventSeqs", "ignorable", "append", "replace",
		// packed rows
		"text-chunks", "reasoning-chunks", "tool-call-chunks", "seq0", "time0",
		// content blocks, chunks and their blocks
		"text", "reasoning", "tool-call", "tool-result", "image", "file",
		"text-delta", "reasoning-delta", "tool-call-delta", "block-start", "block-end", "finish", "usage",
		// payload keys
		"turn", "step", "trigger", "kind", "source", "content", "message", "id", "role", "reason",
		"callId", "name", "arguments", "index", "chunk", "blockType", "texts", "args", "dt", "isError",
		"toolCallId", "toolName", "meta", "error", "cause", "provenance", "summary", "header",
		// sources, roles and turn-end reasons
		"user", "assistant", "model", "tool", "plugin", "context", "session-reference",
		"completed", "aborted", "error", "interrupted", "max-tokens", "blocked", "stop", "tool-calls",
	}
	m := make(map[string]string, len(words)+len(vocabulary))
	for _, w := range words {
		m[w] = w
	}
	for _, t := range vocabulary {
		m[t.Name] = t.Name
	}
	return m
}
