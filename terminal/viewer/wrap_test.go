package viewer

import (
	"strings"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
)

// TestPagerRowsFit: the surface pager wraps as the renderer measures, so a
// row of standalone emoji modifiers (2 cells each in real terminals, 0 in
// some width tables) still fits the width.
func TestPagerRowsFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
	}{
		{"skin tones", "x " + strings.Repeat("\U0001F3FB", 30)},
		{"wide", strings.Repeat("界", 25)},
		{"words", strings.Repeat("word ", 20)},
	} {
		for _, width := range []int{3, 10, 17} {
			p := NewPager("t", []string{tc.line}, width, 24)
			var joined strings.Builder
			for _, row := range p.lines {
				if w := display.TextWidth(row); w > width {
					t.Errorf("%s at width %d: row %q is %d cells", tc.name, width, row, w)
				}
				joined.WriteString(row)
			}
			if got, want := strings.ReplaceAll(joined.String(), " ", ""), strings.ReplaceAll(tc.line, " ", ""); got != want {
				t.Errorf("%s at width %d: text lost: %q, want %q", tc.name, width, got, want)
			}
		}
	}
}
