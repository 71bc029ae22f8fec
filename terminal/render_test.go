package terminal

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

// texts decodes a document into row texts with trailing spaces trimmed.
func texts(doc Document) []string {
	var out []string
	for _, r := range screen.Decode(doc.Lines) {
		out = append(out, r.TrimRight())
	}
	return out
}

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
		r := newRenderer(Settings{Width: 80, MaxToolOutputLines: tc.max, Tools: tc.tools})
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
	tr := transcript.Transcript{Items: []transcript.Item{toolCard(1, "bash", `{"command":"ls","description":""}`, &res, false)}}
	got := texts(Render(tr, Settings{Width: 20, MaxToolOutputLines: 4}))
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
			tr := transcript.Transcript{Items: []transcript.Item{tc.item}}
			doc := Render(tr, Settings{Width: 40})
			checkWidths(t, doc.Lines, 40)
			if got := texts(doc); !slices.Equal(got, tc.want) {
				t.Errorf("%s", lineDiffText(got, tc.want))
			}
			rows := screen.Decode(doc.Lines)
			if got := fmt.Sprint(rows[1].Runs); got != fmt.Sprint(tc.runs) {
				t.Errorf("header runs %s, want %s", got, tc.runs)
			}
			if rows[1].Width != ansi.StringWidth(tc.want[1]) {
				t.Errorf("header row is padded: %q", rows[1].Text)
			}
		})
	}
}

// TestHiddenMode: tool cards vanish with their gap row, a turn's later steps
// lose their header, empty continuations vanish entirely, context cards
// stay (folded), and footers are unaffected. Which step keeps the header
// depends on whether reasoning is shown.
func TestHiddenMode(t *testing.T) {
	ctx := strings.Join([]string{"<system-reminder>", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "</system-reminder>"}, "\n")
	tr := transcript.Transcript{Items: []transcript.Item{
		prompt(1, "Go"),
		step(2, 1, 1, true, reasoning("think")),
		footer(2, 1, 1, transcript.Timing{}, 0),
		toolCard(3, "bash", `{"command":"ls"}`, ptr("x"), false),
		step(4, 1, 2, true, text("Answer")),
		step(5, 1, 3, true),
		{ID: transcript.ItemID{Seq: 6}, Kind: transcript.KindContext,
			Context: &transcript.ContextCard{Label: "memory", Text: ctx}},
		step(7, 2, 1, true, text("Next turn")),
	}}
	for _, tc := range []struct {
		name string
		s    Settings
		want []string
	}{
		{"hidden, reasoning shown", Settings{Width: 30, Tools: display.ToolsHidden}, []string{
			"", "You", "Go",
			"", "Assistant", "Reasoning", "think",
			"Model wait 0.0s",
			"", "Answer",
			"", "Context · memory", "c1", "c2", "c3", "… +1 lines (Ctrl+O to expand)", "c5", "c6", "c7",
			"", "Assistant", "Next turn"}},
		{"hidden, reasoning hidden", Settings{Width: 30, Tools: display.ToolsHidden, HideReasoning: true}, []string{
			"", "You", "Go",
			"Model wait 0.0s",
			"", "Assistant", "Answer",
			"", "Context · memory", "c1", "c2", "c3", "… +1 lines (Ctrl+O to expand)", "c5", "c6", "c7",
			"", "Assistant", "Next turn"}},
		{"collapsed keeps every header", Settings{Width: 30, HideReasoning: true}, []string{
			"", "You", "Go",
			"", "Assistant",
			"Model wait 0.0s",
			"", "● Tool / bash", "x",
			"", "Assistant", "Answer",
			"", "Assistant",
			"", "Context · memory", "c1", "c2", "c3", "… +1 lines (Ctrl+O to expand)", "c5", "c6", "c7",
			"", "Assistant", "Next turn"}},
		{"expanded context unfolds", Settings{Width: 30, Tools: display.ToolsExpanded, HideReasoning: true}, []string{
			"", "You", "Go",
			"", "Assistant",
			"Model wait 0.0s",
			"", "● Tool / bash", "x",
			"", "Assistant", "Answer",
			"", "Assistant",
			"", "Context · memory", "c1", "c2", "c3", "c4", "c5", "c6", "c7",
			"", "Assistant", "Next turn"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := texts(Render(tr, tc.s)); !slices.Equal(got, tc.want) {
				t.Errorf("%s", lineDiffText(got, tc.want))
			}
		})
	}
}

