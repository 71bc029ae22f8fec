package benchmarks

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// window returns the transcript rows of a model's screen: the screen less
// its header and status line.
func window(m *terminal.Model) []string {
	s := m.Screen()
	return s[1 : len(s)-1]
}

// TestBaselinesAgree proves that each naive baseline computes what the
// product computes, so that the speed-ups compare like with like: after a
// mount, live appends, a reasoning toggle and a resize, the model's window
// is the tail of the naive rebuild, and History pages equal the spec's
// scan.
func TestBaselinesAgree(t *testing.T) {
	f := fixtureFor(t, 1000)
	for si, ses := range f.sessions[:3] {
		m := terminal.New(config(ses.stored))
		s := settings(ses.stored)
		check := func(step string, log []sessionlog.Event, s terminal.Settings, rows int) {
			t.Helper()
			got, want := window(m), naiveRebuild(log, s, rows)
			// The window is the document's tail, padded when the
			// document is shorter than the screen.
			if len(want) < rows {
				want = append(want, make([]string, rows-len(want))...)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("session %d, %s: the model's window differs from the naive rebuild", si, step)
			}
		}
		check("mount", ses.stored, s, height-2)
		for k := range 300 {
			m.Update(terminal.EventMsg{Event: ses.tail[k]})
			if k%25 == 0 {
				check("live append", ses.all[:len(ses.stored)+k+1], s, height-2)
			}
		}
		log := ses.all[:len(ses.stored)+300]
		m.Update(ctrlR)
		s.HideReasoning = true
		check("toggle", log, s, height-2)
		m.Update(tea.WindowSizeMsg{Width: width2, Height: height2})
		s.Width = width2
		check("resize", log, s, height2-2)
		if got, want := m.Document().Lines, terminal.Render(transcript.Project(log, transcript.Options{}), s).Lines; !slices.Equal(got, want) {
			t.Fatalf("session %d: the model's document differs from the naive render", si)
		}
	}
	for _, n := range []int{1000, 10000} {
		log := historyLog(t, n)
		h := history.New(log)
		for _, before := range append(pageSeqs(len(log))[:200], -1, 0, int64(len(log))) {
			got, want := h.Page(before, historyMessages), history.ScanPage(log, before, historyMessages)
			if got.From != want.From || got.To != want.To || got.HasMore != want.HasMore || len(got.Events) != len(want.Events) {
				t.Fatalf("events=%d, before %d: History.Page %d–%d (more %v), HistoryPage %d–%d (more %v)",
					n, before, got.From, got.To, got.HasMore, want.From, want.To, want.HasMore)
			}
		}
	}
}

// TestMillionLog checks the 1M paging log: contiguous seqs, and History
// agrees with the scan near the copies' seams.
func TestMillionLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1M-event log")
	}
	log := historyLog(t, 1_000_000)
	if len(log) != 1_000_000 {
		t.Fatalf("%d events", len(log))
	}
	for i := range log {
		if log[i].Seq != int64(i) {
			t.Fatalf("event %d has seq %d", i, log[i].Seq)
		}
	}
	h := history.New(log)
	for c := int64(1); c < millionCopies; c++ {
		before := c * 100_000
		for _, b := range []int64{before - 1, before, before + 1, before + 500} {
			got, want := h.Page(b, historyMessages), history.ScanPage(log, b, historyMessages)
			if got.From != want.From || got.To != want.To || got.HasMore != want.HasMore {
				t.Fatalf("before %d: History.Page %d–%d, HistoryPage %d–%d", b, got.From, got.To, want.From, want.To)
			}
		}
	}
}
