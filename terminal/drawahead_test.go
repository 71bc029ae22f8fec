package terminal

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
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

// TestReplayDrawerAhead: while the drawing of a stretch stands still, the
// read goes on until drawAheadStretches stretches are in hand (that one
// and those waiting), or fewer when they hold more than drawAheadText of
// text; the rows are RenderRows' either way.
func TestReplayDrawerAhead(t *testing.T) {
	cfg, _ := sessiongen.ShapeCurrent.Config(30000)
	light := sessiongen.Generate(3, cfg)
	// The first stretch, of the first 2×replayDrawEvery events, holds six
	// tool outputs of a quarter of the room each.
	heavy := slices.Clone(light[:4*replayDrawEvery])
	for i, n := 0, 0; n < 6; i++ {
		if heavy[i].Type == sessionlog.TypeToolResult {
			heavy[i].Data = withToolText(t, heavy[i].Data, strings.Repeat("word ", drawAheadText/4/5))
			n++
		}
	}
	for _, c := range []struct {
		name     string
		log      []sessionlog.Event
		min, max int // stretches waiting while the first is drawn
	}{
		{"light", light, drawAheadStretches - 1, drawAheadStretches - 1},
		{"heavy", heavy, 0, 0}, // one stretch fills the room
	} {
		synctest.Test(t, func(t *testing.T) {
			s := Settings{Width: 80, Now: FrozenNow(c.log)}
			want := slices.Collect(RenderRows(transcript.Project(c.log, transcript.Options{}), s))
			release := make(chan struct{})
			var got []string
			d := NewReplayDrawer(transcript.Options{}, s, func(row string) bool {
				if len(got) == 0 {
					<-release
				}
				got = append(got, row)
				return true
			})
			var applied atomic.Int64
			read := make(chan struct{})
			go func() {
				defer close(read)
				for i := range c.log {
					d.Apply(&c.log[i])
					applied.Add(1)
				}
			}()
			synctest.Wait() // the drawing waits for release, the read for room
			waiting, read1 := len(d.stretches), applied.Load()
			close(release)
			<-read
			d.Finish(FrozenNow(c.log))
			if waiting < c.min || waiting > c.max {
				t.Errorf("%s: %d stretches waited while the first was drawn (%d events read), want %d to %d",
					c.name, waiting, read1, c.min, c.max)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: the ReplayDrawer's rows differ from RenderRows':\n%s", c.name, lineDiffText(want, got))
			}
		})
	}
}

// withToolText is a tool/result event's data with its output's text set
// to text.
func withToolText(t *testing.T, data json.RawMessage, text string) json.RawMessage {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	block := d["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
	block["content"] = []any{map[string]any{"type": "text", "text": text}}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
