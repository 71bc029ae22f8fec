package container

import (
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// Error is a refusal: the log cannot be read as upstream would read it. It
// prints as one line, "path:line: reason" (or "path: reason" when no line
// applies), ready for a CLI to print before exiting 2. Path and Reason can
// hold text from the log or the user (a file name, a session id; ids in a
// Reason are quoted with %q): a caller escapes it before a terminal.
type Error struct {
	// Path names what was read: a file, "dir/session.jsonl.zstd",
	// "export.zip!subagents/x/session.jsonl", or "store.db!<session id>".
	Path string
	// Line is the 1-based line of the log's plaintext (the header is line 1),
	// or for SQLite the row's place in seq order (the header is 1); 0 when
	// the reason concerns no line.
	Line int
	// Offset is the byte offset in the file that the reason names (a
	// Zstandard frame's start), or -1.
	Offset int64
	// Reason is the refusal, upstream's wording where upstream has one.
	Reason string
	// Err is the underlying cause, if any (a decompressor or driver error).
	Err error
}

func (e *Error) Error() string { return sessionlog.Refusal(e.Path, e.Line, -1, e.Reason) }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Warning is a recoverable defect: a torn tail whose lines were dropped
// while the prefix before it is used. It is returned to the caller, never
// printed by this package.
type Warning struct {
	Path string
	// Line is the first dropped line (for SQLite, the first dropped row's
	// place in seq order).
	Line int
	// Offset is the byte offset of a torn Zstandard frame, or -1.
	Offset int64
	// Dropped counts the dropped lines (rows for SQLite), a partial final
	// line included.
	Dropped int
	// Unit is what Dropped counts: "line", or "row" for SQLite.
	Unit string
	// Kept counts the events (packed rows expanded) before the torn tail.
	Kept int64
	// Reason says why the tail is torn.
	Reason string
}

func (w Warning) String() string {
	var b strings.Builder
	b.WriteString(w.Path)
	if w.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(w.Line))
	}
	b.WriteString(": torn tail (")
	b.WriteString(w.Reason)
	b.WriteString("): dropped ")
	unit := w.Unit
	if unit == "" {
		unit = "line"
	}
	b.WriteString(plural(w.Dropped, unit))
	b.WriteString(", using the ")
	b.WriteString(strconv.FormatInt(w.Kept, 10))
	b.WriteString(" events before it")
	return b.String()
}

func plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}
