package cards

import (
	"sort"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// FuzzPresenters feeds every built-in presenter (and the fallback) fuzzed
// arguments, result text, meta and error flag, pending and completed, at a
// fuzzed width: no panic, every row fits, no raw control reaches a row.
func FuzzPresenters(f *testing.F) {
	f.Add(uint8(0), `{"command":"ls","description":"List"}`, "a\n[exit code: 2]", `{}`, false, uint8(80))
	f.Add(uint8(1), `{"file_path":"a.txt","offset":2,"limit":3}`, "<path>/a</path>\n<type>file</type>\n<content>\nx\n</content>",
		`{"path":"/a","offset":1,"totalLines":1,"lines":[{"number":1,"text":"x"}]}`, false, uint8(30))
	f.Add(uint8(2), `{"file_path":"a","old_string":"x","new_string":"y"}`, "ok", `{"diffs":[{"path":"a","oldText":null,"newText":"y"}]}`, true, uint8(5))
	f.Add(uint8(3), `{"todos":[{"content":"a","status":"pending"}]}`, "# h\n- x", ``, false, uint8(1))
	names := make([]string, 0, len(builtinTools)+1)
	for n := range builtinTools {
		names = append(names, n)
	}
	sort.Strings(names)
	names = append(names, "mystery")
	f.Fuzz(func(t *testing.T, pick uint8, args, result, meta string, isError bool, w uint8) {
		width := int(w)%120 + 1
		name := names[int(pick)%len(names)]
		for _, done := range []bool{false, true} {
			tc := &transcript.ToolCard{CallID: "c", Name: name, Arguments: args}
			if done {
				tc.HasResult, tc.IsError = true, isError
				tc.Result = []sessionlog.ContentBlock{{Type: "text", Text: result}}
				tc.Meta = []byte(meta)
			}
			for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded} {
				for i, line := range testRenderer(width, 0, tools).ToolCard(tc) {
					if got := ansi.StringWidth(line); got > width {
						t.Fatalf("%s width %d: row %d is %d cells: %q", name, width, i, got, line)
					}
					if bad := rawControl(line); bad != "" {
						t.Fatalf("%s: row %d carries raw control %q: %q", name, i, bad, line)
					}
				}
			}
		}
	})
}
