// Package targets holds the performance targets of dshtest's commands run
// as processes (docs/performance.md), on this project's 2-core machine,
// for every log shape, raw and zstd. It is their one home: the bench-shapes runner
// marks its table with them and the memory test fails on them.
package targets

import "time"

// MinRSS is the least peak-RSS budget of any command: a small log may use
// this much whatever its size.
const MinRSS = 64 << 20

// RSSTimes is how many times the raw file a command's peak RSS may be.
const RSSTimes = 2

// RSSBudget returns the peak-RSS budget of command (check, render,
// history, repro or view) on a log whose raw JSONL form is rawSize bytes,
// and whether the command has one: RSSTimes the raw file, and at least
// MinRSS. The raw size is the budget's base for the .jsonl.zstd form too.
func RSSBudget(command string, rawSize int64) (budget int64, ok bool) {
	switch command {
	case "check", "history", "render", "repro", "view":
		return max(RSSTimes*rawSize, MinRSS), true
	}
	return 0, false
}

// TextBudget returns the peak-RSS budget of command on a log of text bytes
// of JSONL (after any decompression), whatever its compression ratio or
// line length, and whether the command has one: twice the text for check,
// history, render and view, three times for repro, and at least MinRSS.
// It is what dshtest --help promises, stated here as the test's oracle:
// repro's budget is twice the text too, but a log of texts of megabytes
// each, held in a Zstandard window as long as the log, runs past it (the
// window holds the text once, and repro the texts it looks for once
// more).
func TextBudget(command string, text int64) (budget int64, ok bool) {
	switch command {
	case "check", "history", "render", "view":
		return max(2*text, MinRSS), true
	case "repro":
		return max(3*text, MinRSS), true
	}
	return 0, false
}

// ReproWall returns the most wall time repro may take on a log of shape
// and size (in events, as asked of the generator), and whether it has a
// limit: 100k-event logs of the dense and small shapes have one.
func ReproWall(shape string, size int) (limit time.Duration, ok bool) {
	if size != 100000 {
		return 0, false
	}
	switch shape {
	case "dense":
		return ReproDense100k, true
	case "small":
		return ReproSmall100k, true
	}
	return 0, false
}

// The other targets.
const (
	// ReproDense100k and ReproSmall100k are the most wall time repro may
	// take on a 100k-event log of the dense and the small shape.
	ReproDense100k = 2 * time.Second
	ReproSmall100k = 1 * time.Second
	// PerEventRatio bounds every command's cost per event on a 100k- and a
	// 1M-event log over its cost per event on a 10k-event log of the same
	// shape and form: the cost grows no faster than the log.
	PerEventRatio = 1.3
	// ReproDecodeRatio bounds repro's wall time over one decode pass of
	// the reader alone on the same log.
	ReproDecodeRatio = 6.0
	// RenderDecodeRatio bounds render's wall time over one decode pass of
	// the reader alone on the same log.
	RenderDecodeRatio = 3.0
	// FirstScreen bounds view's time from start to its first full screen
	// on a 1M-event log.
	FirstScreen = 500 * time.Millisecond
	// Key bounds the time view takes to redraw after each key (toggle
	// tools, PgUp, End).
	Key = 50 * time.Millisecond
	// ZstdRawRatio bounds every command's wall time on a log's
	// .jsonl.zstd form over its wall time on the raw form.
	ZstdRawRatio = 1.2
)
