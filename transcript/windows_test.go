package transcript_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/transcript"
)

// windowsCheck projects windows of events both ways, ProjectWindows against
// Project of each window's slice, and reports the first difference.
func windowsCheck(t *testing.T, name string, events []sessionlog.Event, windows []transcript.Window, opts transcript.Options) {
	t.Helper()
	seen := make([]bool, len(windows))
	lastEnd := -1
	for k, got := range transcript.ProjectWindows(events, windows, opts) {
		w := windows[k]
		if seen[k] {
			t.Fatalf("%s: window %d yielded twice", name, k)
		}
		seen[k] = true
		if w.End < lastEnd {
			t.Fatalf("%s: window %d (end %d) yielded after one that ends at %d", name, k, w.End, lastEnd)
		}
		lastEnd = w.End
		want := transcript.Project(events[w.Start:w.End], opts)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: window %d [%d:%d] (-Project +ProjectWindows):\n%s", name, k, w.Start, w.End, diff)
		}
	}
	for k, ok := range seen {
		if !ok {
			t.Fatalf("%s: window %d %v never yielded", name, k, windows[k])
		}
	}
}

// randomWindows returns n windows of a log of length size: random ranges,
// the whole log, and empty ones, in random order, some overlapping.
func randomWindows(r *rand.Rand, size, n int) []transcript.Window {
	out := []transcript.Window{{0, size}, {size, size}, {0, 0}}
	for range n {
		a, b := r.IntN(size+1), r.IntN(size+1)
		out = append(out, transcript.Window{Start: min(a, b), End: max(a, b)})
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestProjectWindows checks ProjectWindows against Project of every
// window's slice on the test logs and on generated sessions, which use
// every event kind (compaction summaries and checkpoints, whose markers
// depend on the window, included).
func TestProjectWindows(t *testing.T) {
	paths, err := filepath.Glob(testdataDir + "/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log, err := jsonl.ParseLog(data, path)
		if err != nil {
			t.Fatal(err)
		}
		events := log.Events
		for _, eager := range []bool{false, true} {
			windowsCheck(t, path, events, randomWindows(r, len(events), 20), transcript.Options{EagerSteps: eager})
		}
	}
	for seed := range int64(20) {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		windowsCheck(t, "generated", events, randomWindows(r, len(events), 30), transcript.Options{EagerSteps: seed%2 == 1})
	}
}

// TestProjectWindowsPartition projects every history page of a generated
// session at several page sizes in one pass, as dshtest repro does.
func TestProjectWindowsPartition(t *testing.T) {
	events := sessiongen.GenerateN(3, 3000)
	h := history.New(events)
	var windows []transcript.Window
	for _, max := range []int{1, 2, 5, 50} {
		for before := int64(-1); ; {
			p := h.Page(before, max)
			windows = append(windows, transcript.Window{Start: int(p.From), End: int(p.To) + 1})
			if !p.HasMore {
				break
			}
			before = p.From
		}
	}
	windowsCheck(t, "pages", events, windows, transcript.Options{})
}

func TestProjectWindowsStop(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{})
	windows := []transcript.Window{{0, 5}, {0, 10}, {2, 20}}
	n := 0
	for range transcript.ProjectWindows(events, windows, transcript.Options{}) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("yielded %d after break", n)
	}
}

func TestProjectWindowsPanics(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{})
	for _, w := range []transcript.Window{{-1, 2}, {3, 2}, {0, len(events) + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("window %v: no panic", w)
				}
			}()
			transcript.ProjectWindows(events, []transcript.Window{w}, transcript.Options{})
		}()
	}
}

// TestWindowsStreamed: Windows fed a log one event at a time, each from a
// variable overwritten after Apply, yields what ProjectWindows does, and
// its End panics on a window that reaches past the log.
func TestWindowsStreamed(t *testing.T) {
	events := sessiongen.Generate(3, sessiongen.Config{Events: 2000})
	windows := randomWindows(rand.New(rand.NewPCG(7, 8)), len(events), 60)
	want := map[int]transcript.Transcript{}
	for k, tr := range transcript.ProjectWindows(events, windows, transcript.Options{}) {
		want[k] = tr
	}
	got := map[int]transcript.Transcript{}
	keep := func(k int, tr transcript.Transcript) bool { got[k] = tr; return true }
	p := transcript.NewWindows(windows, transcript.Options{})
	var e sessionlog.Event
	for i := range events {
		e = events[i]
		p.Apply(&e, keep)
		e = sessionlog.Event{Type: "overwritten", Seq: -1}
	}
	p.End(keep)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("streamed windows differ (-ProjectWindows +Windows):\n%s", diff)
	}
	defer func() {
		if recover() == nil {
			t.Error("a window past the log's end: no panic")
		}
	}()
	p = transcript.NewWindows([]transcript.Window{{0, len(events) + 1}}, transcript.Options{})
	for i := range events {
		p.Apply(&events[i], keep)
	}
	p.End(keep)
}

// TestWindowsSettled: windows that hand on their settled items while the
// log is read yield the rest, and the two together are each window's
// transcript; a window as long as the log holds no more than what has not
// settled.
func TestWindowsSettled(t *testing.T) {
	events := sessiongen.Generate(5, sessiongen.Config{Events: 3000})
	windows := append(randomWindows(rand.New(rand.NewPCG(9, 10)), len(events), 40), transcript.Window{Start: 0, End: len(events)})
	for _, eager := range []bool{false, true} {
		opts := transcript.Options{EagerSteps: eager}
		want := map[int]transcript.Transcript{}
		for k, tr := range transcript.ProjectWindows(events, windows, opts) {
			want[k] = tr
		}
		taken := map[int][]transcript.Item{}
		got := map[int]transcript.Transcript{}
		keep := func(k int, tr transcript.Transcript) bool {
			got[k] = transcript.Transcript{Items: append(taken[k], tr.Items...), Progress: tr.Progress}
			if k == len(windows)-1 && len(tr.Items) >= len(want[k].Items)/2 {
				t.Errorf("eager %v: the whole log's window still held %d of its %d items at the end", eager, len(tr.Items), len(want[k].Items))
			}
			return true
		}
		p := transcript.NewWindows(windows, opts)
		p.Settled(func(k int, items []transcript.Item) { taken[k] = append(taken[k], items...) })
		for i := range events {
			p.Apply(&events[i], keep)
		}
		p.End(keep)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("eager %v: settled and rest differ from the windows' transcripts (-want +got):\n%s", eager, diff)
		}
	}
}
