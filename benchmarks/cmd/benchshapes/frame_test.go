package main

import (
	"testing"
	"time"
)

func TestSettled(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	const quiet = 100 * time.Millisecond
	queries := chunk{at(5), []byte("\x1b[?2026$p")}
	frame1 := chunk{at(200), []byte("\x1b[Hdshtest · gen-1\r\n… \x1b[2mgen-1 · 9 events · tools col")}
	frame2 := chunk{at(203), []byte("lapsed · reasoning on\x1b[m")}
	for _, tt := range []struct {
		name   string
		chunks []chunk
		shown  bool
		now    int
		end    int // -1: not settled
	}{
		{"nothing yet", nil, false, 500, -1},
		{"not shown, quiet", []chunk{queries}, false, 500, -1},
		{"shown, not quiet yet", []chunk{queries, frame1, frame2}, true, 250, -1},
		{"shown, quiet", []chunk{queries, frame1, frame2}, true, 303, 203},
		{"quiet ends at the last byte, not when noticed", []chunk{queries, frame1, frame2}, true, 900, 203},
		{"any output", []chunk{{at(12), []byte("\x1b[5;1Hx")}}, true, 112, 12},
		{"any output, too soon", []chunk{{at(12), []byte("\x1b[5;1Hx")}}, true, 111, -1},
		{"no output", nil, true, 500, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			end, ok := settled(tt.chunks, tt.shown, quiet, at(tt.now))
			switch {
			case tt.end < 0 && ok:
				t.Errorf("settled at %v, want not yet", end.Sub(t0))
			case tt.end >= 0 && !ok:
				t.Errorf("not settled, want at %dms", tt.end)
			case ok && !end.Equal(at(tt.end)):
				t.Errorf("settled at %v, want %dms", end.Sub(t0), tt.end)
			}
		})
	}
}

// TestScreenStatus holds the status row to the decoded screen: a word the
// renderer drew around a cell it kept is on the row, though not in the
// bytes, and a word split between chunks is on it once both arrived.
func TestScreenStatus(t *testing.T) {
	scr := newScreen(40, 4)
	defer scr.close()
	feed := func(s string) { scr.feed(chunk{time.Time{}, []byte(s)}) }
	feed("\x1b[?1049h\x1b[H\x1b[2J" + "dshtest · s\r\n\r\n\r\n" + "s · tools col")
	if got := scr.status(); got != "s · tools col" {
		t.Fatalf("status %q", got)
	}
	feed("lapsed · r")
	if got := scr.status(); got != "s · tools collapsed · r" {
		t.Fatalf("status %q", got)
	}
	// The next frame's word has an "a" where the row has one already: the
	// renderer moves over that cell, and "expanded" is not in its bytes.
	feed("\x1b[4;11Hcxpanzed · r\x1b[K")
	feed("\x1b[4;11Hexp\x1b[1Cnded")
	if got := scr.status(); got != "s · tools expanded · r" {
		t.Fatalf("status %q", got)
	}
}
