package harness

//go:generate go run ./internal/helpgen/cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/terminal"
)

// Config configures one run of the scenario suite.
type Config struct {
	// ScenarioDir holds the scenarios (*.txtar).
	ScenarioDir string
	// FixtureDir holds the recorded screens (NAME.screen).
	FixtureDir string
	// Scenarios, when non-empty, restricts the run to these scenario names
	// (file names without .txtar). A restricted run skips the closed
	// inventory check.
	Scenarios []string

	// Update re-records (GOLDIE_UPDATE): the screens of the snapshot
	// steps, and the archive files their cmp steps compare with
	// (testscript's UpdateScripts: surface, transcript and history
	// outputs). Run re-records through Rerecord, as dshtest record does:
	// rendered twice, written only when every scenario passed and the two
	// renders agree, refused under CI.
	Update bool
	// CI refuses every recording: nothing is written, and a missing
	// fixture is a failure.
	CI bool
	// PendingDir is where a snapshot that differs from its fixture (or has
	// none) writes its new screen, as NAME.screen.new; "" writes none.
	// PendingDirFromEnv gives the usual choice: beside the fixtures, or
	// under CI only $DSHTEST_PENDING_DIR.
	PendingDir string
	// HintDir is the suite folder as the user named it with --dir, which
	// the commands a failure suggests must be given too; "" when they
	// find it from the working directory.
	HintDir string
	// Verbose has RunSuite log every scenario step, as go test -v does
	// (Run takes go test's -v instead).
	Verbose bool
	// WorkdirRoot, when set, is where the scenarios' work directories are
	// made (and left: the caller removes it), instead of the temporary
	// directory.
	WorkdirRoot string

	// Started and Finished, when set, are told by RunSuite of each
	// scenario as it starts and once it has its outcome (the i-th of n).
	Started  func(name string, i, n int)
	Finished func(o Outcome, i, n int)
	// Stopping, when set, is asked by RunSuite before each scenario: once
	// it returns true no scenario starts (an interrupt is ending the
	// process).
	Stopping func() bool

	// Projection is the terminal's projection seam; the zero value is the
	// transcript package's projection.
	Projection terminal.Projection
	// History builds the session.history pager over a log; nil means
	// history.New.
	History func(events []sessionlog.Event) Pager
	// LiveFilter decides which events appended after a mount reach the
	// mounted terminal: it is called at each mount with the mounted log and
	// returns the per-event test. Nil delivers every event, which is the
	// contract (terminal.md §1.2: tool/call is not filtered live).
	LiveFilter func(mounted []sessionlog.Event) func(e *sessionlog.Event) bool
}

// ConfigFromEnv returns a Config for the given directories with Update set
// from GOLDIE_UPDATE (1, t or true) or go test's -update flag, when the
// test binary defines one (goldie's or teatest's golden package: the
// harness never defines it, and looks it up when called), CI from CI
// (IsCI) and PendingDir from PendingDirFromEnv.
func ConfigFromEnv(scenarioDir, fixtureDir string) Config {
	update, _ := updateFlag()
	return Config{
		ScenarioDir: scenarioDir,
		FixtureDir:  fixtureDir,
		Update:      update || truthy(os.Getenv("GOLDIE_UPDATE")),
		CI:          IsCI(os.Getenv("CI")),
		PendingDir:  PendingDirFromEnv(os.Getenv, fixtureDir),
	}
}

func truthy(s string) bool {
	switch strings.ToLower(s) {
	case "1", "t", "true":
		return true
	}
	return false
}

// Pager is session.history over one log (log.md §12).
type Pager interface {
	Page(beforeSeq int64, maxMessages int) history.Page
}

// Divergence is a live ≠ replay failure: at snapshot Snapshot of scenario
// Scenario the two paths differed, and Seq is the first event after which
// a terminal fed the events live shows something other than a terminal
// mounted on the same prefix (-1 when bisection found no single event).
type Divergence struct {
	Scenario string
	Snapshot string
	Seq      int64
}

func (d Divergence) String() string {
	return fmt.Sprintf("%s: snapshot %s: live and replay diverge at seq %d", d.Scenario, d.Snapshot, d.Seq)
}

