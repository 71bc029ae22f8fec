package terminal

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// renderSerial is Render one item after another on one renderer: what
// Render and Document, which render on several goroutines, must equal.
func renderSerial(t transcript.Transcript, s Settings) []string {
	r := newRenderer(s)
	cont := NewDrawer(s).continuations(t.Items)
	var out []string
	for i := range t.Items {
		out = append(out, r.item(&t.Items[i], cont[i])...)
	}
	if t.Progress != nil {
		out = append(out, r.progress(t.Progress)...)
	}
	return out
}

// TestDocumentParallel: on a session long enough for Document and Render
// to render on several goroutines, each equals a sequential rendering at
// every tool mode and reasoning state and at widths from 1, a live model
// sharing the replay's rows included. Run it with -race.
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
			for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
				for _, m := range []*Model{replay, live} {
					setState(m, width, display.SchemeDark, hide, tools)
					before := m.misses
					got, want := m.Document(), renderSerial(tr, m.Settings())
					if !slices.Equal(got.Lines, want) {
						t.Fatalf("%s width %d hide %v tools %d: Document vs a sequential rendering:\n%s",
							fmt.Sprint(m == live), width, hide, tools, lineDiffText(got.Lines, want))
					}
					if m == replay {
						if r := Render(tr, m.Settings()); !slices.Equal(r.Lines, want) {
							t.Fatalf("width %d hide %v tools %d: Render vs a sequential rendering:\n%s",
								width, hide, tools, lineDiffText(r.Lines, want))
						}
					}
					if m == replay && m.misses-before < parallelMin {
						t.Fatalf("width %d hide %v tools %d: %d items rendered, fewer than the parallel threshold", width, hide, tools, m.misses-before)
					}
				}
			}
		}
	}
}

// TestDrawerStretches: a Drawer given a transcript in stretches of any
// length draws what a sequential rendering of the whole draws, at every
// tool mode and reasoning state (hidden mode's folded steps read earlier
// stretches), and stops when yield does.
func TestDrawerStretches(t *testing.T) {
	log := sessiongen.GenerateN(9, 3000)
	tr := transcript.Project(log, transcript.Options{})
	tr.Progress = &transcript.Progress{StartSeq: 1, StartTime: ms("2026-07-21 10:40:00")}
	for _, stretch := range []int{1, 7, 600, len(tr.Items)} {
		for _, hide := range []bool{false, true} {
			for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
				s := Settings{Width: 61, HideReasoning: hide, Tools: tools, Now: ms("2026-07-21 10:45:00")}
				d := NewDrawer(s)
				var got []string
				add := func(row string) bool { got = append(got, row); return true }
				for i := 0; i < len(tr.Items); i += stretch {
					if !d.Draw(tr.Items[i:min(i+stretch, len(tr.Items))], add) {
						t.Fatal("Draw stopped with yield true")
					}
				}
				d.End(tr.Progress, add)
				if want := renderSerial(tr, s); !slices.Equal(got, want) {
					t.Fatalf("stretch %d hide %v tools %d: a Drawer vs a sequential rendering:\n%s",
						stretch, hide, tools, lineDiffText(got, want))
				}
			}
		}
	}
	n := 0
	if NewDrawer(Settings{Width: 40}).Draw(tr.Items, func(string) bool { n++; return n < 5 }) || n != 5 {
		t.Fatalf("Draw went on after yield returned false (%d rows)", n)
	}
}
