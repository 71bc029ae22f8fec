package harness

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// This file is the one update path: dshtest record and GOLDIE_UPDATE=1 go
// test both re-record through Rerecord. It renders the suite twice in
// update mode, each time in a scratch copy of the scenarios and fixtures,
// so that the screens and the archive files a cmp step re-records
// (testscript's UpdateScripts) are written only when every scenario
// passed and the two renders agree.

// ErrCIRecord is the refusal of a recording under CI.
var ErrCIRecord = errors.New("recording refused: CI is set, fixtures are read-only; record locally and commit the files; nothing written")

// RerecordOptions adjust where and how Rerecord renders.
type RerecordOptions struct {
	// Scratch makes a scratch directory and returns it with the function
	// that removes it; nil uses os.MkdirTemp and os.RemoveAll.
	Scratch func() (dir string, drop func(), err error)
	// MayStart, when set, is asked before each scenario starts; false
	// skips it (an interrupt is ending the process).
	MayStart func() bool
}

// Rerecording is what an update would write, found by rendering twice.
type Rerecording struct {
	// Outcomes are the first render's verdicts, one per scenario in the
	// order they ran. Their logs name the user's files, not the scratch
	// copy's.
	Outcomes []Outcome
	// Setup is a failure before any scenario ran ("" if none).
	Setup string
	// Invariants are the failed invariants steps of the first render.
	Invariants []InvariantFailure
	// Recorded are the fixture names snapshotted, sorted.
	Recorded []string
	// Unreproducible are the files (fixtures/NAME, scenarios/NAME) that
	// differ between the two renders, each with its line diff. Rerecord
	// renders a second time only when the first passed.
	Unreproducible []FileDiff
	// Old and New are the fixture and scenario directories' files before
	// and after the render, by name ("fixtures/NAME", "scenarios/NAME").
	Old, New map[string][]byte
	// Complete says every scenario of the directory ran.
	Complete bool
	// Elapsed is the first render's time.
	Elapsed time.Duration
}

// Outcome is one scenario's verdict in a render.
type Outcome struct {
	Name    string
	Failed  bool
	Skipped bool
	Log     string
	Elapsed time.Duration
}

// FileDiff is a file that differs between two renders.
type FileDiff struct {
	Name string // "fixtures/NAME" or "scenarios/NAME"
	Diff string // line diff, first render → second
}

// Failed names the scenarios that failed (and "setup" for a failure before
// any ran).
func (r *Rerecording) Failed() []string {
	var out []string
	for _, o := range r.Outcomes {
		if o.Failed {
			out = append(out, o.Name)
		}
	}
	if r.Setup != "" {
		out = append(out, "setup")
	}
	return out
}

// OK reports whether the recording may be written: every scenario passed,
// no invariants step failed and the two renders agree.
func (r *Rerecording) OK() bool {
	return len(r.Failed()) == 0 && len(r.Invariants) == 0 && len(r.Unreproducible) == 0
}

