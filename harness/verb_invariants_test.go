package harness_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
)

// compactedScenario compacts a prompt and its answer away: the real
// projection keeps both texts (and draws one marker); the seed's bug
// (mutant.Surface) loses them and the marker.
const compactedScenario = `turn 1
step 1
user 'Start the task' --as first
assistant 'Started.' --as started
step-end
compact first started --summary 'The task was started.'
turn-end
`

// TestVerbInvariants runs the invariants verb under the real projection
// and under the seed's bug: it passes on the one and fails on the other
// with repro's verdict lines, and the suite names the failed checks (what
// dshtest record refuses on).
func TestVerbInvariants(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		buggy    bool
		fail     bool
		checks   []string // the failed checks the suite reports
		contains []string // in the scenario's log
	}{
		{name: "holds", script: compactedScenario + "invariants --size 80x24,44x18 --size 104x30 live-replay no-lost-message one-marker no-payload history-pages\n"},
		{name: "bug", script: compactedScenario + "invariants --size 80x24 live-replay no-lost-message one-marker\n", buggy: true, fail: true,
			checks: []string{"no-lost-message", "one-marker"},
			contains: []string{
				"invariants: 2 of 3 failed (no-lost-message, one-marker) at 80x24:",
				"\nok   live-replay      ",
				"\nFAIL no-lost-message  ",
				"\nFAIL one-marker       want 1 marker for 1 landed checkpoint",
			}},
		{name: "default-sizes", script: compactedScenario + "invariants no-payload\n", buggy: true, fail: true,
			checks: []string{"no-payload"}, contains: []string{"at 80x24 44x18 104x30:"}},
		{name: "negated", script: compactedScenario + "! invariants no-lost-message\nstderr '^FAIL no-lost-message '\n", buggy: true,
			checks: []string{"no-lost-message"}},
		{name: "unknown", script: compactedScenario + "! invariants no-such-check\nstderr '^invariants: unknown check \"no-such-check\": want live-replay, no-lost-message, '\n"},
		{name: "no-check", script: compactedScenario + "! invariants --size 80x24\nstderr '^usage: invariants '\n"},
		{name: "bad-size", script: compactedScenario + "! invariants --size 80by24 one-marker\nstderr '^invariants: --size \"80by24\": want COLSxROWS'\n"},
		{name: "no-log", script: "! invariants one-marker\nstderr '^invariants: the scenario has no log yet$'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			sdir, fdir := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
			for _, d := range []string{sdir, fdir} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(sdir, tt.name+".txtar"), []byte(tt.script), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := harness.Config{ScenarioDir: sdir, FixtureDir: fdir}
			if tt.buggy {
				cfg.Projection = mutant.Surface()
			}
			r := runSuite(t, cfg)
			log, failed := r.failed[tt.name]
			if failed != tt.fail {
				t.Fatalf("failed = %v, want %v; log:\n%s", failed, tt.fail, log)
			}
			var got []string
			for _, f := range r.suite.InvariantFailures() {
				if f.Scenario != tt.name || f.File != "scenarios/"+tt.name+".txtar" {
					t.Errorf("failure names %s (%s)", f.Scenario, f.File)
				}
				got = append(got, f.Checks...)
			}
			if !slices.Equal(got, tt.checks) {
				t.Errorf("failed checks %q, want %q", got, tt.checks)
			}
			for _, want := range tt.contains {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
		})
	}
}
