package repro_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/repro"
	"github.com/dshtest/dshtest/internal/repro/emit"
	"github.com/dshtest/dshtest/internal/repro/invariant"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/load"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/cards"
	"github.com/dshtest/dshtest/terminal/display"
	"github.com/dshtest/dshtest/transcript"
)

// smallLog is a session header and one prompt.
const smallLog = `{"type":"session","version":0,"id":"s-1","createdAt":1785974400000}
{"type":"user/message","seq":0,"time":1785974400001,"data":{"content":[{"type":"text","text":"Hello"}],"source":{"kind":"user"}},"surfaceOp":"append"}
`

// TestRun: Check reports every invariant at every size, held or read once
// ahead; Minimize does nothing when the invariant holds; Emit writes a
// scenario that snapshots the log at every size.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(smallLog), 0o644); err != nil {
		t.Fatal(err)
	}
	sizes := []invariant.Size{{W: 80, H: 24}, {W: 44, H: 18}}
	for _, tc := range []struct {
		name       string
		hold, keep bool
	}{
		{"held, streamed", true, false},
		{"held, kept", true, true},
		{"read once", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lf, err := load.Open(path, load.Options{Hold: tc.hold})
			if err != nil {
				t.Fatal(err)
			}
			defer lf.Close()
			loaded := 0
			run, err := repro.Check(lf, repro.Options{Sizes: sizes, ProjectionName: "transcript", Keep: tc.keep,
				MaxToolLines: cards.DefaultMaxToolOutputLines, Loaded: func(*load.Log) { loaded++ }})
			if err != nil {
				t.Fatal(err)
			}
			rep := run.Report
			if !rep.OK || rep.Events != 1 || rep.File != path || strings.Join(rep.Sizes, " ") != "80x24 44x18" ||
				len(rep.Invariants) != len(invariant.Names()) || loaded == 0 {
				t.Errorf("report = %+v (loaded %d)", rep, loaded)
			}
			if !tc.keep {
				return
			}
			out, err := safefile.Check(filepath.Join(dir, "min.jsonl"), safefile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			name := invariant.Names()[0]
			m, err := run.Minimize(name, out, func(*sessionlog.Event) string { return "" })
			if m != nil || err != nil {
				t.Errorf("Minimize(%s) of a log that holds = %+v, %v", name, m, err)
			}
			target, err := safefile.Check(filepath.Join(dir, "user-"+strings.NewReplacer(", ", "-", " ", "-").Replace(tc.name)+".txtar"), safefile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := run.Emit(target, path, false); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(target.Path())
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "\nsnapshot "); n != len(sizes) {
				t.Errorf("the scenario has %d snapshot steps, want %d:\n%s", n, len(sizes), data)
			}
		})
	}
}

// TestScrubKeepsVerdicts: every corpus log that loads gets the same
// verdict on every invariant once scrubbed (emit.Scrub) as it got as it
// was: a scrubbed scenario fails where, and only where, the reported log
// did.
func TestScrubKeepsVerdicts(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "corpus", "upstream-logs")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus logs in %s: %v", dir, err)
	}
	sizes := invariant.DefaultSizes()
	verdicts := func(events []sessionlog.Event) string {
		var out []string
		for _, r := range invariant.New(events, sizes, transcript.Options{}, terminal.Projection{}, "scrub").CheckAll() {
			v := "FAIL "
			if r.OK {
				v = "ok "
			}
			out = append(out, v+r.Name)
		}
		return strings.Join(out, ", ")
	}
	checked := 0
	for _, path := range files {
		lf, err := load.Open(path, load.Options{})
		if err != nil {
			continue
		}
		lg, err := lf.Collect(true)
		lf.Close()
		if err != nil || len(lg.Events) == 0 {
			continue // a refused log has no verdicts to keep
		}
		scrubbed, err := emit.Scrub(lg.Events)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		if was, is := verdicts(lg.Events), verdicts(scrubbed); was != is {
			t.Errorf("%s: scrubbed verdicts differ:\nwas %s\nis  %s", filepath.Base(path), was, is)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d corpus logs checked", checked)
	}
	// Generated sessions, whose compactions, prunes and regenerations the
	// corpus has few of.
	for seed := range int64(12) {
		events := sessiongen.Generate(seed, sessiongen.Config{})
		scrubbed, err := emit.Scrub(events)
		if err != nil {
			t.Fatal(err)
		}
		if was, is := verdicts(events), verdicts(scrubbed); was != is {
			t.Errorf("generated seed %d: scrubbed verdicts differ:\nwas %s\nis  %s", seed, was, is)
		}
	}
}

// TestMinimizeEscapes: the minimized log Minimize writes goes through the
// one escaper: a log's raw C1 controls, bidi controls and invalid UTF-8
// reach the file as \u escapes, never raw.
func TestMinimizeEscapes(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "spec", "example-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Every text, so that whatever the minimized log keeps holds some.
	hostile := bytes.ReplaceAll(raw, []byte(`"text":"`), []byte("\"text\":\"\u009b31m\u202e\xff\xfe"))
	if bytes.Equal(hostile, raw) {
		t.Fatal("the example log has no text to change")
	}
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, hostile, 0o644); err != nil {
		t.Fatal(err)
	}
	lf, err := load.Open(path, load.Options{Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	run, err := repro.Check(lf, repro.Options{Sizes: invariant.DefaultSizes(), Projection: mutant.Surface(), Keep: true,
		MaxToolLines: cards.DefaultMaxToolOutputLines})
	if err != nil {
		t.Fatal(err)
	}
	out, err := safefile.Check(filepath.Join(dir, "min.jsonl"), safefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := run.Minimize(invariant.NoLostMessage, out, func(*sessionlog.Event) string { return "" })
	if err != nil || m == nil {
		t.Fatalf("Minimize = %+v, %v; want a minimized log (the surface projection loses messages)", m, err)
	}
	data, err := os.ReadFile(out.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(display.EscapeJSON(data), data) {
		t.Errorf("the minimized log holds what the escaper escapes:\n%q", data)
	}
}