// Changed lists the files the recording would write (created or changed),
// sorted, as "fixtures/NAME" and "scenarios/NAME".
func (r *Rerecording) Changed() []string {
	var out []string
	for name, b := range r.New {
		if old, ok := r.Old[name]; !ok || !bytes.Equal(old, b) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Rerecord renders cfg's scenarios twice in update mode (screens and the
// archive files of cmp steps) in scratch copies of cfg.ScenarioDir and
// cfg.FixtureDir, and returns what an update would write. It writes
// nothing to cfg's directories; Write does. Under cfg.CI it refuses with
// ErrCIRecord.
func Rerecord(cfg Config, opts RerecordOptions) (*Rerecording, error) {
	if cfg.CI {
		return nil, ErrCIRecord
	}
	if opts.Scratch == nil {
		opts.Scratch = func() (string, func(), error) {
			dir, err := os.MkdirTemp("", "dshtest-record-")
			return dir, func() { os.RemoveAll(dir) }, err
		}
	}
	old, err := readSuiteFiles(cfg.ScenarioDir, cfg.FixtureDir)
	if err != nil {
		return nil, err
	}
	first, err := renderOnce(cfg, opts, old)
	if err != nil {
		return nil, err
	}
	first.Old = old
	if len(first.Failed()) > 0 || len(first.Invariants) > 0 {
		return first, nil
	}
	second, err := renderOnce(cfg, opts, old)
	if err != nil {
		return nil, err
	}
	first.Unreproducible = differingFiles(first.New, second.New)
	return first, nil
}

// differingFiles lists the files that differ between two renders, sorted
// by name, each with its line diff.
func differingFiles(a, b map[string][]byte) []FileDiff {
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	var out []FileDiff
	for _, n := range sortedKeys(names) {
		if x, y := a[n], b[n]; !bytes.Equal(x, y) {
			out = append(out, FileDiff{n, lineDiff("first render", "second render", string(x), string(y))})
		}
	}
	return out
}

// Write writes the recording's changed files into cfg's directories
// (fixtures atomically, by safefile's rule). It refuses a recording that is
// not OK, and under CI.
func (r *Rerecording) Write(cfg Config) ([]string, error) {
	if cfg.CI {
		return nil, ErrCIRecord
	}
	if !r.OK() {
		return nil, errors.New("harness: the recording failed; nothing written")
	}
	changed := r.Changed()
	for _, name := range changed {
		if err := writeFileAtomic(r.path(cfg, name), r.New[name]); err != nil {
			return nil, fmt.Errorf("harness: record %s: %w", name, err)
		}
	}
	return changed, nil
}

// path is where a "fixtures/NAME" or "scenarios/NAME" file of the
// recording lives in cfg's directories.
func (r *Rerecording) path(cfg Config, name string) string {
	if n, ok := strings.CutPrefix(name, "fixtures/"); ok {
		return filepath.Join(cfg.FixtureDir, n)
	}
	return filepath.Join(cfg.ScenarioDir, strings.TrimPrefix(name, "scenarios/"))
}

// readSuiteFiles reads the flat scenario and fixture directories (no
// pending file, no dot file) as "scenarios/NAME" and "fixtures/NAME".
func readSuiteFiles(scenarioDir, fixtureDir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for prefix, dir := range map[string]string{"scenarios/": scenarioDir, "fixtures/": fixtureDir} {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || IsPending(e.Name()) {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("harness: %w", err)
			}
			out[prefix+e.Name()] = b
		}
	}
	return out, nil
}

// renderOnce runs the suite in update mode on a scratch copy of files and
// returns what it left there.
func renderOnce(cfg Config, opts RerecordOptions, files map[string][]byte) (*Rerecording, error) {
	tmp, drop, err := opts.Scratch()
	if err != nil {
		return nil, fmt.Errorf("harness: scratch directory: %w", err)
	}
	defer drop()
	sdir, fdir := filepath.Join(tmp, "scenarios"), filepath.Join(tmp, "fixtures")
	for _, d := range []string{sdir, fdir} {
		// One level only: a scratch directory an interrupt removed is
		// not made again.
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(name)), b, 0o644); err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	}
	run := cfg
	run.ScenarioDir, run.FixtureDir, run.WorkdirRoot = sdir, fdir, tmp
	run.Update, run.CI, run.PendingDir = true, false, ""
	start := time.Now()
	s := NewSuite(run)
	top := &renderT{suite: s, mayStart: opts.MayStart}
	top.do(func() { testscript.RunT(top, s.Params()) })
	r := &Rerecording{Outcomes: top.outcomes, Setup: top.fatal, Invariants: s.InvariantFailures(),
		Recorded: s.Recorded(), Complete: s.Complete(), Elapsed: time.Since(start)}
	// Messages name the user's files: "scenarios/x.txtar", not the
	// scratch copy's path.
	base := filepath.Dir(cfg.ScenarioDir)
	fix := func(s string) string {
		s = strings.ReplaceAll(s, tmp+string(filepath.Separator), "")
		return strings.ReplaceAll(s, tmp, base)
	}
	for i := range r.Outcomes {
		r.Outcomes[i].Log = fix(r.Outcomes[i].Log)
	}
	r.Setup = fix(r.Setup)
	if r.New, err = readSuiteFiles(sdir, fdir); err != nil {
		return nil, err
	}
	return r, nil
}

// renderT is the testscript.T of a render: it runs each scenario to
// completion in its own goroutine (so that FailNow can end it), one after
// another, and keeps its outcome.
type renderT struct {
	suite    *Suite
	mayStart func() bool
	outcomes []Outcome
	fatal    string
	logT
}

func (t *renderT) do(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				t.fatal = fmt.Sprintf("panic: %v", p)
			}
		}()
		f()
	}()
	<-done
	if t.fatal == "" && t.failed {
		t.fatal = strings.TrimSpace(t.log.String())
	}
}

