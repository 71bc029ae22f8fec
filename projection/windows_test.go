package projection_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/sessiongen"
	"github.com/dshtest/dshtest/projection"
)

// windowsCheck projects windows of events both ways, ProjectWindows against
// Project of each window's slice, and reports the first difference.
func windowsCheck(t *testing.T, name string, events []projection.Event, windows []projection.Window, opts projection.TranscriptOptions) {
	t.Helper()
	seen := make([]bool, len(windows))
	lastEnd := -1
	for k, got := range projection.ProjectWindows(events, windows, opts) {
		w := windows[k]
		if seen[k] {
			t.Fatalf("%s: window %d yielded twice", name, k)
		}
		seen[k] = true
		if w.End < lastEnd {
			t.Fatalf("%s: window %d (end %d) yielded after one that ends at %d", name, k, w.End, lastEnd)
		}
		lastEnd = w.End
		want := projection.Project(events[w.Start:w.End], opts)
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
func randomWindows(r *rand.Rand, size, n int) []projection.Window {
	out := []projection.Window{{0, size}, {size, size}, {0, 0}}
	for range n {
		a, b := r.IntN(size+1), r.IntN(size+1)
		out = append(out, projection.Window{Start: min(a, b), End: max(a, b)})
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestProjectWindows checks ProjectWindows against Project of every
// window's slice on the test logs and on generated sessions, which use
// every event kind (compaction summaries and checkpoints, whose markers
// depend on the window, included).
func TestProjectWindows(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log, err := projection.ParseLog(data, path)
		if err != nil {
			t.Fatal(err)
		}
		events := log.Events
		for _, eager := range []bool{false, true} {
			windowsCheck(t, path, events, randomWindows(r, len(events), 20), projection.TranscriptOptions{EagerSteps: eager})
		}
	}
	for seed := range int64(20) {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		windowsCheck(t, "generated", events, randomWindows(r, len(events), 30), projection.TranscriptOptions{EagerSteps: seed%2 == 1})
	}
}

// TestProjectWindowsPartition projects every history page of a generated
// session at several page sizes in one pass, as dshtest repro does.
func TestProjectWindowsPartition(t *testing.T) {
	events := sessiongen.GenerateN(3, 3000)
	h := projection.NewHistory(events)
	var windows []projection.Window
	for _, max := range []int{1, 2, 5, 50} {
		for before := int64(-1); ; {
			p := h.Page(before, max)
			windows = append(windows, projection.Window{Start: int(p.From), End: int(p.To) + 1})
			if !p.HasMore {
				break
			}
			before = p.From
		}
	}
	windowsCheck(t, "pages", events, windows, projection.TranscriptOptions{})
}

func TestProjectWindowsStop(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{})
	windows := []projection.Window{{0, 5}, {0, 10}, {2, 20}}
	n := 0
	for range projection.ProjectWindows(events, windows, projection.TranscriptOptions{}) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("yielded %d after break", n)
	}
}

func TestProjectWindowsPanics(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{})
	for _, w := range []projection.Window{{-1, 2}, {3, 2}, {0, len(events) + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("window %v: no panic", w)
				}
			}()
			projection.ProjectWindows(events, []projection.Window{w}, projection.TranscriptOptions{})
		}()
	}
}