// Suite is one run of the scenarios: it owns the fixture store and the
// closed inventory. Build it with NewSuite, run Params with testscript, and
// call Inventory after every scenario has finished.
type Suite struct {
	cfg   Config
	store *fixtureStore

	mu          sync.Mutex
	started     map[string]bool
	failed      map[string]bool
	divergences []Divergence
	mismatches  []Mismatch
	invariants  []InvariantFailure
	// goTest says the suite runs under go test (Run): a mismatch then also
	// says how go test re-records.
	goTest bool
	// index is the scenario folder's snapshot steps, read once (nil when
	// the folder could not be read: the store's own check then stands).
	index     SnapshotIndex
	indexOnce sync.Once
}

// clash says which snapshot steps of the scenario folder take fixture name
// when more than one does (SnapshotIndex.Clash), else "".
func (s *Suite) clash(name string) string {
	s.indexOnce.Do(func() { s.index, _ = ReadSnapshotIndex(s.cfg.ScenarioDir) })
	return s.index.Clash(name, filepath.Base(s.cfg.ScenarioDir), filepath.Base(s.cfg.FixtureDir))
}

// NewSuite returns a suite for cfg.
func NewSuite(cfg Config) *Suite {
	return &Suite{
		cfg:     cfg,
		store:   newFixtureStore(cfg.FixtureDir, cfg.Update, cfg.CI, cfg.PendingDir, cfg.HintDir),
		started: map[string]bool{},
		failed:  map[string]bool{},
	}
}

// Config returns the suite's configuration.
func (s *Suite) Config() Config { return s.cfg }

// Params returns the testscript parameters that run the suite: the
// scenario files, the verbs, and a per-scenario setup. With Update (and not
// CI) a failing cmp against a file of the archive rewrites the archive in
// place: re-record through Rerecord, which does so in a scratch copy.
func (s *Suite) Params() testscript.Params {
	p := testscript.Params{
		Dir:                s.cfg.ScenarioDir,
		Setup:              s.setup,
		Cmds:               commands(),
		RequireUniqueNames: true,
		UpdateScripts:      s.cfg.Update && !s.cfg.CI,
		WorkdirRoot:        s.cfg.WorkdirRoot,
	}
	names := s.cfg.Scenarios
	if len(names) == 0 {
		// Every scenario: the files ScenarioNames lists, not testscript's
		// own pick of the folder, which takes NAME.txt too (a file a
		// restricted run, a shard and the inventory would not see).
		names, _ = ScenarioNames(s.cfg.ScenarioDir)
	}
	if len(names) > 0 {
		p.Dir = ""
		for _, name := range names {
			p.Files = append(p.Files, filepath.Join(s.cfg.ScenarioDir, name+".txtar"))
		}
	}
	return p
}

// Divergences returns every live ≠ replay failure found so far.
func (s *Suite) Divergences() []Divergence {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Divergence(nil), s.divergences...)
}

// Mismatches returns every snapshot so far that differed from its fixture
// or had none, in the order they ran.
func (s *Suite) Mismatches() []Mismatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mismatch(nil), s.mismatches...)
}

// InvariantFailure is an invariants step that failed: the scenario, its
// file ("scenarios/NAME.txtar") and the checks that failed.
type InvariantFailure struct {
	Scenario string
	File     string
	Checks   []string
}

// InvariantFailures returns every failed invariants step so far, in the
// order they ran. A scenario with one pins a bug: it must not be recorded.
func (s *Suite) InvariantFailures() []InvariantFailure {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]InvariantFailure(nil), s.invariants...)
}

func (s *Suite) invariantsFailed(f InvariantFailure) {
	s.mu.Lock()
	s.invariants = append(s.invariants, f)
	s.mu.Unlock()
}

func (s *Suite) mismatch(m Mismatch) {
	s.mu.Lock()
	s.mismatches = append(s.mismatches, m)
	s.mu.Unlock()
}

// scenarioFile is how messages name a scenario's file:
// "scenarios/NAME.txtar".
func (s *Suite) scenarioFile(name string) string {
	return filepath.ToSlash(filepath.Join(filepath.Base(s.cfg.ScenarioDir), name+".txtar"))
}

// Recorded returns the fixture names snapshotted so far, sorted.
func (s *Suite) Recorded() []string { return s.store.names() }

