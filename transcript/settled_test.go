package transcript_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/transcript"
)

// trCheckSettled feeds events to a projector that drops its settled items
// every `every` events and checks that each item dropped is already the
// whole log's item at its place (Project), and that what is kept at the
// end is the rest of it: a settled item never changes, moves or goes.
func trCheckSettled(events []sessionlog.Event, opts transcript.Options, every int) error {
	want := transcript.Project(events, opts)
	p := transcript.NewProjector(opts)
	dropped := 0
	check := func(items []transcript.Item, at int) error {
		for k := range items {
			i := dropped + k
			if i >= len(want.Items) {
				return fmt.Errorf("after seq %d: item %d is past the log's %d items", events[at].Seq, i, len(want.Items))
			}
			if !transcript.SameItem(&items[k], &want.Items[i]) {
				return fmt.Errorf("after seq %d: item %d (%s) was taken as settled but is not the log's (%s)",
					events[at].Seq, i, items[k].Kind, want.Items[i].Kind)
			}
		}
		return nil
	}
	for i := range events {
		p.Apply(&events[i])
		if i%every != 0 {
			continue
		}
		n := p.Settled()
		if err := check(p.Transcript().Items[:n], i); err != nil {
			return err
		}
		p.Drop(n)
		dropped += n
	}
	rest := p.Transcript().Items
	if dropped+len(rest) != len(want.Items) {
		return fmt.Errorf("%d items dropped and %d kept, not the log's %d", dropped, len(rest), len(want.Items))
	}
	return check(rest, len(events)-1)
}

// trCheckTaken feeds events to a replay that hands over its settled items
// every `every` events (Take) and checks that each is already the whole
// log's item at its place, ended as Project ends it, and that the
// replay's Transcript at the end is the rest.
func trCheckTaken(events []sessionlog.Event, opts transcript.Options, every int) error {
	want := transcript.Project(events, opts)
	r := transcript.NewReplay(opts)
	taken := 0
	check := func(items []transcript.Item, at int) error {
		for k := range items {
			i := taken + k
			if i >= len(want.Items) {
				return fmt.Errorf("after seq %d: item %d is past the log's %d items", events[at].Seq, i, len(want.Items))
			}
			if !reflect.DeepEqual(items[k], want.Items[i]) {
				return fmt.Errorf("after seq %d: item %d taken as settled is not the log's (-log +taken):\n%s",
					events[at].Seq, i, cmp.Diff(want.Items[i], items[k]))
			}
		}
		taken += len(items)
		return nil
	}
	for i := range events {
		r.Apply(&events[i])
		if i%every != 0 {
			continue
		}
		if err := check(r.Take(r.Settled()), i); err != nil {
			return err
		}
	}
	rest := r.Transcript()
	if taken+len(rest.Items) != len(want.Items) {
		return fmt.Errorf("%d items taken and %d kept, not the log's %d", taken, len(rest.Items), len(want.Items))
	}
	if !reflect.DeepEqual(rest.Progress, want.Progress) {
		return fmt.Errorf("progress %+v, want %+v", rest.Progress, want.Progress)
	}
	return check(rest.Items, len(events)-1)
}

// TestProjectorSettled: an item Settled counts is final, for the live
// projector and the replay alike, for every log in
// testdata and generated logs of every shape, under both step rules,
// dropping at every event and in stretches.
func TestProjectorSettled(t *testing.T) {
	logs := map[string][]sessionlog.Event{}
	for _, name := range trLogFiles(t) {
		logs[name] = trLoad(t, name)
	}
	for _, shape := range sessiongen.Shapes() {
		if cfg, ok := shape.Config(3000); ok {
			logs[string(shape)] = sessiongen.Generate(7, cfg)
		}
	}
	for name, events := range logs {
		for _, eager := range []bool{false, true} {
			for _, every := range []int{1, 64} {
				t.Run(fmt.Sprintf("%s/eager=%v/every=%d", name, eager, every), func(t *testing.T) {
					opts := transcript.Options{EagerSteps: eager}
					if err := trCheckSettled(events, opts, every); err != nil {
						t.Fatal("live:", err)
					}
					if err := trCheckTaken(events, opts, every); err != nil {
						t.Fatal("replay:", err)
					}
				})
			}
		}
	}
}

// TestProjectorDropUnsettled: dropping (or taking) an item that may still
// change is a programming error.
func TestProjectorDropUnsettled(t *testing.T) {
	p := transcript.NewProjector(transcript.Options{})
	for _, e := range trLoad(t, "example-session.jsonl") {
		p.Apply(&e)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Drop past Settled did not panic")
		}
	}()
	p.Drop(p.Settled() + 1)
}

func TestReplayTakeUnsettled(t *testing.T) {
	r := transcript.NewReplay(transcript.Options{})
	for _, e := range trLoad(t, "example-session.jsonl") {
		r.Apply(&e)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Take past Settled did not panic")
		}
	}()
	r.Take(r.Settled() + 1)
}
