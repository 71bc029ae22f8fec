package invariant

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
)

// This file is live ≡ replay: what of a terminal's output must not depend
// on the path that built it, and the bisection for the first event on which
// the paths part. The harness's snapshot, repro's live-replay invariant and
// the property tests use them.

// Comparable returns the parts of a terminal's output that must not depend
// on whether it watched the events arrive or was mounted on them: the full
// transcript document, and every screen row except the status line, whose
// UI notices (a toggle's "Reasoning blocks hidden.") are responses to key
// presses, not facts of the log (terminal.md §11.4).
func Comparable(m *terminal.Model, height int) string {
	var b bytes.Buffer
	doc := m.Document()
	fmt.Fprintf(&b, "document rows=%d\n", len(doc.Lines))
	screen.AppendRows(&b, screen.Decode(doc.Lines), 0)
	rows := m.Screen()
	if n := height - 1; n >= 0 && n < len(rows) {
		rows = rows[:n]
	}
	b.WriteString("screen without the status line\n")
	screen.AppendRows(&b, screen.Decode(rows), 0)
	return b.String()
}

// FirstDivergence returns the smallest n in (lo, hi] for which differ(n)
// holds, given that differ(lo) does not and differ(hi) does. With differ(n)
// saying whether live and replay part on the log's first n events, events[n-1]
// is the first diverging event. It calls differ O(log(hi-lo)) times.
func FirstDivergence(lo, hi int, differ func(n int) bool) int {
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if differ(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func (c *Checker) checkLiveReplay() (bool, string) {
	var bad []string
	for i, sz := range c.sizes {
		what := c.sized[i].liveReplay
		if what == "" {
			continue
		}
		if !c.Quick {
			if seq, ok := c.divergence(sz); ok {
				what += fmt.Sprintf("; first diverging event seq %d", seq)
			}
		}
		bad = append(bad, fmt.Sprintf("%s: %s", sz, what))
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; ")
	}
	return true, fmt.Sprintf("document and screen identical at %s", sizesString(c.sizes))
}

// divergence bisects over log prefixes for the first event after which
// live and replay differ at sz (assuming they agree on the empty prefix).
func (c *Checker) divergence(sz Size) (int64, bool) {
	events := c.events
	if events == nil && c.scanned != nil {
		events = c.scanned.events
	}
	if events == nil {
		_ = c.read(func(e *sessionlog.Event) bool {
			events = append(events, *e)
			return true
		})
	}
	if len(events) == 0 {
		return 0, false
	}
	differ := func(n int) bool {
		d1, s1 := c.replay(events[:n], sz)
		d2, s2 := c.live(events[:n], sz)
		return !slices.Equal(d1, d2) || !slices.Equal(s1, s2)
	}
	n := FirstDivergence(0, len(events), differ) // differ(len(events)) holds
	return events[n-1].Seq, true
}

func firstDiff(a, b []string) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return rowDiff(i, x, y)
		}
	}
	return "same rows"
}

// rowDiff says how row i differs: replay x, live y.
func rowDiff(i int, x, y string) string {
	p := screen.Plain([]string{x, y})
	if p[0] == p[1] {
		return fmt.Sprintf("row %d differs in style (%s)", i, screen.Preview(p[0], 40))
	}
	return fmt.Sprintf("row %d: replay %s, live %s", i, screen.Preview(p[0], 40), screen.Preview(p[1], 40))
}

func sizesString(sizes []Size) string {
	s := make([]string, len(sizes))
	for i, sz := range sizes {
		s[i] = sz.String()
	}
	return strings.Join(s, ", ")
}