func TestReasoningToggle(t *testing.T) {
	tr := transcript.Transcript{Items: []transcript.Item{step(1, 1, 1, true, reasoning("why"), text("what"))}}
	shown := Render(tr, Settings{Width: 20})
	if got, want := texts(shown), []string{"", "Assistant", "Reasoning", "why", "what"}; !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
	rows := screen.Decode(shown.Lines)
	if got := fmt.Sprint(rows[2].Runs, rows[3].Runs); got != "[style 0-8 dim italic] [style 0-2 dim italic]" {
		t.Errorf("reasoning runs %s", got)
	}
	if got, want := texts(Render(tr, Settings{Width: 20, HideReasoning: true})), []string{"", "Assistant", "what"}; !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
}

// TestWidth20 renders a varied transcript at 20 columns: every row fits,
// text rows are padded to exactly 20, headers are truncated to 18.
func TestWidth20(t *testing.T) {
	res := "line one is rather long\n日本語のテキストです"
	tr := transcript.Transcript{Items: []transcript.Item{
		prompt(1, "A prompt that is long enough to wrap at twenty columns, with `inline code`."),
		step(2, 1, 1, true, reasoning("Thinking about 🙂 emoji and 日本語"), text("```\nfenced code line that wraps\n```")),
		footer(2, 1, 1, transcript.Timing{WaitMs: 95000}, ms("2026-07-21 10:40:00")),
		toolCard(3, "bash", `{"command":"a very long command line","description":"A long description"}`, &res, false),
		{ID: transcript.ItemID{Seq: 4}, Kind: transcript.KindNotice,
			Notice: &transcript.Notice{Level: transcript.LevelWarning, Text: "Retrying model request (1/3) in 500ms: overloaded"}},
		{ID: transcript.ItemID{Seq: 5}, Kind: transcript.KindMarker, Marker: &transcript.Marker{Seq: 5}},
	}, Progress: &transcript.Progress{StartSeq: 6, StartTime: 0}}
	doc := Render(tr, Settings{Width: 20, Now: 1500})
	checkWidths(t, doc.Lines, 20)
	want := []string{
		"", "You", "A prompt that is", "long enough to wrap", "at twenty columns,", "with inline code.",
		"", "Assistant", "Reasoning", "Thinking about 🙂", "emoji and 日本語",
		"", "  fenced code line", "that wraps", "",
		"Model wait 1m35.0s ·", "Completed 2026-07-21", "10:40:00",
		"", "● Tool / bash / A…", "$ a very long", "command line", "line one is rather", "long", "日本語のテキストです", "[exit 0]",
		"", "Retrying model", "request (1/3) in", "500ms: overloaded",
		"", "… earlier context", "was compacted …",
		"", "Context being", "compacted 1.5s",
	}
	if got := texts(doc); !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
	for i, r := range screen.Decode(doc.Lines) {
		header := strings.HasPrefix(r.Text, "● Tool")
		switch {
		case r.Text == "":
		case header && r.Width > 18:
			t.Errorf("row %d: header wider than width-2: %q", i, r.Text)
		case !header && r.Width != 20:
			t.Errorf("row %d: text row not padded to 20: %q", i, r.Text)
		}
	}
}

