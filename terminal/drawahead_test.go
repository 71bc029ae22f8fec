package terminal

import (
	"slices"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// TestReplayDrawerIsRenderRows: a log's rows drawn by a ReplayDrawer as
// it is read, settled stretches first at a clock not yet known, are
// RenderRows' of its whole transcript at the frozen clock, at every tool
// mode, on generated logs of every shape long enough to be drawn ahead
// many times and on the corpus, drawn ahead throughout or told to stop
// drawing ahead at once; and a stopped one draws no more.
func TestReplayDrawerIsRenderRows(t *testing.T) {
	logs := drawnLogs(t, 6000, 5)
	if len(logs) < 10 {
		t.Fatalf("only %d logs", len(logs))
	}
	for _, src := range logs {
		now := FrozenNow(src.log)
		for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
			for _, eager := range []bool{false, true} {
				opts := transcript.Options{EagerSteps: eager}
				s := Settings{Width: 80, Tools: tools, Now: now}
				want := slices.Collect(RenderRows(transcript.Project(src.log, opts), s))
				ahead := s
				ahead.Now = now/2 - 12345 // any clock but the log's
				// Drawn ahead throughout, and told to stop drawing ahead
				// at its first row.
				for _, limit := range []int{-1, 1} {
					var got []string
					d := NewReplayDrawer(opts, ahead, func(row string) bool {
						got = append(got, row)
						return limit < 0 || len(got) < limit
					})
					for i := range src.log {
						d.Apply(&src.log[i])
					}
					d.Stop()
					during := len(got)
					d.Finish(now)
					if !slices.Equal(got, want) {
						t.Fatalf("%s, tools %v, eager %v, limit %d: the ReplayDrawer's rows differ from RenderRows':\n%s",
							src.name, tools, eager, limit, lineDiffText(want, got))
					}
					if limit > 0 && during > 0 && len(want) > 3*replayDrawEvery && during == len(want) {
						t.Fatalf("%s: told to stop at its first row, it drew all %d rows ahead of the read", src.name, during)
					}
				}
			}
		}
	}
	// Stopped after a read that failed, it draws nothing more.
	var rows int
	d := NewReplayDrawer(transcript.Options{}, Settings{Width: 80}, func(string) bool { rows++; return true })
	for i := range logs[0].log {
		d.Apply(&logs[0].log[i])
	}
	d.Stop()
	drawn := rows
	d.Stop()
	if rows != drawn || drawn == 0 {
		t.Fatalf("a stopped ReplayDrawer drew %d rows, then %d", drawn, rows)
	}
}
