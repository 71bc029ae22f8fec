package terminal

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// TestRowCache: models that share a RowCache show exactly what they show
// alone. A live model fed a log renders next to a replay of the same log
// (its rows come from the cache), next to a replay of another log whose
// items have the same IDs but other values (nothing may be reused), and is
// rendered after every event, while its items are still being edited. At
// every width, scheme, reasoning and tool state, each document equals
// Render of its own projection.
func TestRowCache(t *testing.T) {
	all := logs(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range all {
			if !yield(n) {
				return
			}
		}
	})
	for i, name := range names {
		log := all[name]
		other := all[names[(i+1)%len(names)]]
		t.Run(name, func(t *testing.T) {
			clock := func() int64 { return ms("2026-07-21 10:45:00") }
			rc := NewRowCache()
			cfg := Config{SessionID: name, Width: 44, Height: 12, Clock: clock, Rows: rc}
			rcfg := cfg
			rcfg.Log = log
			ocfg := cfg
			ocfg.Log = other
			replay, stranger := New(rcfg), New(ocfg)
			stranger.Document()
			live := New(cfg)
			for _, e := range log {
				live.Update(EventMsg{Event: e})
				live.Document()
			}
			want := map[*Model]transcript.Transcript{
				replay: transcript.Project(log, transcript.Options{}), live: transcript.Project(log, transcript.Options{}),
				stranger: transcript.Project(other, transcript.Options{}),
			}
			for _, width := range []int{20, 44, 80} {
				for _, scheme := range []display.Scheme{display.SchemeDark, display.SchemeLight} {
					for _, hide := range []bool{false, true} {
						for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
							what := fmt.Sprintf("width %d scheme %d hide %v tools %d", width, scheme, hide, tools)
							for _, m := range []*Model{stranger, replay, live} {
								setState(m, width, scheme, hide, tools)
								before := m.misses
								got, w := m.Document(), Render(want[m], m.Settings())
								if !slices.Equal(got.Lines, w.Lines) {
									t.Fatalf("%s: %s model vs Render:\n%s", what, m.cfg.SessionID, lineDiffText(got.Lines, w.Lines))
								}
								if m == live && m.misses != before && slices.EqualFunc(live.Transcript().Items, replay.Transcript().Items, func(a, b transcript.Item) bool { return transcript.SameItem(&a, &b) }) {
									t.Fatalf("%s: live rendered %d items the replay rendered", what, m.misses-before)
								}
							}
						}
					}
				}
			}
		})
	}
}
