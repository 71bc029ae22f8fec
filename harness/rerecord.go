package harness

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// This file is the one update path: dshtest record and accept (through
// package suitedir) and GOLDIE_UPDATE=1 go test all re-record through
// Rerecord. It renders the suite twice with RunSuite in update mode, each time in a scratch copy of the scenarios and fixtures,
// so that the screens and the archive files a cmp step re-records
// (testscript's UpdateScripts) are written only when every scenario
// passed and the two renders agree.

// ErrCIRecord is the refusal of a recording under CI.
var ErrCIRecord = errors.New("recording refused: CI is set, fixtures are read-only; record locally and commit the files; nothing written")

// RerecordOptions adjust where Rerecord renders.
type RerecordOptions struct {
	// Scratch makes a scratch directory and returns it with the function
	// that removes it; nil uses os.MkdirTemp and os.RemoveAll. (dshtest
	// record passes directories an interrupt removes.)
	Scratch func() (dir string, drop func(), err error)
}

// Rerecording is what an update would write, found by rendering twice.
type Rerecording struct {
	// Result is the first render's RunSuite result (its Invariants are
	// the failed invariants steps). Its messages name the user's files,
	// not the scratch copy's.
	Result Result
	// Unreproducible are the files that differ between the two renders.
	// Rerecord renders a second time only when the first passed.
	Unreproducible []FileDiff
	// Old and New are the scenario and fixture directories' files before
	// and after the render, each named by its directory's base name and
	// its own ("scenarios/NAME", "fixtures/NAME" in a suite folder).
	Old, New map[string][]byte
}

// FileDiff is a file that differs between two renders.
type FileDiff struct {
	Name          string // as Old and New name it
	First, Second []byte // the two renders' bytes
}

// Diff is the line diff from the first render to the second.
func (d FileDiff) Diff() string {
	return lineDiff("first render", "second render", string(d.First), string(d.Second))
}

// OK reports whether the recording may be written: every scenario passed,
// no invariants step failed and the two renders agree.
func (r *Rerecording) OK() bool {
	return len(r.Result.FailedScenarios()) == 0 && len(r.Result.Invariants) == 0 && len(r.Unreproducible) == 0
}

// Changed lists the files the recording would write (created or changed),
// sorted, named as in Old and New.
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

// Rerecord renders cfg's scenarios twice with RunSuite in update mode
// (screens and the archive files of cmp steps), each time in a scratch copy
// of cfg.ScenarioDir and cfg.FixtureDir, and returns what an update would
// write. It writes nothing to cfg's directories; Write does. cfg.Stopping
// ends a render between scenarios. Under cfg.CI it refuses with
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
	l := layoutOf(cfg)
	old, err := l.read(cfg.ScenarioDir, cfg.FixtureDir)
	if err != nil {
		return nil, err
	}
	first, err := renderOnce(cfg, opts, l, old)
	if err != nil {
		return nil, err
	}
	first.Old = old
	if !first.OK() {
		return first, nil
	}
	second, err := renderOnce(cfg, opts, l, old)
	if err != nil {
		return nil, err
	}
	first.Unreproducible = differingFiles(first.New, second.New)
	return first, nil
}

// differingFiles lists the files that differ between two renders, sorted
// by name.
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
			out = append(out, FileDiff{Name: n, First: x, Second: y})
		}
	}
	return out
}

// Write writes the recording's changed files into cfg's directories
// (atomically, by safefile's rule). It refuses a recording that is not OK,
// and under CI.
func (r *Rerecording) Write(cfg Config) ([]string, error) {
	if cfg.CI {
		return nil, ErrCIRecord
	}
	if !r.OK() {
		return nil, errors.New("harness: the recording failed; nothing written")
	}
	l := layoutOf(cfg)
	changed := r.Changed()
	for _, name := range changed {
		if err := writeFileAtomic(l.path(cfg.ScenarioDir, cfg.FixtureDir, name), r.New[name]); err != nil {
			return nil, fmt.Errorf("harness: record %s: %w", name, err)
		}
	}
	return changed, nil
}

