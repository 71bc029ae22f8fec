package main

import (
	"bytes"
	"time"
)

// A chunk is output read from view's terminal, with the time it arrived.
type chunk struct {
	at   time.Time
	data []byte
}

// settled reports whether the screen drawn since a mark is complete, and
// when its last byte arrived. chunks are the output read since the mark.
// The screen is complete once the output holds signal (any output at all
// when signal is empty) and nothing more has arrived for quiet up to now:
// Bubble Tea flushes a frame in one burst at its frame rate, so a frame is
// a burst that includes the row the key changes, and its end is the burst's
// last byte, not the end of the quiet wait.
func settled(chunks []chunk, signal []byte, quiet time.Duration, now time.Time) (end time.Time, ok bool) {
	if len(chunks) == 0 {
		return time.Time{}, false
	}
	last := chunks[len(chunks)-1].at
	if now.Sub(last) < quiet {
		return time.Time{}, false
	}
	if len(signal) > 0 && !containsAcross(chunks, signal) {
		return time.Time{}, false
	}
	return last, true
}

// containsAcross reports whether the chunks' bytes, joined, hold s (which
// may be split between chunks).
func containsAcross(chunks []chunk, s []byte) bool {
	var all []byte
	for _, c := range chunks {
		all = append(all, c.data...)
	}
	return bytes.Contains(all, s)
}
