package display_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// TestRowsFitAsTerminalsMeasure renders "x " and 30 skin-tone modifiers (an
// attack on the width rules), and other clusters wcwidth draws wider than the
// segmenter, at several widths: every row fits as glibc measures it, and
// no text is lost.
func TestRowsFitAsTerminalsMeasure(t *testing.T) {
	glibc := display.GlibcWidths(t)
	texts := []string{
		"x " + strings.Repeat("\U0001F3FB", 30),
		strings.Repeat("a\U0001F3FF ", 12),
		"thumbs \U0001F44D\U0001F3FD\U0001F3FD\U0001F3FD and \U0001F600\U0001F3FB\U0001F3FB",
		strings.Repeat("soft\u00adhyphen ", 5) + strings.Repeat("\u3248\u3249", 8),
	}
	for _, text := range texts {
		events := []sessionlog.Event{
			{Type: sessionlog.TypeTurnStart, Seq: 0, Time: 1, Data: []byte(`{"turn":1}`)},
			{Type: sessionlog.TypeUserMessage, Seq: 1, Time: 2, SurfaceOp: sessionlog.AppendOp(),
				Data: []byte(fmt.Sprintf(`{"id":"u1","role":"user","content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, text))},
		}
		for _, width := range []int{3, 5, 10, 17, 40} {
			doc := terminal.Render(transcript.Project(events, transcript.Options{}), terminal.Settings{Width: width, Now: 2})
			var all strings.Builder
			for i, row := range doc.Lines {
				plain := ansi.Strip(row)
				all.WriteString(plain)
				if w := display.TerminalWidth(glibc, plain); w > width {
					t.Errorf("%+q at width %d: row %d is %d cells in a terminal: %+q", text, width, i, w, plain)
				}
			}
			got := strings.Map(func(r rune) rune {
				if r == ' ' || r == '\u00ad' {
					return -1
				}
				return r
			}, all.String())
			for _, r := range strings.Map(func(r rune) rune {
				if r == ' ' || r == '\u00ad' {
					return -1
				}
				return r
			}, text) {
				if !strings.ContainsRune(got, r) {
					t.Errorf("%+q at width %d: %U lost", text, width, r)
				}
			}
		}
	}
}
