package sessiongen

import (
	"encoding/json"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/transcript"
)

// shapeStats are the figures a shape's doc comment states.
type shapeStats struct {
	events, bytes, prompts, calls, chunks, items int
	checkpoints, depth                           int
	shadowed                                     float64 // the mean nodes a checkpoint shadows
}

func statsOf(t *testing.T, events []sessionlog.Event) shapeStats {
	t.Helper()
	s := shapeStats{events: len(events), bytes: len(encodeLog(t, events))}
	depth := map[int64]int{} // checkpoint seq → its nesting depth
	shadowed := 0
	for i := range events {
		e := &events[i]
		switch sessionlog.Canonical(e.Type) {
		case sessionlog.TypeToolCall:
			s.calls++
		case sessionlog.TypeAssistantChunk:
			s.chunks++
		}
		if !sessionlog.IsCheckpoint(e) {
			continue
		}
		var src []int64
		if err := json.Unmarshal(e.SourceEventSeqs, &src); err != nil || len(src) < 3 {
			t.Fatalf("checkpoint %d: sources %s", e.Seq, e.SourceEventSeqs)
		}
		d := 1
		for _, seq := range src[2:] { // the start, the summary, then the shadowed nodes
			if n, ok := depth[seq]; ok {
				d = max(d, n+1)
			}
		}
		depth[e.Seq] = d
		s.depth = max(s.depth, d)
		s.checkpoints++
		shadowed += len(src) - 2
	}
	if s.checkpoints > 0 {
		s.shadowed = float64(shadowed) / float64(s.checkpoints)
	}
	tr := transcript.Project(events, transcript.Options{})
	s.items = len(tr.Items)
	for _, it := range tr.Items {
		if it.Kind == transcript.KindPrompt {
			s.prompts++
		}
	}
	return s
}

// TestDenseShape holds the dense shape to the figures its doc comment
// states, on a 100k-event log: no chunks, about 9k prompts and 9k tool
// calls, a chain of about 350 nested checkpoints each shadowing about 100
// nodes, and more than twice the small shape's transcript items an event.
func TestDenseShape(t *testing.T) {
	if testing.Short() {
		t.Skip("generates two 100k-event logs")
	}
	within := func(what string, got, lo, hi float64) {
		t.Helper()
		if got < lo || got > hi {
			t.Errorf("dense, 100k events: %s = %.2f, want %.0f to %.0f", what, got, lo, hi)
		}
	}
	dcfg, _ := ShapeDense.Config(100000)
	scfg, _ := ShapeSmall.Config(100000)
	d, s := statsOf(t, Generate(1, dcfg)), statsOf(t, Generate(1, scfg))
	t.Logf("dense: %+v", d)
	t.Logf("small: %+v", s)
	perEvent := func(x shapeStats) float64 { return float64(x.items) / float64(x.events) }
	if d.chunks != 0 {
		t.Errorf("dense: %d chunks, want none", d.chunks)
	}
	within("prompts", float64(d.prompts), 8500, 10000)
	within("tool calls", float64(d.calls), 8000, 10000)
	within("chain depth", float64(d.depth), 330, 380)
	within("checkpoints", float64(d.checkpoints), float64(d.depth), float64(d.depth)) // one chain
	within("nodes a checkpoint shadows", d.shadowed, 90, 110)
	within("bytes an event", float64(d.bytes)/float64(d.events), 200, 250)
	within("items an event ÷ small's", perEvent(d)/perEvent(s), 2.2, 2.6)
}

// TestDenseValid: dense logs of either vocabulary load, after a trip
// through the JSONL codec, and hold no chunks.
func TestDenseValid(t *testing.T) {
	for seed := range int64(10) {
		cfg, _ := ShapeDense.Config(3000)
		events := Generate(seed, cfg)
		log, err := jsonl.ParseLog(encodeLog(t, events), "dense.jsonl")
		if err != nil {
			t.Fatalf("seed %d: parse: %v", seed, err)
		}
		if _, err := surface.Load(log.Events, func() int64 { return 0 }); err != nil {
			t.Fatalf("seed %d: load: %v", seed, err)
		}
		if s := statsOf(t, events); s.chunks != 0 || s.depth < 5 {
			t.Fatalf("seed %d: %d chunks, chain %d deep", seed, s.chunks, s.depth)
		}
	}
}
