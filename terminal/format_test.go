package terminal

import (
	"testing"
	"time"

	"github.com/dshtest/dshtest/transcript"
)

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		ms   int64
		want string
	}{
		{-5, "0.0s"}, {0, "0.0s"}, {99, "0.0s"}, {100, "0.1s"}, {199, "0.1s"},
		{1000, "1.0s"}, {12345, "12.3s"}, {59999, "59.9s"}, {60000, "1m00.0s"},
		{95000, "1m35.0s"}, {123456, "2m03.4s"}, {3599999, "59m59.9s"}, {3600000, "60m00.0s"},
	} {
		if got := formatDuration(tc.ms); got != tc.want {
			t.Errorf("formatDuration(%d) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

func TestFooterText(t *testing.T) {
	start := ms("2026-07-21 14:32:06")
	tokyo := time.FixedZone("JST", 9*3600)
	for _, tc := range []struct {
		name string
		f    transcript.Footer
		now  int64
		loc  *time.Location
		want string
	}{
		{"wait only", transcript.Footer{}, 0, nil, "Model wait 0.0s"},
		// upstream step-timing-completed row 8
		{"all buckets, completed", transcript.Footer{
			Timing:    transcript.Timing{WaitMs: 1000, ThinkingMs: 2000, RespondingMs: 3000},
			Completed: true, CompletedAt: start + 6000}, 0, nil,
			"Model wait 1.0s · Thinking 2.0s · Response 3.0s · Completed 2026-07-21 14:32:12"},
		{"location", transcript.Footer{Completed: true, CompletedAt: start}, 0, tokyo,
			"Model wait 0.0s · Completed 2026-07-21 23:32:06"},
		{"sub-100ms bucket shows as 0.0s", transcript.Footer{Timing: transcript.Timing{WaitMs: 99, ThinkingMs: 32, ToolsMs: 169}},
			0, nil, "Model wait 0.0s · Thinking 0.0s · Tools 0.1s"},
		{"open wait counts up to now", transcript.Footer{Timing: transcript.Timing{WaitMs: 100,
			Open: transcript.BucketWait, OpenSince: start}}, start + 1500, nil, "Model wait 1.6s"},
		{"open tools at zero is hidden", transcript.Footer{Timing: transcript.Timing{
			Open: transcript.BucketTools, OpenSince: start}}, start, nil, "Model wait 0.0s"},
		{"open bucket, clock behind", transcript.Footer{Timing: transcript.Timing{
			Open: transcript.BucketResponding, OpenSince: start}}, start - 5000, nil, "Model wait 0.0s"},
		{"completed ignores open bucket", transcript.Footer{Timing: transcript.Timing{
			Open: transcript.BucketThinking, OpenSince: start}, Completed: true, CompletedAt: start},
			start + 90000, nil, "Model wait 0.0s · Completed 2026-07-21 14:32:06"},
		{"minutes", transcript.Footer{Timing: transcript.Timing{WaitMs: 95000, RespondingMs: 123456}}, 0, nil,
			"Model wait 1m35.0s · Response 2m03.4s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := footerText(&tc.f, tc.now, tc.loc); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestFooterTextMatchesUpstream checks the formatter against the text of
// step-timing-completed's footer row.
func TestFooterTextMatchesUpstream(t *testing.T) {
	want := upstreamRows(t, "step-timing-completed", 8, 8)[0].TrimRight()
	f := transcript.Footer{Timing: transcript.Timing{WaitMs: 1000, ThinkingMs: 2000, RespondingMs: 3000},
		Completed: true, CompletedAt: ms("2026-07-21 14:32:12")}
	if got := footerText(&f, 0, time.UTC); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestProgressText(t *testing.T) {
	p := transcript.Progress{StartTime: 1000}
	if got, want := progressText(&p, 96000), "Context being compacted 1m35.0s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