func (s *Suite) setup(env *testscript.Env) error {
	name := scenarioName(env)
	s.mu.Lock()
	s.started[name] = true
	s.mu.Unlock()
	st := newScript(s, name)
	env.Values[scriptKey{}] = st
	env.Defer(func() {
		t := env.T()
		failed := false
		if f, ok := t.(interface{ Failed() bool }); ok {
			failed = f.Failed()
		}
		s.mu.Lock()
		s.failed[name] = failed || len(st.mismatches) > 0
		s.mu.Unlock()
		// Mismatched snapshots let the scenario run on, so that every one
		// of them is reported; the scenario fails here, at its end.
		for _, m := range st.mismatches {
			t.Log("FAIL: " + m.Message())
		}
		if len(st.mismatches) > 0 && s.goTest {
			t.Log(updateHint())
		}
		if len(st.mismatches) > 0 && !failed {
			t.FailNow()
		}
	})
	return nil
}

// scenarioName is the scenario's name: its work directory is
// "script-<name>".
func scenarioName(env *testscript.Env) string {
	return strings.TrimPrefix(filepath.Base(env.WorkDir), "script-")
}

func (s *Suite) divergence(d Divergence) {
	s.mu.Lock()
	s.divergences = append(s.divergences, d)
	s.mu.Unlock()
}

// Inventory runs the closed-inventory check (terminal.md §9.3) once every
// scenario has finished: every fixture file is snapshotted by exactly one
// snapshot step and every snapshot has its file. A run restricted to some
// scenarios, or one in which a scenario failed, cannot tell an orphan from
// a fixture whose snapshot did not run; it checks only duplicates, and
// Complete reports false.
func (s *Suite) Inventory() []error {
	errs := append(s.store.duplicates(), s.store.pendingPairs()...)
	if !s.Complete() {
		return append(errs, s.clashes()...)
	}
	errs = append(errs, s.store.inventory()...)
	return append(errs, StrayScripts(s.cfg.ScenarioDir)...)
}

// StrayScripts reports the files of the scenario directory dir that
// testscript would run as scripts elsewhere (NAME.txt) but are not
// scenarios here: left there, they would be silently skipped.
func StrayScripts(dir string) []error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var errs []error
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".txt"); ok && !e.IsDir() {
			errs = append(errs, fmt.Errorf("%s: not run: a scenario is NAME.txtar; rename it to %s.txtar or move it out of %s",
				filepath.ToSlash(filepath.Join(filepath.Base(dir), e.Name())), n, filepath.Base(dir)))
		}
	}
	return errs
}

// clashes reports, for a run that did not run every scenario, the fixture
// names a scenario that ran snapshots and a scenario that did not run
// takes too, which the run's own count cannot see: accepting the pending
// screen of one would replace the other's fixture.
func (s *Suite) clashes() []error {
	ix, err := ReadSnapshotIndex(s.cfg.ScenarioDir)
	if err != nil {
		return nil // the run itself says why the folder cannot be read
	}
	s.mu.Lock()
	var ran []string
	for name := range s.started {
		ran = append(ran, name)
	}
	s.mu.Unlock()
	for name := range ix {
		if s.store.timesTaken(name) > 1 {
			delete(ix, name) // duplicates reports it
		}
	}
	var errs []error
	for _, c := range ix.Clashes(ran, filepath.Base(s.cfg.ScenarioDir), filepath.Base(s.cfg.FixtureDir)) {
		errs = append(errs, fmt.Errorf("%s; each fixture belongs to exactly one snapshot step: rename all but one", c))
	}
	return errs
}

// Complete reports whether every scenario of ScenarioDir ran and passed.
func (s *Suite) Complete() bool {
	all, err := ScenarioNames(s.cfg.ScenarioDir)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range all {
		if !s.started[name] || s.failed[name] {
			return false
		}
	}
	return true
}

// ScenarioNames lists the scenarios of dir, sorted.
func ScenarioNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list scenarios: %w", err)
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".txtar"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// Run runs every scenario as a subtest of t (TestScenarios/NAME) and, once
// they have all finished, the closed-inventory check. With cfg.Update it
// first re-records as dshtest record does (Rerecord: screens and cmp files,
// rendered twice, nothing written if a scenario fails or the renders
// differ, refused under CI), and the run is then the check that the
// recorded suite passes.
func Run(t *testing.T, cfg Config) *Suite {
	t.Helper()
	if cfg.Update {
		rerecordForTest(t, cfg)
		cfg.Update = false
	}
	s := NewSuite(cfg)
	s.goTest = true
	t.Cleanup(func() {
		for _, err := range s.Inventory() {
			t.Error(err)
		}
		if !s.Complete() && !t.Failed() {
			t.Log("closed fixture inventory not checked: not every scenario ran")
		}
	})
	testscript.Run(t, s.Params())
	return s
}
