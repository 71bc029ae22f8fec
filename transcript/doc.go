// Package transcript projects a session log into the human transcript
// (terminal.md §1–§2, §11): what a person reads. It reads append-origin
// events only, so a compaction never erases conversation already read; a
// landed checkpoint adds one Marker at its log position instead.
//
// There are two paths and they must agree on every prefix of every log:
// Project (replay: the whole log at once, used on mount and resume) and the
// Projector (live: one event at a time, reporting what changed). Both share
// the per-event decoding, the streaming, timing, marker and progress rules
// of this package, and ProjectWindows projects many windows of one log.
//
// The package is pure: no I/O, no terminal.
package transcript