func (t *renderT) Run(name string, f func(testscript.T)) {
	if t.mayStart != nil && !t.mayStart() {
		return
	}
	st := &logT{}
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				st.Log(fmt.Sprintf("panic: %v", p))
				st.mark()
			}
		}()
		f(st)
	}()
	<-done
	st.mu.Lock()
	defer st.mu.Unlock()
	t.outcomes = append(t.outcomes, Outcome{Name: name, Failed: st.failed, Skipped: st.skipped,
		Log: strings.TrimRight(st.log.String(), "\n"), Elapsed: time.Since(start)})
}

// logT is a testscript.T that keeps its log and its verdict.
type logT struct {
	mu      sync.Mutex
	log     bytes.Buffer
	failed  bool
	skipped bool
}

func (t *logT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.log, args...)
}

func (t *logT) mark() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
}

func (t *logT) Skip(args ...any) {
	t.Log(args...)
	t.mu.Lock()
	t.skipped = true
	t.mu.Unlock()
	runtime.Goexit()
}
func (t *logT) Fatal(args ...any) { t.Log(args...); t.FailNow() }
func (t *logT) FailNow()          { t.mark(); runtime.Goexit() }
func (t *logT) Parallel()         {}
func (t *logT) Verbose() bool     { return false }

// Failed is read by the harness at the end of each scenario.
func (t *logT) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// Run runs a nested test inline; testscript does not nest.
func (t *logT) Run(name string, f func(testscript.T)) {
	sub := &logT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(sub)
	}()
	<-done
	t.mu.Lock()
	defer t.mu.Unlock()
	t.log.Write(sub.log.Bytes())
	t.failed = t.failed || sub.failed
}

// rerecordForTest is Run's update: Rerecord of the scenarios the test run
// selects, written if it is OK, every refusal a failure of t.
func rerecordForTest(t *testing.T, cfg Config) {
	t.Helper()
	if cfg.CI {
		t.Fatalf("GOLDIE_UPDATE: %v", ErrCIRecord)
	}
	if len(cfg.Scenarios) == 0 {
		if names, ok := selectedByRun(t); ok {
			if cfg.Scenarios = names(cfg.ScenarioDir); len(cfg.Scenarios) == 0 {
				return // -run selects no scenario
			}
		}
	}
	rec, err := Rerecord(cfg, RerecordOptions{})
	if err != nil {
		t.Fatalf("GOLDIE_UPDATE: %v", err)
	}
	for _, o := range rec.Outcomes {
		if o.Failed {
			t.Errorf("GOLDIE_UPDATE: %s failed for a reason other than a changed screen:\n%s", o.Name, o.Log)
		}
	}
	if rec.Setup != "" {
		t.Errorf("GOLDIE_UPDATE: setup: %s", rec.Setup)
	}
	for _, f := range rec.Invariants {
		t.Errorf("GOLDIE_UPDATE: %s: invariants fail (%s): the screens would pin the bug", f.File, strings.Join(f.Checks, ", "))
	}
	for _, d := range rec.Unreproducible {
		t.Errorf("GOLDIE_UPDATE: %s is not reproducible (two renders differ):\n%s", d.Name, d.Diff)
	}
	if !rec.OK() {
		t.Fatalf("GOLDIE_UPDATE: nothing written")
	}
	changed, err := rec.Write(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range changed {
		t.Logf("recorded %s", n)
	}
}

// selectedByRun returns, when go test's -run pattern reaches below t (as
// -run TestScenarios/compaction does), a function listing the scenarios of
// a directory that its next element matches, as testing matches subtests.
func selectedByRun(t *testing.T) (func(dir string) []string, bool) {
	f := flag.Lookup("test.run")
	if f == nil || f.Value.String() == "" {
		return nil, false
	}
	parts := strings.Split(f.Value.String(), "/")
	depth := strings.Count(t.Name(), "/") + 1
	if len(parts) <= depth {
		return nil, false
	}
	re, err := regexp.Compile(parts[depth])
	if err != nil {
		return nil, false
	}
	return func(dir string) []string {
		all, _ := ScenarioNames(dir)
		var out []string
		for _, n := range all {
			if re.MatchString(n) {
				out = append(out, n)
			}
		}
		return out
	}, true
}
