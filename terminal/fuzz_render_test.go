package terminal

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// FuzzRender feeds the renderer untrusted text in every field a log can
// reach (prompt, reasoning, assistant text, context, tool name, arguments
// and output, notices, session references) at a fuzzed width, in every tool
// mode and both schemes. Whatever the text, rendering must not panic, every
// row must fit the width, and no row may carry a control character other
// than the SGR sequences the renderer writes itself.
func FuzzRender(f *testing.F) {
	seeds := []struct {
		text  string
		width uint8
	}{
		{"hello", 80},
		{"\x1b]2;pwned\x07\t\x7f\u009b31m", 44},
		{"日本語のテキスト🙂🙂 e\u0301 \u200d", 20},
		{"a\xffb\xe2\x80\xc0", 7},
		{strings.Repeat("long-line-", 60), 3},
		{"```go\nfmt.Println(`x`)\n```\n**bold** `code`", 104},
		{"<reminder>\nline\n</reminder>", 1},
	}
	for _, s := range seeds {
		f.Add(s.text, s.width)
	}
	f.Fuzz(func(t *testing.T, text string, w uint8) {
		width := int(w)%160 + 1
		tr := fuzzTranscript(text)
		for _, tools := range []display.ToolMode{display.ToolsCollapsed, display.ToolsExpanded, display.ToolsHidden} {
			for _, scheme := range []display.Scheme{display.SchemeDark, display.SchemeLight} {
				s := Settings{Width: width, Scheme: scheme, Tools: tools, HideReasoning: tools == display.ToolsExpanded, Now: 1784644800000}
				doc := Render(tr, s)
				for i, line := range doc.Lines {
					if got := ansi.StringWidth(line); got > width {
						t.Fatalf("width %d, tools %d: row %d is %d cells: %q", width, tools, i, got, line)
					}
					if bad := rawControl(line); bad != "" {
						t.Fatalf("width %d: row %d carries raw control %q: %q", width, i, bad, line)
					}
				}
			}
		}
	})
}

// fuzzTranscript puts text into every kind of item.
func fuzzTranscript(text string) transcript.Transcript {
	args, _ := json.Marshal(map[string]string{"command": text, "path": text})
	summary := text
	n, tokens := 3, int64(120)
	seq := int64(40)
	id := func(s int64, p uint8) transcript.ItemID { return transcript.ItemID{Seq: s, Part: p} }
	items := []transcript.Item{
		{ID: id(1, 0), Kind: transcript.KindPrompt, Prompt: &transcript.Prompt{Header: "You", Text: text}},
		{ID: id(2, 0), Kind: transcript.KindContext, Context: &transcript.ContextCard{Label: text, Text: text}},
		{ID: id(3, 0), Kind: transcript.KindSessionRef, SessionRef: &transcript.SessionRef{Entries: []string{text, "b (" + text + ")"}}},
		{ID: id(4, 0), Kind: transcript.KindStep, Step: &transcript.Step{Turn: 1, Step: 1, Settled: true,
			Blocks: []transcript.Block{{Type: "reasoning", Text: text}, {Type: "text", Text: text}}}},
		{ID: id(5, 0), Kind: transcript.KindToolCard, Tool: &transcript.ToolCard{CallID: "c1", Name: "bash", Arguments: string(args),
			HasResult: true, Result: []sessionlog.ContentBlock{{Type: "text", Text: text}}, Meta: json.RawMessage(`{"exitCode":1}`)}},
		{ID: id(6, 0), Kind: transcript.KindToolCard, Tool: &transcript.ToolCard{CallID: "c2", Name: text, Arguments: string(args)}},
		{ID: id(7, 0), Kind: transcript.KindToolCard, Tool: &transcript.ToolCard{CallID: "c3", Name: "edit",
			Arguments: `{"path":"a","old_string":` + string(mustJSON(text)) + `,"new_string":"x"}`, HasResult: true, IsError: true,
			Result: []sessionlog.ContentBlock{{Type: "text", Text: text}}}},
		{ID: id(4, 1), Kind: transcript.KindFooter, Footer: &transcript.Footer{Turn: 1, Step: 1,
			Timing: transcript.Timing{WaitMs: 1200, Open: transcript.BucketTools, OpenSince: 1784644700000}}},
		{ID: id(8, 0), Kind: transcript.KindNotice, Notice: &transcript.Notice{Level: transcript.LevelError, Text: text}},
		{ID: id(seq, 0), Kind: transcript.KindMarker, Marker: &transcript.Marker{Seq: seq, Summary: &summary,
			ShadowedItemCount: &n, ShadowedTokenCount: &tokens}},
	}
	return transcript.Transcript{Items: items, Progress: &transcript.Progress{StartSeq: 41, StartTime: 1784644790000}}
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// rawControl returns the first control character of line that is not part
// of an SGR sequence, or "".
func rawControl(line string) string {
	rest := line
	for rest != "" {
		i := strings.IndexFunc(rest, func(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) })
		if i < 0 {
			return ""
		}
		rest = rest[i:]
		if strings.HasPrefix(rest, "\x1b[") {
			end := strings.IndexFunc(rest[2:], func(r rune) bool { return r < '0' || r > ';' })
			if end >= 0 && rest[2+end] == 'm' {
				rest = rest[2+end+1:]
				continue
			}
		}
		r := []rune(rest)[0]
		return string(r)
	}
	return ""
}
