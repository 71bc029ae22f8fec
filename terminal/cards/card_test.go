package cards

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

func TestLineDiff(t *testing.T) {
	show := func(ops []diffOp) string {
		var b strings.Builder
		for _, op := range ops {
			b.WriteString(string(op.kind) + op.text + "|")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name     string
		a, b     []string
		max      int
		want     string
		wantFail bool
	}{
		{"equal", []string{"a", "b"}, []string{"a", "b"}, 10, " a| b|", false},
		{"replace", []string{"old", "keep"}, []string{"new", "keep"}, 2, "-old|+new| keep|", false},
		{"insert middle", []string{"a", "c"}, []string{"a", "b", "c"}, 10, " a|+b| c|", false},
		{"delete", []string{"a", "b", "c"}, []string{"a", "c"}, 10, " a|-b| c|", false},
		{"all new", nil, []string{"x", "y"}, 10, "+x|+y|", false},
		{"interleaved", []string{"a", "x", "b", "y", "c"}, []string{"a", "b", "c"}, 10, " a|-x| b|-y| c|", false},
		{"over limit", []string{"1", "2", "3"}, []string{"4", "5", "6"}, 2, "", true},
		{"at limit", []string{"1", "2", "3"}, []string{"4", "5", "6"}, 6, "-1|-2|-3|+4|+5|+6|", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops, ok := lineDiff(tc.a, tc.b, tc.max)
			if ok == tc.wantFail {
				t.Fatalf("ok = %v", ok)
			}
			if got := show(ops); ok && got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	lines := func(n int) []display.Line {
		var out []display.Line
		for i := range n {
			out = append(out, display.TextLine(fmt.Sprint("l", i+1), dimSty))
		}
		return out
	}
	for _, tc := range []struct {
		n, max int
		tools  display.ToolMode
		want   string
	}{
		{6, 6, display.ToolsCollapsed, "l1 l2 l3 l4 l5 l6"},
		{7, 6, display.ToolsCollapsed, "l1 l2 l3 … +1 lines (Ctrl+O to expand) l5 l6 l7"},
		{181, 6, display.ToolsCollapsed, "l1 l2 l3 … +175 lines (Ctrl+O to expand) l179 l180 l181"},
		{5, 3, display.ToolsCollapsed, "l1 l2 … +2 lines (Ctrl+O to expand) l5"},
		{3, 1, display.ToolsCollapsed, "l1 … +2 lines (Ctrl+O to expand)"},
		{7, 6, display.ToolsExpanded, "l1 l2 l3 l4 l5 l6 l7"},
		{7, 6, display.ToolsHidden, "l1 l2 l3 … +1 lines (Ctrl+O to expand) l5 l6 l7"},
	} {
		r := testRenderer(80, tc.max, tc.tools)
		var got []string
		for _, l := range r.fold(lines(tc.n)) {
			got = append(got, l.PlainText())
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("fold(%d lines, max %d, %d) = %q, want %q", tc.n, tc.max, tc.tools, s, tc.want)
		}
	}
}

// TestTerminalFoldCountsLogicalLines: a long output line that wraps counts
// once; blank output lines are dropped.
func TestTerminalFoldCountsLogicalLines(t *testing.T) {
	long := strings.Repeat("x", 50)
	res := "a\n\n" + long + "\n  \nb\nc\n[exit code: 1]"
	tc := toolCard(1, "bash", `{"command":"ls","description":""}`, &res, false).Tool
	got := texts(testRenderer(20, 4, display.ToolsCollapsed).ToolCard(tc))
	want := []string{"", "● Tool / bash", "a", strings.Repeat("x", 20), strings.Repeat("x", 20), strings.Repeat("x", 10),
		"… +1 lines (Ctrl+O", "to expand)", "c", "[exit 1]"}
	if !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
}

// TestToolCards pins the built-in presenters' rows (presenters.md §2) and
// the generic fallback (§1.1).
func TestToolCards(t *testing.T) {
	code := `{"command":"go test ./...","description":"Run the tests","workdir":"/src"}`
	out := "ok\nPASS"
	failed := "boom"
	for _, tc := range []struct {
		name string
		item transcript.Item
		meta string
		want []string
		runs []string // header run
	}{
		{"pending bash", toolCard(1, "bash", code, nil, false), "",
			[]string{"", "○ Tool / bash / Run the tests", "$ go test ./...", "/src"}, []string{"style 0-28 fg=yellow"}},
		{"bash with an exit marker", toolCard(1, "bash", code, ptr("ok\nPASS\n[exit code: 2]"), false), "",
			[]string{"", "● Tool / bash / Run the tests", "$ go test ./...", "/src", "ok", "PASS", "[exit 2]"},
			[]string{"style 0-28 fg=green"}},
		{"bash without a marker exits 0", toolCard(1, "bash", code, &out, false), "",
			[]string{"", "● Tool / bash / Run the tests", "$ go test ./...", "/src", "ok", "PASS", "[exit 0]"},
			[]string{"style 0-28 fg=green"}},
		{"bash killed by a signal", toolCard(1, "bash", code, ptr("partial\n[timed out after 30000ms]\n[killed by signal: SIGTERM]"), false), "",
			[]string{"", "● Tool / bash / Run the tests", "$ go test ./...", "/src", "partial", "[timed out after 30000ms]", "[signal SIGTERM]"},
			[]string{"style 0-28 fg=green"}},
		{"bash without description is the fallback", toolCard(1, "bash", `{"command":"ls"}`, &out, false), "",
			[]string{"", "● Tool / bash", "ok", "PASS"}, []string{"style 0-12 fg=green"}},
		{"read error: title and text", toolCard(1, "read", `{"file_path":"x"}`, &failed, true), "",
			[]string{"", "● Tool / read", "Read x", "boom"}, []string{"style 0-12 fg=red"}},
		{"pending generic shows JSON", toolCard(1, "search", `{"query":"x","limit":3.50,"2":1}`, nil, false), "",
			[]string{"", "○ Tool / search", "{", `  "2": 1,`, `  "query": "x",`, `  "limit": 3.5`, "}"}, []string{"style 0-14 fg=yellow"}},
		{"pending generic, invalid JSON shown raw", toolCard(1, "search", `{oops`, nil, false), "",
			[]string{"", "○ Tool / search", "{oops"}, []string{"style 0-14 fg=yellow"}},
		{"write is a diff", toolCard(1, "write", `{"file_path":"a.txt","content":"x\ny\n"}`, &out, false), "",
			[]string{"", "● Tool / write", "a.txt", "+ x", "+ y", "└ +2 -0 · 1 file"}, []string{"style 0-13 fg=green"}},
		{"write error keeps the call diff", toolCard(1, "write", `{"file_path":"a.txt","content":"x"}`, &failed, true), "",
			[]string{"", "● Tool / write", "a.txt", "+ x", "└ +1 -0 · 1 file"}, []string{"style 0-13 fg=red"}},
		{"edit with meta diffs", toolCard(1, "edit", `{"file_path":"c","old_string":"a","new_string":"b"}`, &out, false),
			`{"diffs":[{"path":"c","oldText":"m=1\nk","newText":"m=2\nk"}]}`,
			[]string{"", "● Tool / edit", "c", "- m=1", "+ m=2", "  k", "└ +1 -1 · 1 file"}, []string{"style 0-12 fg=green"}},
		{"edit with invalid arguments is the fallback", toolCard(1, "edit", `{"path":"a.txt"}`, &out, false), "",
			[]string{"", "● Tool / edit", "ok", "PASS"}, []string{"style 0-12 fg=green"}},
		{"escaped name", toolCard(1, "to\x1bol\n", `{}`, nil, false), "",
			[]string{"", `○ Tool / to\x1bol\x0a`, "{}"}, []string{"style 0-20 fg=yellow"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.item.Tool.Meta = []byte(tc.meta)
			lines := testRenderer(40, 0, display.ToolsCollapsed).ToolCard(tc.item.Tool)
			checkWidths(t, lines, 40)
			if got := texts(lines); !slices.Equal(got, tc.want) {
				t.Errorf("%s", lineDiffText(got, tc.want))
			}
			rows := screen.Decode(lines)
			if got := fmt.Sprint(rows[1].Runs); got != fmt.Sprint(tc.runs) {
				t.Errorf("header runs %s, want %s", got, tc.runs)
			}
			if rows[1].Width != ansi.StringWidth(tc.want[1]) {
				t.Errorf("header row is padded: %q", rows[1].Text)
			}
		})
	}
}

func TestContextCard(t *testing.T) {
	for _, tc := range []struct {
		name, label, text string
		want              []string
	}{
		{"frame stripped", "plugin", "<system-reminder>\n\nhello\n\nworld\n</system-reminder>",
			[]string{"", "Context · plugin", "hello", "", "world"}},
		// Blank lines are rows, and lines of the fold (transcript.ts
		// ContextCardComponent): 7 lines fold to 3 + marker + 3.
		{"blank lines kept and folded", "p", "a\n\nb\n\nc\n\nd",
			[]string{"", "Context · p", "a", "", "b", "… +1 lines (Ctrl+O to expand)", "c", "", "d"}},
		{"only empty lines trimmed after the frame", "p", "<a>\n  \nx\n</a>", []string{"", "Context · p", "", "x"}},
		{"mismatched frame kept", "p", "<a>\nx\n</b>", []string{"", "Context · p", "<a>", "x", "</b>"}},
		{"only frame", "p", "<a>\n</a>", []string{"", "Context · p"}},
		{"escaped label", "l\x07", "x", []string{"", `Context · l\x07`, "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &transcript.ContextCard{Label: tc.label, Text: tc.text}
			if got := texts(testRenderer(40, 0, display.ToolsCollapsed).ContextCard(c)); !slices.Equal(got, tc.want) {
				t.Errorf("%s", lineDiffText(got, tc.want))
			}
		})
	}
}

// TestHeaderCut checks that a card header that does not fit is cut at
// width−2 cells with no ellipsis, a wide rune that would straddle the edge
// dropped (transcript.ts: truncateToWidth with an empty ellipsis).
func TestHeaderCut(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"a_very_long_tool_name_here", "○ Tool / a_very_lo"},
		{"工具工具工具工具工具", "○ Tool / 工具工具"},
	} {
		it := toolCard(1, tc.name, `{}`, nil, false)
		if got := texts(testRenderer(20, 0, display.ToolsCollapsed).ToolCard(it.Tool)); len(got) < 2 || got[1] != tc.want {
			t.Errorf("header of %q at width 20 = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestInspectTitle checks cordis_inspect's title as present.ts's
// presentInspectCall builds it: a given name always joins what, given or
// not.
func TestInspectTitle(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{}`, "Inspect cordis runtime"},
		{`{"what":"api"}`, "Inspect cordis runtime: api"},
		{`{"what":"api","name":"x"}`, "Inspect cordis runtime: api: x"},
		{`{"name":"x"}`, "Inspect cordis runtime: undefined: x"},
		{`{"what":"api","name":""}`, "Inspect cordis runtime: api: "},
		{`{"what":""}`, "Inspect cordis runtime: "},
	} {
		v := DefaultPresenters().Present(ToolCall{Name: "cordis_inspect", Arguments: tc.args})
		if v.Generic == nil || v.Generic.Title != tc.want {
			t.Errorf("cordis_inspect %s: view %+v, want the title %q", tc.args, v.Generic, tc.want)
		}
	}
}

// TestBodyPaddingKeepsDim checks that a dim card body row that wraps is
// dim to the last column, as pi-tui's Text pads it in the open SGR state,
// and that the line's last row pads plain (cause B).
func TestBodyPaddingKeepsDim(t *testing.T) {
	res := "ok"
	it := toolCard(1, "bash", `{"command":"echo aaaa bbbb cccc dddd","description":"d"}`, &res, false)
	rows := screen.Decode(testRenderer(18, 0, display.ToolsCollapsed).ToolCard(it.Tool))
	var got []string
	for _, r := range rows[2:4] {
		got = append(got, r.TrimRight()+" "+fmt.Sprint(r.Runs))
	}
	want := []string{"$ echo aaaa bbbb [style 0-17 dim]", "cccc dddd [style 0-8 dim]"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}
