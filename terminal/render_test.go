package terminal

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
// text rows are padded to exactly 20, headers are cut to 18 (no ellipsis).
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
		"", "● Tool / bash / A", "$ a very long", "command line", "line one is rather", "long", "日本語のテキストです", "[exit 0]",
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
