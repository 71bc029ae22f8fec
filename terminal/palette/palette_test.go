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
