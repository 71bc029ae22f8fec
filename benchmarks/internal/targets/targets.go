// Package targets holds the performance targets of dshtest's commands run
// as processes (docs/performance.md), on this project's 2-core machine,
// for every log shape, raw and zstd. It is their one home: the bench-shapes runner
// marks its table with them and the memory test fails on them.
package targets

import "time"

// MinRSS is the least peak-RSS budget of any command: a small log may use
// this much whatever its size.
const MinRSS = 64 << 20

// RSSBudget returns the peak-RSS budget of command (check, render,
// history or repro) on a log whose raw JSONL form is rawSize bytes, and
// whether the command has one: repro may use 3× the raw file, the others
// 2×, and every one at least MinRSS. The raw size is the budget's base for
// the .jsonl.zstd form too.
func RSSBudget(command string, rawSize int64) (budget int64, ok bool) {
	var times int64
	switch command {
	case "repro":
		times = 3
	case "check", "history", "render":
		times = 2
	default:
		return 0, false
	}
	return max(times*rawSize, MinRSS), true
}

// The other targets.
const (
	// ReproSmall100k is the most wall time repro may take on a
	// 100k-event log of the small shape.
	ReproSmall100k = 2 * time.Second
	// PerEventRatio bounds every command's cost per event on a 1M-event
	// log over its cost per event on a 10k-event log of the same shape
	// and form: the cost grows no faster than the log.
	PerEventRatio = 1.3
	// ReproDecodeRatio bounds repro's wall time over one decode pass of
	// the reader alone on the same log.
	ReproDecodeRatio = 8.0
	// FirstScreen bounds view's time from start to its first full screen
	// on a 1M-event log.
	FirstScreen = 1500 * time.Millisecond
	// Key bounds the time view takes to redraw after each key (toggle
	// tools, PgUp, End).
	Key = 50 * time.Millisecond
	// ZstdRawRatio bounds every command's wall time on a log's
	// .jsonl.zstd form over its wall time on the raw form.
	ZstdRawRatio = 1.2
)
