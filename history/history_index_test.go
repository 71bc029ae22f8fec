package history_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
)

// hiLog builds a log of n events with seqs seq(0), seq(1), …: each event is
// a counted message with probability density, else a tool result, a
// replacement copy or a log-only event. A counted assistant message's group
// start is its own seq less back(i) events' worth when back is not nil.
type hiLog struct {
	n       int
	density float64
	seq     func(i int) int64
	back    func(r *rand.Rand, i int) int64 // a source seq, or -1 for none
	at      []int                           // when set, the only counted messages: user messages
}

func (l hiLog) build(seed uint64) []sessionlog.Event {
	r := rand.New(rand.NewPCG(seed, 1))
	events := make([]sessionlog.Event, l.n)
	for i := range events {
		e := sessionlog.Event{Type: "session/info", Seq: l.seq(i)}
		if l.at != nil {
			if slices.Contains(l.at, i) {
				e.Type = sessionlog.TypeUserMessage
				e.SurfaceOp = []byte(`"append"`)
			}
			events[i] = e
			continue
		}
		switch x := r.Float64(); {
		case x < l.density:
			e.Type = sessionlog.TypeUserMessage
			e.SurfaceOp = []byte(`"append"`)
			if r.IntN(2) == 0 {
				e.Type = sessionlog.TypeAssistantMessage
				if l.back != nil {
					if s := l.back(r, i); s >= 0 {
						e.SourceEventSeqs = []byte("[" + strconv.FormatInt(e.Seq-1, 10) + "," + strconv.FormatInt(s, 10) + "]")
					}
				}
			}
		case x < l.density+0.05:
			e.Type = sessionlog.TypeUserMessage
			e.SurfaceOp = []byte(`{"op":"replace","start":0,"end":0}`)
		case x < l.density+0.3:
			e.Type = sessionlog.TypeToolResult
			e.SurfaceOp = []byte(`"append"`)
		}
		events[i] = e
	}
	return events
}

func hiContiguous(i int) int64 { return int64(i) }

