package transcript_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/transcript"
)

// The page comparison below is the history tests' (history/history_test.go).

type trPageSummary struct {
	From, To int64
	N        int
	HasMore  bool
}

func trSummarize(p history.Page) trPageSummary {
	return trPageSummary{From: p.From, To: p.To, N: len(p.Events), HasMore: p.HasMore}
}

// trSamePage compares two pages of the same log: bounds, flag and the seqs
// of their events (both share the log's events).
func trSamePage(a, b history.Page) string {
	seqs := func(p history.Page) []int64 {
		var s []int64
		for _, e := range p.Events {
			s = append(s, e.Seq)
		}
		return s
	}
	if d := cmp.Diff(trSummarize(a), trSummarize(b)); d != "" {
		return d
	}
	return cmp.Diff(seqs(a), seqs(b))
}

// TestHistoryPageProjects projects each page of the example on its own, the
// browser's situation: page 1 holds the checkpoint and its summary while the
// shadowed range lies on older pages.
func TestHistoryPageProjects(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	h := history.New(events)
	page1 := h.Page(-1, 3)
	rows := trRows(transcript.Project(page1.Events, transcript.Options{}), 1784630605302)
	want := []string{
		`[25] Assistant 2/2 text="The README describes a demo."`,
		`[25f] Footer 2/2: Model wait 0.0s · Completed 2026-07-21 10:41:40`,
		`[33] Marker summary=32 items=4 tokens=1900 text=<54 runes>`,
		`[36] You: "Summarize the README in one line"`,
		`[37] Assistant 3/1 text="A demo project."`,
		`[37f] Footer 3/1: Model wait 0.2s · Completed 2026-07-21 10:43:25`,
	}
	trCheckRows(t, rows, want)

	// A page cut between the summary and an older start still shows a
	// marker; one that starts after the summary shows it without data.
	rows = trRows(transcript.Project(events[33:], transcript.Options{}), 1784630605302)
	if rows[0] != `[33] Marker (no summary)` {
		t.Errorf("window 33–40 starts with %q", rows[0])
	}
}
