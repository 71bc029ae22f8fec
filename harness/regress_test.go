package harness_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// The tests of this file prove that the suite catches the regressions it
// exists for: each runs the whole suite with one seam swapped for a broken
// variant and asserts that the run fails, naming the failing scenarios and,
// where the live and replay paths part, the first divergent event. The
// broken variants live here, in test code only.

// mountTimeCallFilter filters tool/call on the live path the way replay
// filters orphan calls, but with the call-id set computed once at mount:
// every call advertised after the mount vanishes from the live terminal.
func mountTimeCallFilter(mounted []sessionlog.Event) func(*sessionlog.Event) bool {
	ids := transcript.ToolCallIDs(mounted)
	return func(e *sessionlog.Event) bool {
		if e.Type != sessionlog.TypeToolCall {
			return true
		}
		var d sessionlog.ToolCallData
		_ = json.Unmarshal(e.Data, &d)
		_, ok := ids[d.CallID]
		return ok
	}
}

// countingReplacements is session.history that counts every user and
// assistant message toward maxMessages, replacement copies included: the
// pagination half of the seed's bug.
type countingReplacements struct{ events []sessionlog.Event }

func (h countingReplacements) Page(beforeSeq int64, maxMessages int) history.Page {
	window := h.events
	if beforeSeq >= 0 {
		window = window[:min(int(beforeSeq), len(window))]
	}
	count, cut := 0, int64(0)
	for i := len(window) - 1; i >= 0; i-- {
		e := &window[i]
		if (e.Type != sessionlog.TypeUserMessage && e.Type != sessionlog.TypeAssistantMessage) || !sessionlog.IsSurfaceEvent(e) {
			continue
		}
		if count++; count >= maxMessages {
			cut = e.Seq
			if seqs, ok := e.Sources(); ok {
				for _, s := range seqs {
					cut = min(cut, s)
				}
			}
			break
		}
	}
	page := window[min(int(cut), len(window)):]
	p := history.Page{Events: page, HasMore: cut > 0}
	if len(page) > 0 {
		p.From, p.To = page[0].Seq, page[len(page)-1].Seq
	} else {
		p.From = max(beforeSeq, 0)
		p.To = p.From - 1
	}
	return p
}

// regression runs the suite with a broken seam, which must fail it.
func regression(t *testing.T, mutate func(*harness.Config)) *run {
	t.Helper()
	cfg := harness.Config{ScenarioDir: scenarioDir, FixtureDir: fixtureDir, CI: true}
	mutate(&cfg)
	r := runSuite(t, cfg)
	if r.ok() {
		t.Fatal("the suite passed with a broken seam")
	}
	t.Logf("failing scenarios (%d): %s", len(r.failed), strings.Join(r.failedNames(), ", "))
	for _, d := range r.suite.Divergences() {
		t.Logf("divergence: %v", d)
	}
	return r
}

// mustFail checks that every scenario in names failed.
func mustFail(t *testing.T, r *run, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, ok := r.failed[n]; !ok {
			t.Errorf("scenario %s passed; it must catch this regression", n)
		}
	}
}

// mustDiverge checks that scenario's snapshot reported a live ≠ replay
// divergence at seq.
func mustDiverge(t *testing.T, r *run, scenario, snapshot string, seq int64) {
	t.Helper()
	want := harness.Divergence{Scenario: scenario, Snapshot: snapshot, Seq: seq}
	got := r.suite.Divergences()
	if !slices.Contains(got, want) {
		t.Errorf("no divergence %v among %v", want, got)
	}
	if log := r.failed[scenario]; !strings.Contains(log, fmt.Sprintf("first divergent event: seq %d", seq)) {
		t.Errorf("%s's failure does not name the first divergent event (seq %d):\n%s", scenario, seq, log)
	}
}

func TestRegressionSurfaceProjector(t *testing.T) {
	r := regression(t, func(c *harness.Config) {
		c.Projection = terminal.Projection{Replay: mutant.Surface().Replay} // the seed's bug, on the replay path only
	})
	// The replayed compaction no longer shows the prompt and the card, so
	// it differs from its fixture and from the live path's.
	mustFail(t, r, "surface-compaction-replayed", "surface-compaction-live", "example-session",
		"resume-after-compaction", "three-compactions", "live-session")
	if log := r.failed["surface-compaction-replayed"]; !strings.Contains(log, "surface-replayed-compaction.screen: the screen differs") {
		t.Errorf("surface-compaction-replayed does not report its fixture:\n%s", log)
	}
	// Live, the checkpoint (seq 6) lands and the history stays; a mount on
	// the same seven events erases it.
	mustDiverge(t, r, "surface-compaction-live", "surface-after-compaction-narrow", 6)
}

func TestRegressionLiveCallFilter(t *testing.T) {
	r := regression(t, func(c *harness.Config) {
		c.LiveFilter = mountTimeCallFilter
	})
	mustFail(t, r, "live-session", "hidden-mode-fold")
	// live-session mounts on an empty log: its first tool/call (seq 6)
	// never reaches the live terminal.
	mustDiverge(t, r, "live-session", "live-session-tool-pending", 6)
	mustDiverge(t, r, "hidden-mode-fold", "hidden-fold-collapsed", 5)
	for name := range r.failed {
		if !slices.ContainsFunc(r.suite.Divergences(), func(d harness.Divergence) bool { return d.Scenario == name }) {
			t.Errorf("%s failed without a live ≠ replay divergence", name)
		}
	}
}

func TestRegressionHistoryCountsReplacements(t *testing.T) {
	r := regression(t, func(c *harness.Config) {
		c.History = func(events []sessionlog.Event) harness.Pager { return countingReplacements{events} }
	})
	mustFail(t, r, "history-paging", "example-session")
	if log := r.failed["example-session"]; !strings.Contains(log, "history.txt") {
		t.Errorf("example-session's failure is not its history output:\n%s", log)
	}
	if len(r.suite.Divergences()) != 0 {
		t.Errorf("a history bug must not look like a terminal divergence: %v", r.suite.Divergences())
	}
}
