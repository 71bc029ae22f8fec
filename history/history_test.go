package history_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
)

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

// TestHistoryExample is example-session.expected.md §4.
func TestHistoryExample(t *testing.T) {
	events := trLoad(t, "example-session.jsonl")
	h := history.New(events)
	tests := []struct {
		name      string
		beforeSeq int64
		max       int
		want      trPageSummary
	}{
		{"tail page", -1, 3, trPageSummary{25, 40, 16, true}},
		{"before 25", 25, 3, trPageSummary{14, 24, 11, true}},
		{"before 14: 9 pulls in its chunks", 14, 3, trPageSummary{0, 13, 14, false}},
		{"default max is 50", -1, 0, trPageSummary{0, 40, 41, false}},
		{"negative max is 50", -1, -7, trPageSummary{0, 40, 41, false}},
		{"one message: the regenerated copy is not counted", -1, 1, trPageSummary{37, 40, 4, true}},
		{"two messages", -1, 2, trPageSummary{36, 40, 5, true}},
		{"before 0 is empty", 0, 3, trPageSummary{0, -1, 0, false}},
		{"before 1", 1, 3, trPageSummary{0, 0, 1, false}},
		{"before past the end is the whole log", 99, 3, trPageSummary{25, 40, 16, true}},
		{"tool results, replacements never count", 33, 4, trPageSummary{14, 32, 19, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.Page(tt.beforeSeq, tt.max)
			if diff := cmp.Diff(tt.want, trSummarize(got)); diff != "" {
				t.Errorf("Page(%d, %d) (-want +got):\n%s", tt.beforeSeq, tt.max, diff)
			}
			for i, e := range got.Events {
				if e.Seq != got.From+int64(i) {
					t.Fatalf("page is not one contiguous range: event %d has seq %d", i, e.Seq)
				}
			}
			scan := history.ScanPage(events, tt.beforeSeq, tt.max)
			if diff := trSamePage(scan, got); diff != "" {
				t.Errorf("indexed page differs from the §12.2 scan (-scan +indexed):\n%s", diff)
			}
		})
	}
}

// TestHistoryWalk walks every log backwards page by page, as the client's
// loadOlder does, and checks the pages tile the log and agree with the scan.
func TestHistoryWalk(t *testing.T) {
	for _, name := range trLogFiles(t) {
		events := trLoad(t, name)
		h := history.New(events)
		for max := 1; max <= 6; max++ {
			before, next := int64(-1), int64(len(events))
			for pages := 0; ; pages++ {
				if pages > len(events) {
					t.Fatalf("%s max=%d: paging does not terminate", name, max)
				}
				p := h.Page(before, max)
				if diff := trSamePage(history.ScanPage(events, before, max), p); diff != "" {
					t.Fatalf("%s Page(%d, %d) (-scan +indexed):\n%s", name, before, max, diff)
				}
				if p.To+1 != next {
					t.Fatalf("%s max=%d: page %d–%d does not end before %d", name, max, p.From, p.To, next)
				}
				if !p.HasMore {
					if p.From != 0 {
						t.Fatalf("%s max=%d: last page starts at %d", name, max, p.From)
					}
					break
				}
				before, next = p.From, p.From
			}
		}
	}
}

// TestHistoryNonContiguous pages a log with gaps in its seqs (every third
// event dropped): the index falls back to searching by seq.
func TestHistoryNonContiguous(t *testing.T) {
	all := trLoad(t, "example-session.jsonl")
	var events []sessionlog.Event
	for i, e := range all {
		if i%3 != 1 {
			events = append(events, e)
		}
	}
	h := history.New(events)
	for before := int64(-1); before <= 42; before++ {
		for max := 1; max <= 4; max++ {
			if diff := trSamePage(history.ScanPage(events, before, max), h.Page(before, max)); diff != "" {
				t.Fatalf("Page(%d, %d) (-scan +indexed):\n%s", before, max, diff)
			}
		}
	}
}

// TestHistoryWideSeqs pages a log whose seqs leap past the int32 range
// half-way: a chunk of group starts whose base does not fit an int32
// keeps its starts as int64 instead.
func TestHistoryWideSeqs(t *testing.T) {
	all := trLoad(t, "example-session.jsonl")
	events := append([]sessionlog.Event(nil), all...)
	const leap = int64(1) << 33
	for i := len(events) / 2; i < len(events); i++ {
		events[i].Seq += leap
		if seqs, ok := events[i].Sources(); ok && len(seqs) > 0 {
			for k := range seqs {
				if seqs[k] >= int64(len(events)/2) {
					seqs[k] += leap
				}
			}
			raw, err := json.Marshal(seqs)
			if err != nil {
				t.Fatal(err)
			}
			events[i].SourceEventSeqs = raw
		}
	}
	h := history.New(events)
	befores := []int64{-1, 0, leap, leap + 1<<31}
	for _, e := range events {
		befores = append(befores, e.Seq, e.Seq+1)
	}
	for _, before := range befores {
		for max := 1; max <= 4; max++ {
			if diff := trSamePage(history.ScanPage(events, before, max), h.Page(before, max)); diff != "" {
				t.Fatalf("Page(%d, %d) (-scan +indexed):\n%s", before, max, diff)
			}
		}
	}
}
