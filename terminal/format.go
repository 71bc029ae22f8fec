package terminal

import (
	"fmt"
	"strings"
	"time"

	"github.com/dshtest/dshtest/transcript"
)

// The timing footer's and the compaction indicator's texts.

// formatDuration formats milliseconds as the timing footer does
// (terminal.md §2.5): floored to 100 ms, "12.3s" under a minute, else
// "1m35.0s" with the seconds zero-padded to four characters. Negative
// durations count as zero.
func formatDuration(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	tenths := ms / 100
	if ms < 60_000 {
		return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
	}
	m, rest := tenths/600, tenths%600
	return fmt.Sprintf("%dm%02d.%ds", m, rest/10, rest%10)
}

// footerText is a timing footer's text. An open bucket of a step that has
// not completed accumulates up to now.
func footerText(f *transcript.Footer, now int64, loc *time.Location) string {
	t := f.Timing
	if t.Open != transcript.BucketNone && !f.Completed {
		extra := max(now-t.OpenSince, 0)
		switch t.Open {
		case transcript.BucketWait:
			t.WaitMs += extra
		case transcript.BucketThinking:
			t.ThinkingMs += extra
		case transcript.BucketResponding:
			t.RespondingMs += extra
		case transcript.BucketTools:
			t.ToolsMs += extra
		}
	}
	var b strings.Builder
	b.WriteString("Model wait ")
	b.WriteString(formatDuration(t.WaitMs))
	for _, part := range []struct {
		label string
		ms    int64
	}{{"Thinking", t.ThinkingMs}, {"Response", t.RespondingMs}, {"Tools", t.ToolsMs}} {
		if part.ms > 0 {
			b.WriteString(" · ")
			b.WriteString(part.label)
			b.WriteByte(' ')
			b.WriteString(formatDuration(part.ms))
		}
	}
	if f.Completed {
		b.WriteString(" · Completed ")
		b.WriteString(formatStamp(f.CompletedAt, loc))
	}
	return b.String()
}

// formatStamp formats epoch milliseconds as "YYYY-MM-DD HH:MM:SS" in loc
// (nil means UTC).
func formatStamp(ms int64, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	return time.UnixMilli(ms).In(loc).Format(time.DateTime)
}

// footerOpen reports whether a footer's text depends on the clock.
func footerOpen(f *transcript.Footer) bool {
	return f.Timing.Open != transcript.BucketNone && !f.Completed
}

// progressText is the standalone compaction indicator's text.
func progressText(p *transcript.Progress, now int64) string {
	return "Context being compacted " + formatDuration(now-p.StartTime)
}
