package container

import (
	"strconv"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/sessionlog"
)

// refuse is the container's refusal at pos: a *sessionlog.Error of
// sessionlog.LayerContainer. It prints as one line, "path:line: reason" (or
// "path: reason" when no line applies), ready for a CLI to print before
// exiting 2. Its Path and Reason can hold text from the log or the user (a
// file name, a session id; ids in a Reason are quoted with %q): a caller
// escapes it before a terminal. Its Line is the 1-based line of the log's
// plaintext (the header is line 1), or for SQLite the row's place in seq
// order (the header is 1); its cause, if any, is a decompressor's or
// driver's error, or sessionlog.ErrTooLong.
func refuse(pos sessionlog.Pos, reason string, cause error) *sessionlog.Error {
	return sessionlog.Refuse(sessionlog.LayerContainer, pos, reason, cause)
}

// Warning is a recoverable defect: a torn tail whose lines were dropped
// while the prefix before it is used. It is returned to the caller, never
// printed by this package.
type Warning struct {
	// Pos is the first dropped line (for SQLite, the first dropped row's
	// place in seq order).
	sessionlog.Pos
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

// Text is the warning without its position: what the reader reports.
func (w Warning) Text() string {
	unit := w.Unit
	if unit == "" {
		unit = "line"
	}
	if w.Dropped == 0 {
		// A torn final frame whose decoded lines are all whole: what its
		// missing bytes held is not known.
		return "torn tail (" + w.Reason + "): using the " + strconv.FormatInt(w.Kept, 10) +
			" events read; what the frame's missing bytes held is lost"
	}
	return "torn tail (" + w.Reason + "): dropped " + words.Plural(w.Dropped, unit) +
		", using the " + strconv.FormatInt(w.Kept, 10) + " events before it"
}

func (w Warning) String() string { return w.Pos.String() + ": " + w.Text() }
