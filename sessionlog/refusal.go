package sessionlog

import (
	"errors"
	"os"
	"strconv"
	"strings"
)

// Pos is a place in a log, as a refusal or a warning names it (the shape of
// go/token.Position).
type Pos struct {
	// Path names what was read: a file, "dir/session.jsonl.zstd",
	// "export.zip!subagents/x/session.jsonl", or "store.db!<session id>".
	Path string
	// Line is the 1-based line of the log's plaintext (an upstream
	// container's header is line 1; for SQLite, the row's place in seq
	// order, the header counting as 1); 0 when no line applies.
	Line int
	// Seq is the seq of the event at fault; -1 when none is known.
	Seq int64
}

// NoPos is the position of a refusal that names no place yet: a layer
// that does not know the file (the surface fold, the header rules) leaves
// it for the caller that does.
var NoPos = Pos{Seq: -1}

// String is "path:line", or "path" when no line applies.
func (p Pos) String() string {
	if p.Line > 0 {
		return p.Path + ":" + strconv.Itoa(p.Line)
	}
	return p.Path
}

// Layer names the step of the reading path that refused a log.
type Layer string

// The layers, in the order a log goes through them.
const (
	LayerInput      Layer = "input"      // the file itself: it cannot be opened, or changed while read
	LayerContainer  Layer = "container"  // the byte container: framing, decompression, torn tails
	LayerHeader     Layer = "header"     // upstream's session header
	LayerUpgrade    Layer = "upgrade"    // the load-time upgrades of older shapes
	LayerDecode     Layer = "decode"     // the JSONL envelope and packed rows
	LayerVocabulary Layer = "vocabulary" // the event type rule
	LayerRecovery   Layer = "recovery"   // crash recovery's synthetic closers
	LayerSurface    Layer = "surface"    // load-time validation and the surface fold
)

// Error is a refusal of a log, whatever layer refused it. It prints as one
// line, "path:line: reason (seq N)", without ":line" when Line is 0 and
// without the seq when Seq is negative; a refusal with no path yet (a
// layer that does not know the file) prints as its Reason alone. Path and
// Reason may hold text from the log or the user: a caller escapes the
// result before a terminal.
type Error struct {
	Pos
	// Layer is the step that refused.
	Layer Layer
	// Reason is the refusal, upstream's wording where upstream has one.
	Reason string
	// Err is the cause, if any: a decompressor's or driver's error, a
	// sentinel (ErrTooLong, ErrTruncated), a layer's own error type.
	Err error
}

// Refuse returns a refusal by layer at pos.
func Refuse(layer Layer, pos Pos, reason string, cause error) *Error {
	return &Error{Pos: pos, Layer: layer, Reason: reason, Err: cause}
}

func (e *Error) Error() string {
	if e.Path == "" && e.Line == 0 {
		return e.Reason
	}
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	// Upstream's own wording may name the seq already ("… at seq N").
	if at := " at seq " + strconv.FormatInt(e.Seq, 10); e.Seq >= 0 && !strings.HasSuffix(e.Reason, at) {
		b.WriteString(" (seq ")
		b.WriteString(strconv.FormatInt(e.Seq, 10))
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// At returns a copy of e placed at pos: what a layer that knows the file
// does with the refusal of one that does not.
func (e *Error) At(pos Pos) *Error {
	c := *e
	c.Pos = pos
	return &c
}

// The causes a caller may act on (errors.Is).
var (
	// ErrTooLong marks a line over the reader's line limit.
	ErrTooLong = errors.New("line too long")
	// ErrTextTooLong marks a log whose text (after decompression) is over
	// the reader's text limit.
	ErrTextTooLong = errors.New("text too long")
	// ErrTruncated marks a torn final write that could not be tolerated: a
	// header-less log's last line without its newline, not valid JSON.
	ErrTruncated = errors.New("truncated last line")
)

// Warning is an accepted defect (a torn tail, a byte-order mark, a retired
// header field). It prints as "path:line: text".
type Warning struct {
	Pos
	Text string
}

func (w Warning) String() string { return w.Pos.String() + ": " + w.Text }

// OSText is an operating-system error's text without the path it names
// (*os.PathError's Err): a refusal names the path itself.
func OSText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
