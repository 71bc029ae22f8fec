package properties

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dshtest/dshtest/internal/repro/emit"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// The mutation tests prove that the properties catch the bugs they are
// for: each swaps a broken projection into the terminal, expects a
// property to fail, and shrinks the failure into a small scenario.

// forgetfulLive is a live projector that drops turn/end events.
type forgetfulLive struct{ *transcript.Projector }

func (l forgetfulLive) Apply(e *sessionlog.Event) transcript.Change {
	if e.Type == sessionlog.TypeTurnEnd {
		return transcript.Change{From: len(l.Transcript().Items)}
	}
	return l.Projector.Apply(e)
}

func propertyNamed(t *testing.T, name string) property {
	for _, p := range properties {
		if p.name == name {
			return p
		}
	}
	t.Fatalf("no property %q", name)
	return property{}
}

func TestMutants(t *testing.T) {
	seeds := make([]int64, 40)
	for i := range seeds {
		seeds[i] = int64(i)
	}
	tests := []struct {
		name      string
		proj      terminal.Projection
		prop      string
		maxEvents int
	}{
		{"surface projector loses shadowed prompts", mutant.Surface(), "keeps-text", 8},
		{"surface projector draws no markers", mutant.Surface(), "markers", 8},
		{"leaky projector draws checkpoint payloads", mutant.Leaky(), "model-only", 8},
		{"live projector drops turn/end", terminal.Projection{
			Live: func(o transcript.Options) terminal.LiveProjector {
				return forgetfulLive{transcript.NewProjector(o)}
			}}, "live-replay", 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prop := propertyNamed(t, tc.prop)
			res := checkSessions(seeds, []property{prop}, tc.proj, genConfig)
			f := res.failures[tc.prop]
			if f == nil {
				t.Fatalf("property %s never failed in %d sessions", tc.prop, len(seeds))
			}
			path, small, err := shrink(f, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d of %d sessions fail; seed %d shrinks from %d to %d events: %s",
				f.count, len(seeds), f.seed, len(f.events), len(small), types(small))
			if run(prop, newSubject(small, f.p)) == nil {
				t.Fatal("the shrunk session no longer fails")
			}
			if len(small) > tc.maxEvents {
				t.Errorf("shrunk to %d events, want at most %d", len(small), tc.maxEvents)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			if len(ar.Comment) == 0 {
				t.Fatal("emitted scenario has no script")
			}
			if tc.prop != "live-replay" {
				if len(ar.Files) != 1 || ar.Files[0].Name != emit.FileName {
					t.Fatalf("emitted scenario files: %v", ar.Files)
				}
				log, err := jsonl.ParseLog(ar.Files[0].Data, emit.FileName)
				if err != nil {
					t.Fatal(err)
				}
				if len(log.Events) != len(small) {
					t.Fatalf("emitted log has %d events, want %d", len(log.Events), len(small))
				}
			}
		})
	}
}

func types(events []sessionlog.Event) string {
	s := ""
	for i, e := range events {
		if i > 0 {
			s += " "
		}
		s += e.Type
		if sessionlog.IsReplacementSurfaceEvent(&e) {
			s += "(replace)"
		}
	}
	return s
}
