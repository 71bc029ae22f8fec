package transcript_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// TestReplay: a Replay fed a log one event at a time, each from a variable
// overwritten after Apply (so that it cannot keep the event), ends on
// Project's transcript over the log, under both step rules, for every
// example log and generated logs (chunks that settle, streams that never
// do), and for every prefix of a generated log that ends inside a stream.
func TestReplay(t *testing.T) {
	logs := map[string][]sessionlog.Event{}
	for _, name := range trLogFiles(t) {
		logs[name] = trLoad(t, name)
	}
	for seed := range int64(4) {
		logs[fmt.Sprintf("gen-%d", seed)] = sessiongen.Generate(seed, sessiongen.Config{Events: 3000, Terse: int(seed % 3)})
	}
	replay := func(events []sessionlog.Event, opts transcript.Options) transcript.Transcript {
		r := transcript.NewReplay(opts)
		var e sessionlog.Event
		for i := range events {
			e = events[i]
			r.Apply(&e)
			e = sessionlog.Event{Type: "overwritten", Seq: -1}
		}
		return r.Transcript()
	}
	for name, events := range logs {
		for _, eager := range []bool{false, true} {
			opts := transcript.Options{EagerSteps: eager}
			if diff := cmp.Diff(transcript.Project(events, opts), replay(events, opts)); diff != "" {
				t.Errorf("%s eager=%v: Replay differs from Project (-want +got):\n%s", name, eager, diff)
			}
		}
	}
	events := logs["gen-1"]
	cuts := 0
	for n := 1; n < len(events); n++ {
		if events[n-1].Type != sessionlog.TypeAssistantChunk {
			continue // the prefixes that end inside a stream
		}
		if cuts++; cuts%25 != 0 {
			continue
		}
		opts := transcript.Options{}
		if diff := cmp.Diff(transcript.Project(events[:n], opts), replay(events[:n], opts)); diff != "" {
			t.Fatalf("first %d events: Replay differs from Project (-want +got):\n%s", n, diff)
		}
	}
	if cuts < 25 {
		t.Fatalf("gen-1 has %d prefixes that end inside a stream; want a log that has some", cuts)
	}
}
