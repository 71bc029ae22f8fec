package terminal

import (
	"strconv"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/transcript"
)

// The hot paths' benchmarks measure one call each, so that a change to a
// path shows in its own figure: the whole document here, one line's wrap
// in terminal/display, a Markdown body's layout in terminal/markdown.

// BenchmarkRender renders the whole document of a synthetic session of
// 2,800 events (200 turns) at two widths.
func BenchmarkRender(b *testing.B) {
	tr := transcript.Project(synthLog(14*200), transcript.Options{})
	for _, width := range []int{100, 40} {
		b.Run("width="+strconv.Itoa(width), func(b *testing.B) {
			s := Settings{Width: width, Now: frozen()}
			b.ReportAllocs()
			for b.Loop() {
				Render(tr, s)
			}
		})
	}
}

// BenchmarkDrawers draws the document of a generated 10,000-event session
// at repro's three sizes at once (Drawers), the work repro's rendered
// invariants do on every log.
func BenchmarkDrawers(b *testing.B) {
	tr := transcript.Project(sessiongen.GenerateN(1, 10000), transcript.Options{})
	var settings []Settings
	for _, width := range []int{80, 44, 104} {
		settings = append(settings, Settings{Width: width, Now: frozen()})
	}
	b.ReportAllocs()
	for b.Loop() {
		g := NewDrawers(settings)
		g.Draw(tr.Items, func(int, [][]string, bool) {})
		g.End(tr.Progress, func(int, [][]string, bool) {})
	}
}