func TestNoticesAndMarker(t *testing.T) {
	tr := transcript.Transcript{Items: []transcript.Item{
		{ID: transcript.ItemID{Seq: 1}, Kind: transcript.KindNotice, Notice: &transcript.Notice{Level: transcript.LevelInfo, Text: "info"}},
		{ID: transcript.ItemID{Seq: 2}, Kind: transcript.KindNotice, Notice: &transcript.Notice{Level: transcript.LevelWarning, Text: "Turn cancelled."}},
		{ID: transcript.ItemID{Seq: 3}, Kind: transcript.KindNotice, Notice: &transcript.Notice{Level: transcript.LevelError, Text: "bad\x1b[31m"}},
		{ID: transcript.ItemID{Seq: 4}, Kind: transcript.KindMarker, Marker: &transcript.Marker{Seq: 4}},
	}}
	rows := screen.Decode(Render(tr, Settings{Width: 40}).Lines)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%q %v", r.TrimRight(), r.Runs))
	}
	want := []string{`"" []`, `"info" [style 0-3 dim]`, `"" []`, `"Turn cancelled." [style 0-14 fg=yellow]`,
		`"" []`, `"bad\\x1b[31m" [style 0-10 fg=red]`, `"" []`, `"… earlier context was compacted …" [style 0-32 dim]`}
	if !slices.Equal(got, want) {
		t.Errorf("%s", lineDiffText(got, want))
	}
}

func TestSchemes(t *testing.T) {
	tr := transcript.Transcript{Items: []transcript.Item{prompt(1, "use `x`")}}
	for _, tc := range []struct {
		scheme       display.Scheme
		header, code string
	}{
		{display.SchemeDark, "style 0-2 fg=bright-magenta bold underline", "style 4-4 fg=cyan"},
		{display.SchemeLight, "style 0-2 fg=magenta bold underline", "style 4-4 fg=blue"},
	} {
		rows := screen.Decode(Render(tr, Settings{Width: 10, Scheme: tc.scheme}).Lines)
		if got := fmt.Sprint(rows[1].Runs[0], rows[2].Runs[0]); got != tc.header+" "+tc.code {
			t.Errorf("scheme %d: got %s", tc.scheme, got)
		}
		if v := screen.Violations(rows); len(v) > 0 {
			t.Errorf("scheme %d: theme violations %v", tc.scheme, v)
		}
	}
}

// TestRenderIgnoresEnvironment: the styled output does not depend on TERM,
// NO_COLOR, COLORTERM, TZ or the locale.
func TestRenderIgnoresEnvironment(t *testing.T) {
	tr := transcript.Transcript{Items: []transcript.Item{
		prompt(1, "hi `x`"), step(2, 1, 1, true, reasoning("r"), text("t")),
		footer(2, 1, 1, transcript.Timing{}, ms("2026-07-21 10:40:00")),
	}}
	s := Settings{Width: 30}
	want := Render(tr, s).Lines
	if !strings.Contains(strings.Join(want, ""), "\x1b[") {
		t.Fatal("no SGR in output")
	}
	for _, env := range [][2]string{{"NO_COLOR", "1"}, {"TERM", "dumb"}, {"COLORTERM", ""}, {"TZ", "Asia/Tokyo"}, {"LANG", "C"}, {"CLICOLOR_FORCE", "0"}} {
		t.Setenv(env[0], env[1])
	}
	if got := Render(tr, s).Lines; !slices.Equal(got, want) {
		t.Errorf("output changed with the environment:\n%s", lineDiffText(got, want))
	}
}

func TestContextCard(t *testing.T) {
	for _, tc := range []struct {
		name, label, text string
		want              []string
	}{
		{"frame stripped", "plugin", "<system-reminder>\n\nhello\n\nworld\n</system-reminder>",
			[]string{"", "Context · plugin", "hello", "world"}},
		{"mismatched frame kept", "p", "<a>\nx\n</b>", []string{"", "Context · p", "<a>", "x", "</b>"}},
		{"only frame", "p", "<a>\n</a>", []string{"", "Context · p"}},
		{"escaped label", "l\x07", "x", []string{"", `Context · l\x07`, "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := transcript.Transcript{Items: []transcript.Item{{ID: transcript.ItemID{Seq: 1}, Kind: transcript.KindContext,
				Context: &transcript.ContextCard{Label: tc.label, Text: tc.text}}}}
			if got := texts(Render(tr, Settings{Width: 40})); !slices.Equal(got, tc.want) {
				t.Errorf("%s", lineDiffText(got, tc.want))
			}
		})
	}
}