// TestHistoryIndexMatchesScan pages logs built to reach every path of the
// index (line and chunk boundaries, dense lines, chunks whose group starts
// are far apart or out of the int32 range, seqs with gaps) and checks every
// page against the §12.2 scan, both of the History New builds and of the
// one an Index builds without keeping the events (same bounds, no events).
func TestHistoryIndexMatchesScan(t *testing.T) {
	near := func(r *rand.Rand, i int) int64 { return int64(max(i-1-r.IntN(40), 0)) }
	tests := []struct {
		name string
		log  hiLog
		wide bool // some group starts must take the int64 fallback
	}{
		{"empty", hiLog{n: 0, seq: hiContiguous}, false},
		{"no counted message", hiLog{n: 400, seq: hiContiguous}, false},
		{"sparse", hiLog{n: 1200, density: 0.07, seq: hiContiguous, back: near}, false},
		{"every event counted", hiLog{n: 1000, density: 1, seq: hiContiguous}, false},
		{"dense with chunks", hiLog{n: 1200, density: 0.6, seq: hiContiguous, back: near}, false},
		{"one line exactly", hiLog{n: 384, density: 0.2, seq: hiContiguous, back: near}, false},
		{"two lines exactly", hiLog{n: 768, density: 0.3, seq: hiContiguous, back: near}, false},
		{"a line and one", hiLog{n: 385, density: 0.5, seq: hiContiguous, back: near}, false},
		// A chunk's group starts are one byte apart from its smallest, up to
		// 254; 255 marks a chunk kept in the fallback.
		{"chunk spans 254", hiLog{n: 300, seq: hiContiguous, at: []int{3, 10, 257}}, false},
		{"chunk spans 255", hiLog{n: 300, seq: hiContiguous, at: []int{3, 10, 258}}, true},
		// More counted messages than a line's uint16 counts hold, ending on
		// a line boundary.
		{"65k messages", hiLog{n: 200 * 384, density: 1, seq: hiContiguous}, false},
		{"group starts far back", hiLog{n: 1600, density: 0.1, seq: hiContiguous,
			back: func(r *rand.Rand, i int) int64 {
				if r.IntN(8) == 0 {
					return int64(r.IntN(i + 1))
				}
				return int64(max(i-1, 0))
			}}, true},
		{"group starts before the log", hiLog{n: 1000, density: 0.1, seq: func(i int) int64 { return 1_000_000 + int64(i) },
			back: func(r *rand.Rand, i int) int64 {
				switch r.IntN(10) {
				case 0:
					return 3 // far before the first seq, inside the int32 range
				case 1:
					return 1<<40 + int64(i) // ... ignored: a larger seq never lowers the group start
				}
				return 1_000_000 + int64(max(i-3, 0))
			}}, true},
		{"group starts out of the int32 range", hiLog{n: 1000, density: 0.1, seq: func(i int) int64 { return 1<<40 + int64(i) },
			back: func(r *rand.Rand, i int) int64 {
				if r.IntN(20) == 0 {
					return int64(r.IntN(100))
				}
				return 1<<40 + int64(max(i-2, 0))
			}}, true},
		{"seqs with gaps", hiLog{n: 1100, density: 0.1, seq: func(i int) int64 { return 7 + 3*int64(i) + int64(i/400)*1000 },
			back: func(r *rand.Rand, i int) int64 { return 7 + 3*int64(max(i-r.IntN(30), 0)) }}, false},
		{"seqs leap past the int32 range", hiLog{n: 1000, density: 0.15, seq: func(i int) int64 { return int64(i) + int64(i/400)<<33 },
			back: func(r *rand.Rand, i int) int64 { return int64(max(i-5, 0)) + int64(max(i-5, 0)/400)<<33 }}, true},
	}
	maxes := []int{-1, 1, 12, 13, 400}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := tt.log.build(uint64(len(tt.name)))
			h := history.New(events)
			x := history.NewIndex()
			for i := range events {
				x.Add(&events[i])
			}
			kept := x.History()
			if tt.wide && history.HistoryWideGroups(h) == 0 {
				t.Fatal("no group start took the int64 fallback")
			}
			befores := []int64{-1, 0, 1 << 50}
			r := rand.New(rand.NewPCG(2, 3))
			for i, e := range events {
				// Every line boundary, and a sample elsewhere: a seq, or the
				// gap after it.
				if d := i % 384; d <= 1 || d == 383 || r.IntN(5) == 0 && len(events) < 10_000 {
					befores = append(befores, e.Seq+int64(r.IntN(2)))
				}
			}
			for _, before := range befores {
				for _, max := range maxes {
					want := history.ScanPage(events, before, max)
					got := h.Page(before, max)
					if diff := hiDiff(want, got); diff != "" {
						t.Fatalf("Page(%d, %d): %s", before, max, diff)
					}
					k := kept.Page(before, max)
					if k.Events != nil || k.From != want.From || k.To != want.To || k.HasMore != want.HasMore {
						t.Fatalf("Index: Page(%d, %d) = %+v, want the bounds of %+v and no events", before, max, k, hiBounds(want))
					}
					// Span says where the page lies: the scan's events.
					for name, hh := range map[string]*history.History{"New": h, "Index": kept} {
						start, end := hh.Span(k)
						if end-start != len(want.Events) || len(want.Events) > 0 && &events[start] != &want.Events[0] {
							t.Fatalf("%s: Span(Page(%d, %d)) = [%d:%d], want the %d events of the scan's page", name, before, max, start, end, len(want.Events))
						}
					}
				}
			}
		})
	}
}

// hiBounds is p without its events.
func hiBounds(p history.Page) history.Page {
	p.Events = nil
	return p
}

// hiDiff compares two pages of one log: bounds, flag and the very events
// (both share the log's backing array).
func hiDiff(want, got history.Page) string {
	var b strings.Builder
	if want.From != got.From || want.To != got.To || want.HasMore != got.HasMore || len(want.Events) != len(got.Events) {
		fmt.Fprintf(&b, "got From=%d To=%d HasMore=%v len=%d, the scan gives From=%d To=%d HasMore=%v len=%d",
			got.From, got.To, got.HasMore, len(got.Events), want.From, want.To, want.HasMore, len(want.Events))
	} else if len(want.Events) > 0 && &want.Events[0] != &got.Events[0] {
		b.WriteString("same bounds, different events")
	}
	return b.String()
}
