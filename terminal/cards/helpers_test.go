package cards

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/terminal/palette"
	"github.com/dshtest/dshtest/transcript"
)

// testRenderer is the card renderer at width in the dark scheme, with the
// default presenters, folded at maxLines (0: the default).
func testRenderer(width, maxLines int, tools display.ToolMode) *Renderer {
	if maxLines <= 0 {
		maxLines = DefaultMaxToolOutputLines
	}
	return &Renderer{Width: width, Palette: palette.For(display.SchemeDark), MaxLines: maxLines, Tools: tools}
}

// texts decodes rows into their texts with trailing spaces trimmed.
func texts(rows []string) []string {
	var out []string
	for _, r := range screen.Decode(rows) {
		out = append(out, r.TrimRight())
	}
	return out
}

func toolCard(seq int64, name, args string, result *string, isError bool) transcript.Item {
	tc := &transcript.ToolCard{CallID: name, Name: name, Arguments: args}
	if result != nil {
		tc.HasResult, tc.IsError = true, isError
		tc.Result = []sessionlog.ContentBlock{{Type: "text", Text: *result}}
	}
	return transcript.Item{ID: transcript.ItemID{Seq: seq}, Kind: transcript.KindToolCard, Tool: tc}
}

func ptr[T any](v T) *T { return &v }

// checkWidths fails if any row is wider than width cells.
func checkWidths(t *testing.T, lines []string, width int) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("row %d is %d cells wide, more than %d: %q", i, w, width, l)
		}
		if strings.ContainsAny(ansi.Strip(l), "\x1b\r\n\t\a") {
			t.Errorf("row %d contains a control character: %q", i, l)
		}
	}
}

// lineDiffText renders a line diff of two row lists for failure messages.
func lineDiffText(a, b []string) string {
	var sb strings.Builder
	n := max(len(a), len(b))
	for i := range n {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			fmt.Fprintf(&sb, "row %d:\n  - %q\n  + %q\n", i, x, y)
		}
	}
	if len(a) != len(b) {
		fmt.Fprintf(&sb, "lengths %d vs %d\n", len(a), len(b))
	}
	return sb.String()
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
