package terminal

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/dshtest/dshtest/internal/sessiongen"
	"github.com/dshtest/dshtest/transcript"
)

// TestDocumentParallel: on a session long enough for Document to render on
// several goroutines, the document equals the sequential Render at every
// tool mode and reasoning state and at widths from 1, a live model sharing
// the replay's rows included. Run it with -race.
func TestDocumentParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU: Document renders sequentially")
	}
	log := sessiongen.GenerateN(8, 6000)
	tr := transcript.Project(log, transcript.Options{})
	if len(tr.Items) < 2*parallelMin {
		t.Fatalf("only %d items", len(tr.Items))
	}
	rows := NewRowCache()
	clock := func() int64 { return ms("2026-07-21 10:45:00") }
	replay := New(Config{SessionID: "p", Log: log, Width: 80, Height: 24, Clock: clock, Rows: rows, ReplayOnly: true})
	live := New(Config{SessionID: "p", Width: 80, Height: 24, Clock: clock, Rows: rows})
	for _, e := range log {
		live.Update(EventMsg{Event: e})
	}
	for _, width := range []int{80, 1, 33} {
		for _, hide := range []bool{false, true} {
			for _, tools := range []ToolMode{ToolsCollapsed, ToolsExpanded, ToolsHidden} {
				for _, m := range []*Model{replay, live} {
					setState(m, width, SchemeDark, hide, tools)
					before := m.misses
					got, want := m.Document(), Render(tr, m.Settings())
					if !slices.Equal(got.Lines, want.Lines) {
						t.Fatalf("%s width %d hide %v tools %d: Document vs Render:\n%s",
							fmt.Sprint(m == live), width, hide, tools, lineDiffText(got.Lines, want.Lines))
					}
					if m == replay && m.misses-before < parallelMin {
						t.Fatalf("width %d hide %v tools %d: %d items rendered, fewer than the parallel threshold", width, hide, tools, m.misses-before)
					}
				}
			}
		}
	}
}
