package harness_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/internal/testkit/mutant"
	"github.com/dshtest/dshtest/sessionlog"
)

// staleScenario has a snapshot with no fixture yet and a cmp step whose
// archive file is stale: an update re-records both.
const staleScenario = `turn 1
step 1
user 'Start the task' --as first
assistant 'Started.' --as started
step-end
compact first started --summary 'The task was started.'
turn-end
mount 60 12
snapshot stale-60x12
history --max 2
cmp stdout history.txt

-- history.txt --
stale
`

// suiteDir writes scenarios (name → script) into a fresh folder with an
// empty fixtures/ and returns the config of its suite.
func suiteDir(t *testing.T, scenarios map[string]string) harness.Config {
	t.Helper()
	dir := t.TempDir()
	sdir, fdir := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
	for _, d := range []string{sdir, fdir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, script := range scenarios {
		if err := os.WriteFile(filepath.Join(sdir, name+".txtar"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return harness.Config{ScenarioDir: sdir, FixtureDir: fdir}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRerecordScreensAndCmpFiles: one update re-records the screen and
// the stale cmp file, in a scratch copy; Write puts them in place; the
// suite then passes as it is.
func TestRerecordScreensAndCmpFiles(t *testing.T) {
	cfg := suiteDir(t, map[string]string{"stale": staleScenario})
	rec, err := harness.Rerecord(cfg, harness.RerecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.OK() {
		t.Fatalf("not OK: failed %v, invariants %v, unreproducible %v", rec.Result.FailedScenarios(), rec.Result.Invariants, rec.Unreproducible)
	}
	want := []string{"fixtures/stale-60x12.screen", "scenarios/stale.txtar"}
	if got := rec.Changed(); !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(cfg.FixtureDir, "stale-60x12.screen")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Rerecord wrote into the suite: %v", err)
	}
	if _, err := rec.Write(cfg); err != nil {
		t.Fatal(err)
	}
	if s := readFile(t, filepath.Join(cfg.ScenarioDir, "stale.txtar")); strings.Contains(s, "\nstale\n") || !strings.Contains(s, "page ") {
		t.Errorf("the cmp file was not re-recorded:\n%s", s)
	}
	if r := runSuite(t, cfg); !r.ok() {
		t.Errorf("after the update the suite fails: %v %v", r.failed, r.inventory)
	}
}

// TestRunUpdateIsRerecord: GOLDIE_UPDATE's path (Run with Update) writes
// what Rerecord writes, screens and cmp files, byte for byte.
func TestRunUpdateIsRerecord(t *testing.T) {
	viaRecord := suiteDir(t, map[string]string{"stale": staleScenario})
	rec, err := harness.Rerecord(viaRecord, harness.RerecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Write(viaRecord); err != nil {
		t.Fatal(err)
	}
	viaTest := suiteDir(t, map[string]string{"stale": staleScenario})
	viaTest.Update = true
	t.Run("update", func(t *testing.T) { harness.Run(t, viaTest) })
	for _, f := range []string{"scenarios/stale.txtar", "fixtures/stale-60x12.screen"} {
		a := readFile(t, filepath.Join(filepath.Dir(viaRecord.ScenarioDir), f))
		b := readFile(t, filepath.Join(filepath.Dir(viaTest.ScenarioDir), f))
		if a != b {
			t.Errorf("%s differs between Rerecord and Run with Update:\n%s\n---\n%s", f, a, b)
		}
	}
}

// flakyHistory pages differently on every scenario run: the two renders of
// an update disagree on the cmp file it feeds.
func flakyHistory() func([]sessionlog.Event) harness.Pager {
	var n atomic.Int64
	return func(events []sessionlog.Event) harness.Pager {
		return flakyPager{events, n.Add(1)}
	}
}

type flakyPager struct {
	events []sessionlog.Event
	k      int64
}

func (p flakyPager) Page(int64, int) history.Page {
	return history.Page{From: p.k, To: int64(len(p.events)), Events: p.events}
}

// TestRerecordRefusals: nothing may be written under CI, when a scenario
// fails for another reason than a changed screen, when an invariants step
// fails, or when the two renders differ.
func TestRerecordRefusals(t *testing.T) {
	tests := []struct {
		name   string
		script string
		cfg    func(*harness.Config)
		ci     bool
		check  func(t *testing.T, rec *harness.Rerecording)
	}{
		{name: "ci", script: staleScenario, ci: true},
		{name: "fails", script: "turn 1\nuser 'Start'\nmount 60 12\nsnapshot fails-60x12\nexists no-such-file\n",
			check: func(t *testing.T, rec *harness.Rerecording) {
				if !slices.Equal(rec.Result.FailedScenarios(), []string{"fails"}) {
					t.Errorf("failed %v", rec.Result.FailedScenarios())
				}
			}},
		{name: "invariants", script: "turn 1\nuser 'Start'\nassistant 'Done.' --as a\ncompact a a --summary 'S.'\ninvariants --size 60x12 no-lost-message\nmount 60 12\nsnapshot inv-60x12\n",
			cfg: func(c *harness.Config) { c.Projection = mutant.Surface() },
			check: func(t *testing.T, rec *harness.Rerecording) {
				if len(rec.Result.Invariants) != 1 || !slices.Equal(rec.Result.Invariants[0].Checks, []string{"no-lost-message"}) {
					t.Errorf("invariants %v", rec.Result.Invariants)
				}
			}},
		{name: "flaky", script: staleScenario,
			cfg: func(c *harness.Config) { c.History = flakyHistory() },
			check: func(t *testing.T, rec *harness.Rerecording) {
				if len(rec.Unreproducible) != 1 || rec.Unreproducible[0].Name != "scenarios/flaky.txtar" {
					t.Errorf("unreproducible %v", rec.Unreproducible)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := suiteDir(t, map[string]string{tt.name: tt.script})
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			cfg.CI = tt.ci
			before := readFile(t, filepath.Join(cfg.ScenarioDir, tt.name+".txtar"))
			rec, err := harness.Rerecord(cfg, harness.RerecordOptions{})
			if tt.ci {
				if !errors.Is(err, harness.ErrCIRecord) {
					t.Fatalf("under CI: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.OK() {
				t.Fatal("OK")
			}
			tt.check(t, rec)
			if _, err := rec.Write(cfg); err == nil {
				t.Error("a refused recording was written")
			}
			if got := readFile(t, filepath.Join(cfg.ScenarioDir, tt.name+".txtar")); got != before {
				t.Error("the scenario changed")
			}
			if names, _ := harness.FixtureNames(cfg.FixtureDir); len(names) > 0 {
				t.Errorf("fixtures written: %v", names)
			}
		})
	}
}
