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
		signal string
		now    int
		end    int // -1: not settled
	}{
		{"nothing yet", nil, "collapsed", 500, -1},
		{"queries only, quiet", []chunk{queries}, "collapsed", 500, -1},
		{"signal split across chunks, not quiet yet", []chunk{queries, frame1, frame2}, "collapsed", 250, -1},
		{"signal split across chunks, quiet", []chunk{queries, frame1, frame2}, "collapsed", 303, 203},
		{"quiet ends at the last byte, not when noticed", []chunk{queries, frame1, frame2}, "collapsed", 900, 203},
		{"any output", []chunk{{at(12), []byte("\x1b[5;1Hx")}}, "", 112, 12},
		{"any output, too soon", []chunk{{at(12), []byte("\x1b[5;1Hx")}}, "", 111, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			end, ok := settled(tt.chunks, []byte(tt.signal), quiet, at(tt.now))
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
