package terminal

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// TestDrawersEqualRender draws transcripts through Drawers at several
// sizes at once, which share each item's width-independent layout
// (markdown.Memo, cards.Layouts) between the sizes, in stretches of
// several lengths: every size's rows equal RenderRows' under its settings
// alone, at every tool mode, on generated logs of every shape and on the
// corpus. The sizes' clocks and reasoning settings differ too: what the
// sizes share of an item (itemTexts) must not carry one size's settings
// into another's rows.
func TestDrawersEqualRender(t *testing.T) {
	logs := drawnLogs(t, 1500, 3)
	widths := []int{80, 1, 44, 104, 13}
	for _, src := range logs {
		tr := transcript.Project(src.log, transcript.Options{})
		now := FrozenNow(src.log)
		for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
			var settings []Settings
			for i, w := range widths {
				settings = append(settings, Settings{Width: w, Tools: tools, Now: now + int64(i%2)*61_000,
					HideReasoning: i == 2, MaxToolOutputLines: 3 + w%5})
			}
			got := make([][]string, len(settings))
			g := NewDrawers(settings)
			for start, n := 0, 1; start < len(tr.Items); start, n = start+n, n*3+1 {
				g.Draw(tr.Items[start:min(start+n, len(tr.Items))], func(size int, items [][]string, _ bool) {
					for _, rows := range items {
						got[size] = append(got[size], rows...)
					}
				})
			}
			g.End(tr.Progress, func(size int, items [][]string, _ bool) {
				for _, rows := range items {
					got[size] = append(got[size], rows...)
				}
			})
			for i, s := range settings {
				if want := slices.Collect(RenderRows(tr, s)); !slices.Equal(got[i], want) {
					t.Fatalf("%s, tools %v, width %d: Drawers' rows differ from RenderRows':\n%s",
						src.name, tools, s.Width, lineDiffText(want, got[i]))
				}
			}
		}
	}
}

// TestUnstyledRows: a row drawn Unstyled is the row drawn in a scheme with
// its sequences removed (screen.AppendPlain, which repro's search applies
// to a styled row, and render's text format) and its trailing spaces cut,
// at every width and tool mode, in both schemes, with reasoning shown and
// hidden and several fold limits, on generated logs of every shape and on
// the corpus.
func TestUnstyledRows(t *testing.T) {
	for _, src := range drawnLogs(t, 1500, 5) {
		tr := transcript.Project(src.log, transcript.Options{})
		now := FrozenNow(src.log)
		for _, w := range []int{80, 1, 44, 13} {
			for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
				for _, scheme := range []display.Scheme{display.SchemeDark, display.SchemeLight} {
					// render's text is drawn unstyled at any setting.
					s := Settings{Width: w, Tools: tools, Now: now, Scheme: scheme, HideReasoning: w == 44, MaxToolOutputLines: w}
					styled := slices.Collect(RenderRows(tr, s))
					s.Unstyled = true
					unstyled := slices.Collect(RenderRows(tr, s))
					want := make([]string, len(styled))
					for i, row := range styled {
						want[i] = strings.TrimRight(string(screen.AppendPlain(nil, row)), " ")
					}
					if !slices.Equal(unstyled, want) {
						t.Fatalf("%s, width %d, tools %v, scheme %v: unstyled rows differ from the styled ones stripped:\n%s",
							src.name, w, tools, scheme, lineDiffText(want, unstyled))
					}
				}
			}
		}
	}
}

// drawnLog is a log the drawing tests draw.
type drawnLog struct {
	name string
	log  []sessionlog.Event
}

// drawnLogs returns a generated log of every shape, of about events
// events from seed, and the corpus's logs the reader takes (20 of them in
// -short).
func drawnLogs(t *testing.T, events int, seed int64) []drawnLog {
	t.Helper()
	var logs []drawnLog
	for _, sh := range sessiongen.Shapes() {
		if cfg, ok := sh.Config(events); ok {
			logs = append(logs, drawnLog{string(sh), sessiongen.Generate(seed, cfg)})
		}
	}
	paths, _ := filepath.Glob(filepath.Join(corpusLogs, "*.jsonl"))
	if testing.Short() {
		paths = paths[:min(len(paths), 20)]
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		lg, err := jsonl.ReadLog(f, p)
		f.Close()
		if err == nil { // a log the reader refuses has no transcript to draw
			logs = append(logs, drawnLog{filepath.Base(p), lg.Events})
		}
	}
	return logs
}
