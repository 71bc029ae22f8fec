package sessiongen

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/surface"
)

// realCorpus is the shared corpus of real upstream logs, reached from the
// package directory through the repository's ../shared.
const realCorpus = "../../../../shared/corpus/upstream-logs"

func needCorpus(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(realCorpus + ".tsv"); err != nil {
		t.Skipf("the real shape needs the shared corpus at %s (../shared beside the repository): %v", realCorpus, err)
	}
}

func TestRealPool(t *testing.T) {
	needCorpus(t)
	p, err := readRealPool(realCorpus)
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for _, tr := range p.turns {
		events += len(tr.events)
	}
	t.Logf("%d logs, %d skipped, %d turns (%d events), %d turns dropped", p.logs, p.skipped, len(p.turns), events, p.dropped)
	if len(p.turns) < 100 {
		t.Errorf("only %d replayable turns", len(p.turns))
	}
}

func TestReal(t *testing.T) {
	needCorpus(t)
	const n = 5000
	a, err := Real(1, n, realCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) < n {
		t.Errorf("Real(1, %d) has %d events", n, len(a))
	}
	b, err := Real(1, n, realCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("Real(1, n) differs between two calls")
	}
	if c, err := Real(2, n, realCorpus); err != nil || reflect.DeepEqual(a, c) {
		t.Errorf("Real(2, n) = Real(1, n) or fails: %v", err)
	}
	if _, err := surface.Load(a, func() int64 { return 0 }); err != nil {
		t.Fatalf("Real does not load: %v", err)
	}
	for i := 1; i < len(a); i++ {
		if a[i].Time < a[i-1].Time {
			t.Fatalf("seq %d: time %d steps back from %d", i, a[i].Time, a[i-1].Time)
		}
	}
	types := func(events []sessionlog.Event) map[string]bool {
		m := map[string]bool{}
		for i := range events {
			m[events[i].Type] = true
		}
		return m
	}
	real := types(a)
	for _, sh := range Shapes() {
		cfg, ok := sh.Config(n)
		if !ok {
			continue
		}
		if gen := types(Generate(1, cfg)); len(real) <= len(gen) {
			t.Errorf("the real shape has %d event types, the %s shape %d", len(real), sh, len(gen))
		}
	}
	t.Logf("%d events, %d event types", len(a), len(real))
}

// TestRealPacked writes the real shape as gen does (a header, chunk runs
// packed into chunk rows) and reads it back through the one reading path:
// the rows are there and the events come back unchanged.
func TestRealPacked(t *testing.T) {
	needCorpus(t)
	events, err := Real(3, 2000, realCorpus)
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(`{"type":"session","version":0,"id":"real-test","createdAt":0,"cwd":"/work/gen"}` + "\n")
	if text, err = jsonl.AppendPacked(text, events); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, tag := range []string{`{"type":"text-chunks"`, `{"type":"reasoning-chunks"`, `{"type":"tool-call-chunks"`} {
		rows += bytes.Count(text, []byte(tag))
	}
	if rows == 0 {
		t.Error("no packed chunk row in the written log")
	}
	path := filepath.Join(t.TempDir(), "real.jsonl")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	lg, err := readEvents(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Closers) != 0 || len(lg.Events) != len(events) {
		t.Fatalf("read back %d events and %d closers, want %d and none", len(lg.Events), len(lg.Closers), len(events))
	}
	for i := range events {
		if !reflect.DeepEqual(lg.Events[i], events[i]) {
			t.Fatalf("seq %d reads back as %+v, want %+v", i, lg.Events[i], events[i])
		}
	}
	t.Logf("%d events in %d lines (%d chunk rows), %d bytes", len(events), bytes.Count(text, []byte("\n")), rows, len(text))
}

// ev is a synthetic event for the replay tests.
func ev(seq int64, typ, data string, extra ...string) sessionlog.Event {
	e := sessionlog.Event{Type: typ, Seq: seq, Time: 1000 + seq, Data: []byte(data)}
	if len(extra) > 0 {
		e.SurfaceOp = []byte(extra[0])
	}
	if len(extra) > 1 {
		e.SourceEventSeqs = []byte(extra[1])
	}
	return e
}

func userMsg(seq int64, id string) sessionlog.Event {
	return ev(seq, sessionlog.TypeUserMessage, `{"id":"`+id+`","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}}`, `"append"`)
}

// TestRealTurns cuts a two-turn log and checks which turns replay on their
// own and how a copy's references move.
func TestRealTurns(t *testing.T) {
	log := []sessionlog.Event{
		ev(0, sessionlog.TypeRequestContext, `{"provider":"p","model":"m"}`),
		ev(1, sessionlog.TypeTurnStart, `{"turn":1}`),
		userMsg(2, "u1"),
		ev(3, sessionlog.TypeSessionTitle, `{"title":"t","messageSeqs":[2],"source":{"kind":"fallback"}}`),
		userMsg(4, "u2"),
		ev(5, sessionlog.TypeUserMessage, `{"id":"u3","role":"user","content":[{"type":"text","text":"x"}],"source":{"kind":"plugin","plugin":"p"}}`,
			`{"op":"replace","start":2,"end":4}`, `[2,4]`),
		ev(6, sessionlog.TypeTurnEnd, `{"turn":1,"reason":{"kind":"completed"}}`),
		ev(7, sessionlog.TypeTurnStart, `{"turn":2}`),
		ev(8, sessionlog.TypeSessionTitle, `{"title":"t","messageSeqs":[5],"source":{"kind":"fallback"}}`), // outside turn 2
		ev(9, sessionlog.TypeTurnEnd, `{"turn":2,"reason":{"kind":"completed"}}`),
		ev(10, sessionlog.TypeSessionEndSeed, `{}`),
	}
	turns := splitTurns("f", log)
	if len(turns) != 2 || !turns[0].opener || turns[1].opener || len(turns[0].events) != 7 || len(turns[1].events) != 4 {
		t.Fatalf("splitTurns: %d turns %+v", len(turns), turns)
	}
	if !replayable(&turns[0]) {
		t.Error("turn 1 refers only to itself but is not replayable")
	}
	if replayable(&turns[1]) {
		t.Error("turn 2's title names a message of turn 1, yet it is replayable")
	}
	// Turn 1 replayed after itself: every reference moves by 7, the turn
	// becomes 2, and times never step back.
	r := newReplayer(DefaultStart)
	for range 2 {
		if err := r.replay(&turns[0]); err != nil {
			t.Fatal(err)
		}
	}
	got := r.sess.Events()
	for _, c := range []struct {
		seq         int64
		data, op, s string
	}{
		{8, `{"turn":2}`, "", ""},
		{10, `{"title":"t","messageSeqs":[9],"source":{"kind":"fallback"}}`, "", ""},
		{12, "", `{"op":"replace","start":9,"end":11}`, `[9,11]`},
		{13, `{"turn":2,"reason":{"kind":"completed"}}`, "", ""},
	} {
		e := got[c.seq]
		if c.data != "" && string(e.Data) != c.data {
			t.Errorf("seq %d: data %s, want %s", c.seq, e.Data, c.data)
		}
		if c.op != "" && (string(e.SurfaceOp) != c.op || string(e.SourceEventSeqs) != c.s) {
			t.Errorf("seq %d: surfaceOp %s sources %s, want %s %s", c.seq, e.SurfaceOp, e.SourceEventSeqs, c.op, c.s)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].Time < got[i-1].Time {
			t.Errorf("seq %d steps back in time", i)
		}
	}
}
