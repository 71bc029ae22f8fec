package palette

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// TestWriteMatchesLipgloss: the precomputed SGR written around each span equals
// what lipgloss's Style.Render produces, cell for cell, for every style of
// both schemes.
func TestWriteMatchesLipgloss(t *testing.T) {
	for si := range palettes {
		p := &palettes[si]
		for r := range display.NumRoles {
			for a := range display.Attr(display.NumAttrs) {
				for _, text := range []string{"x", "You", "two words", " padded ", "日本🙂", `\x1b]2;t\x07`} {
					var b strings.Builder
					p.write(&b, display.Style{Fg: r, Attrs: a}, text)
					got, want := b.String(), p[r][a].style.Render(text)
					if a&(display.Underline|display.Strike) != 0 && strings.Contains(text, " ") {
						// lipgloss styles these spaces with the colour and the
						// line only; write keeps the whole style on every cell.
						want = p[r][a].style.Render(strings.ReplaceAll(text, " ", "_"))
					}
					g, w := screen.DecodeLine(got), screen.DecodeLine(want)
					w.Text = strings.ReplaceAll(w.Text, "_", " ")
					if g.Text != w.Text || fmt.Sprint(g.Runs) != fmt.Sprint(w.Runs) {
						t.Errorf("scheme %d role %d attrs %b %q: got %q %v, lipgloss %q %v", si, r, a, text, g.Text, g.Runs, w.Text, w.Runs)
					}
				}
			}
		}
	}
}

// TestUnstyledRow: the unstyled palette writes a row's text without
// sequences, padding or trailing spaces, whatever the line's spans.
func TestUnstyledRow(t *testing.T) {
	bold := display.Style{Attrs: display.Bold}
	for _, tc := range []struct {
		name string
		line display.Line
		want string
	}{
		{"empty", nil, ""},
		{"one span", display.Line{{Text: "ab c"}}, "ab c"},
		{"one span, trailing spaces", display.Line{{Text: "ab  "}}, "ab"},
		{"styled spans", display.Line{{Text: "a ", Style: bold}, {Text: "b"}}, "a b"},
		{"blank last spans", display.Line{{Text: "a"}, {Text: " b  ", Style: bold}, {Text: "   "}, {Text: ""}}, "a b"},
		{"all blank", display.Line{{Text: "  "}, {Text: " ", Style: bold}}, ""},
		{"inner spaces kept", display.Line{{Text: "  a"}, {Text: "  "}, {Text: "b"}}, "  a  b"},
	} {
		for _, width := range []int{0, 3, 20} {
			if got := Unstyled().Padded(tc.line, width, bold); got != tc.want {
				t.Errorf("%s: Padded(width %d) = %q, want %q", tc.name, width, got, tc.want)
			}
		}
		if got := Unstyled().Unpadded(tc.line); got != tc.want {
			t.Errorf("%s: Unpadded = %q, want %q", tc.name, got, tc.want)
		}
	}
}
