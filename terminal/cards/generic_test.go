package cards

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/terminal/display"
)

// TestGenericSource: the Markdown source genericSource cuts from the
// escaped lines is the one keptLines keeps of them, split and joined, and
// it is false exactly when keptLines keeps none, for a body with and
// without a title, of any lines.
func TestGenericSource(t *testing.T) {
	pieces := []string{"", "\n", "\n\n", "a", "b\n", "\nc", "d\n\ne", " ", "\x1b[2J", "é\n"}
	r := rand.New(rand.NewPCG(3, 4))
	check := func(prelude, lines []string) {
		t.Helper()
		var split, escaped []string
		for _, l := range lines {
			escaped = append(escaped, display.Escape(l))
			split = append(split, strings.Split(display.Escape(l), "\n")...)
		}
		kept := keptLines(len(prelude), split)
		want := strings.Join(append(slices.Clone(prelude), kept...), "\n")
		got, ok := genericSource(prelude, escaped)
		if ok != (len(kept) > 0) || ok && got != want {
			t.Fatalf("genericSource(%q, %q) = %q, %v; want %q, %v", prelude, lines, got, ok, want, len(kept) > 0)
		}
	}
	for _, prelude := range [][]string{nil, {"Title"}} {
		check(prelude, nil)
		for _, a := range pieces {
			check(prelude, []string{a})
			for _, b := range pieces {
				check(prelude, []string{a, b})
			}
		}
		for range 2000 {
			lines := make([]string, r.IntN(5))
			for i := range lines {
				var b strings.Builder
				for range r.IntN(4) {
					b.WriteString(pieces[r.IntN(len(pieces))])
				}
				lines[i] = b.String()
			}
			check(prelude, lines)
		}
	}
}