// layout names a suite's two directories in a recording and in its scratch
// copies: by their base names, so that messages name the user's files as
// the user's folder does.
type layout struct{ scen, fix string }

func layoutOf(cfg Config) layout {
	l := layout{filepath.Base(cfg.ScenarioDir), filepath.Base(cfg.FixtureDir)}
	if l.fix == l.scen {
		l.fix += ".fixtures"
	}
	return l
}

// path is where a file named as in a recording lives, under the scenario
// directory sdir or the fixture directory fdir.
func (l layout) path(sdir, fdir, name string) string {
	if n, ok := strings.CutPrefix(name, l.fix+"/"); ok {
		return filepath.Join(fdir, n)
	}
	return filepath.Join(sdir, strings.TrimPrefix(name, l.scen+"/"))
}

// read reads the flat scenario and fixture directories (no pending file,
// no dot file), naming each file by its directory's base name.
func (l layout) read(sdir, fdir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, d := range []struct{ prefix, dir string }{{l.scen + "/", sdir}, {l.fix + "/", fdir}} {
		entries, err := os.ReadDir(d.dir)
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
			b, err := os.ReadFile(filepath.Join(d.dir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("harness: %w", err)
			}
			out[d.prefix+e.Name()] = b
		}
	}
	return out, nil
}

// renderOnce runs the suite with RunSuite in update mode on a scratch copy
// of files and returns what it left there.
func renderOnce(cfg Config, opts RerecordOptions, l layout, files map[string][]byte) (*Rerecording, error) {
	tmp, drop, err := opts.Scratch()
	if err != nil {
		return nil, fmt.Errorf("harness: scratch directory: %w", err)
	}
	defer drop()
	sdir, fdir := filepath.Join(tmp, l.scen), filepath.Join(tmp, l.fix)
	for _, d := range []string{sdir, fdir} {
		// One level only: a scratch directory an interrupt removed is
		// not made again.
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	}
	for name, b := range files {
		if err := os.WriteFile(l.path(sdir, fdir, name), b, 0o644); err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
	}
	run := cfg
	run.ScenarioDir, run.FixtureDir, run.WorkdirRoot = sdir, fdir, tmp
	run.Update, run.CI, run.PendingDir = true, false, ""
	r := &Rerecording{Result: RunSuite(run)}
	// Messages name the user's files: RunSuite names them relative to
	// the scratch copy ("scenarios/x.txtar"); any other mention of the
	// copy becomes the user's folder.
	base := filepath.Dir(cfg.ScenarioDir)
	fix := func(s string) string {
		s = strings.ReplaceAll(s, tmp+string(filepath.Separator), "")
		return strings.ReplaceAll(s, tmp, base)
	}
	res := &r.Result
	for i := range res.Outcomes {
		res.Outcomes[i].Output = fix(res.Outcomes[i].Output)
		for j := range res.Outcomes[i].Failures {
			res.Outcomes[i].Failures[j].File = fix(res.Outcomes[i].Failures[j].File)
		}
	}
	for i := range res.Inventory {
		res.Inventory[i] = fix(res.Inventory[i])
	}
	res.Setup = fix(res.Setup)
	if r.New, err = l.read(sdir, fdir); err != nil {
		return nil, err
	}
	return r, nil
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
	for _, o := range rec.Result.Outcomes {
		if o.Status == "fail" {
			t.Errorf("GOLDIE_UPDATE: %s failed for a reason other than a changed screen:\n%s", o.Name, o.Output)
		}
	}
	if rec.Result.Setup != "" {
		t.Errorf("GOLDIE_UPDATE: setup: %s", rec.Result.Setup)
	}
	for _, f := range rec.Result.Invariants {
		t.Errorf("GOLDIE_UPDATE: %s: invariants fail (%s): the screens would pin the bug", f.File, strings.Join(f.Checks, ", "))
	}
	for _, d := range rec.Unreproducible {
		t.Errorf("GOLDIE_UPDATE: %s is not reproducible (two renders differ):\n%s", d.Name, d.Diff())
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
