package minimize

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
)

// prompts returns the human prompt texts of a log, read from the log in
// order: what a correct transcript shows.
func prompts(events []sessionlog.Event) []string {
	var out []string
	for i := range events {
		e := &events[i]
		if e.Type != sessionlog.TypeUserMessage || !sessionlog.IsAppendSurfaceEvent(e) {
			continue
		}
		var m sessionlog.Message
		if json.Unmarshal(e.Data, &m) != nil {
			continue
		}
		if sessionlog.DecodeSource(m.Source).Kind == "user" {
			if t := sessionlog.TrimJS(sessionlog.ContentText(m.Content)); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// surfacePrompts is a buggy projector: it draws prompts from the model
// surface, so compaction erases them.
func surfacePrompts(events []sessionlog.Event) []string {
	fold, err := surface.Fold(events, 0)
	if err != nil {
		return nil
	}
	var surface []sessionlog.Event
	for _, s := range fold.Nodes {
		surface = append(surface, events[s])
	}
	return prompts(surface)
}

// replacementLeak is a buggy projector: it renders every user/message,
// replacements included, so model-only text reaches the screen.
func replacementLeak(events []sessionlog.Event) bool {
	for i := range events {
		e := &events[i]
		if e.Type == sessionlog.TypeUserMessage && strings.Contains(string(e.Data), sessiongen.ModelOnlyCanary) {
			return true
		}
	}
	return false
}

func loads(t *testing.T, events []sessionlog.Event) {
	t.Helper()
	if _, err := surface.Load(events, func() int64 { return 0 }); err != nil {
		t.Fatalf("minimized log does not load: %v", err)
	}
}

func TestMinimizeSurfaceProjectorBug(t *testing.T) {
	fails := func(ev []sessionlog.Event) bool {
		return !slices.Equal(prompts(ev), surfacePrompts(ev))
	}
	found := 0
	for seed := int64(0); seed < 40 && found < 8; seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		if !fails(events) {
			continue
		}
		found++
		got := Minimize(events, fails)
		loads(t, got)
		if !fails(got) {
			t.Fatalf("seed %d: minimized log no longer fails", seed)
		}
		if len(got) > 8 {
			t.Errorf("seed %d: %d events shrank to %d, want ≤ 8", seed, len(events), len(got))
		}
		t.Logf("seed %d: %d → %d events (%s)", seed, len(events), len(got), types(got))
	}
	if found == 0 {
		t.Fatal("no generated log trips the surface projector")
	}
}

func TestMinimizeReplacementLeak(t *testing.T) {
	for seed := int64(0); seed < 10; seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		if !replacementLeak(events) {
			continue
		}
		got := Minimize(events, replacementLeak)
		loads(t, got)
		if !replacementLeak(got) || len(got) > 3 {
			t.Fatalf("seed %d: got %d events (%s)", seed, len(got), types(got))
		}
	}
}

// TestMinimizePrunedCard: a projector that lets a pruned copy overwrite
// its card needs the call, the original result and the copy.
func TestMinimizePrunedCard(t *testing.T) {
	fails := func(ev []sessionlog.Event) bool {
		for i := range ev {
			if ev[i].Type == sessionlog.TypeToolResult && sessionlog.IsReplacementSurfaceEvent(&ev[i]) {
				return true
			}
		}
		return false
	}
	n := 0
	for seed := int64(0); seed < 30; seed++ {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		if !fails(events) {
			continue
		}
		n++
		got := Minimize(events, fails)
		loads(t, got)
		// An append tool/result needs an earlier event to cite, then the
		// copy: three events.
		if len(got) != 3 {
			t.Fatalf("seed %d: got %d events (%s), want 3", seed, len(got), types(got))
		}
	}
	if n == 0 {
		t.Fatal("no pruned results generated")
	}
}

func TestMinimizeKeepsPassingLog(t *testing.T) {
	events := sessiongen.Generate(1, sessiongen.Config{})
	got := Minimize(events, func([]sessionlog.Event) bool { return false })
	if len(got) != len(events) {
		t.Fatalf("a log that does not fail changed: %d → %d", len(events), len(got))
	}
}

func TestMinimizeDeterministic(t *testing.T) {
	events := sessiongen.Generate(4, sessiongen.Config{})
	fails := func(ev []sessionlog.Event) bool { return len(prompts(ev)) >= 2 }
	a, b := Minimize(events, fails), Minimize(events, fails)
	if types(a) != types(b) || len(a) != 2 {
		t.Fatalf("runs differ or not minimal: %s vs %s", types(a), types(b))
	}
}

func TestRenumber(t *testing.T) {
	raw := `{"type":"user/message","seq":0,"time":1,"data":{"id":"a","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"session/title","seq":1,"time":2,"data":{"title":"x"}}
{"type":"user/message","seq":2,"time":3,"data":{"id":"b","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"tool/call","seq":3,"time":4,"data":{"turn":1,"step":1,"callId":"c","name":"bash","arguments":"{}"}}
{"type":"compaction/summary","seq":4,"time":5,"data":{"compactionId":"k","summary":[],"shadowedRange":{"start":0,"end":2},"shadowedSeqs":[0,2],"shadowedTokenCount":9,"provider":"p","model":"m"}}
{"type":"user/message","seq":5,"time":6,"data":{"id":"c","role":"user","content":[],"source":{"kind":"plugin","plugin":"compact"}},"surfaceOp":{"op":"replace","start":0,"end":2},"sourceEventSeqs":[4,0,2,3]}
`
	log, err := jsonl.ParseLog([]byte(raw), "t")
	if err != nil {
		t.Fatal(err)
	}
	got, _, ok := Renumber(log.Events, []int{0, 2, 4, 5})
	if !ok {
		t.Fatal("Renumber failed")
	}
	loads(t, got)
	if op := got[3].Op(); op.Start != 0 || op.End != 1 {
		t.Errorf("replace = %d..%d, want 0..1", op.Start, op.End)
	}
	if s := string(got[3].SourceEventSeqs); s != "[2,0,1]" {
		t.Errorf("sources = %s, want [2,0,1]", s)
	}
	want := `{"compactionId":"k","summary":[],"shadowedRange":{"start":0,"end":1},"shadowedSeqs":[0,1],"shadowedTokenCount":9,"provider":"p","model":"m"}`
	if s := string(got[2].Data); s != want {
		t.Errorf("summary data:\n got %s\nwant %s", s, want)
	}
	// Start 0 dropped: the replace narrows to the kept shadowed node 2.
	got, _, ok = Renumber(log.Events, []int{2, 4, 5})
	if !ok {
		t.Fatal("Renumber refused a replace it can narrow")
	}
	loads(t, got)
	if op := got[2].Op(); op.Start != 0 || op.End != 0 {
		t.Errorf("narrowed replace = %d..%d, want 0..0", op.Start, op.End)
	}
	if _, _, ok := Renumber(log.Events, []int{1, 4, 5}); ok {
		t.Error("Renumber kept a replace that shadows nothing kept")
	}
}

func types(events []sessionlog.Event) string {
	var s []string
	for _, e := range events {
		op := ""
		if sessionlog.IsReplacementSurfaceEvent(&e) {
			op = "(replace)"
		}
		s = append(s, e.Type+op)
	}
	return strings.Join(s, " ")
}
