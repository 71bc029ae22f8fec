package sessiongen

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/sessionlog/reader"
	"github.com/dshtest/dshtest/surface"
)

// realCorpus is the shared corpus of real upstream logs, reached from the
// package directory through the repository's ../shared.
const realCorpus = "../../../shared/corpus/upstream-logs"

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
	lg, err := reader.Read(path, reader.Options{})
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
