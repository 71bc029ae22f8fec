package harness_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/harness"
)

// This file runs the suite programmatically, outside testing's subtests,
// so that a test can run it with a broken seam or a doctored fixture
// directory and assert that it fails, and how.

// run is the outcome of one programmatic run of the suite.
type run struct {
	suite     *harness.Suite
	failed    map[string]string // scenario -> its log, for failed scenarios
	passed    []string
	inventory []error
}

// failedNames returns the failed scenarios, sorted.
func (r *run) failedNames() []string {
	var out []string
	for n := range r.failed {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ok reports whether nothing failed.
func (r *run) ok() bool { return len(r.failed) == 0 && len(r.inventory) == 0 }

// runSuite runs cfg's scenarios one after another and then the closed
// inventory check.
func runSuite(t *testing.T, cfg harness.Config) *run {
	t.Helper()
	s := harness.NewSuite(cfg)
	top := &scriptT{}
	r := &run{suite: s, failed: map[string]string{}}
	top.onDone = func(name string, st *scriptT) {
		if st.Failed() {
			r.failed[name] = st.log.String()
		} else {
			r.passed = append(r.passed, name)
		}
	}
	top.run(func() { testscript.RunT(top, s.Params()) })
	if top.Failed() {
		t.Fatalf("the suite could not start: %s", top.log.String())
	}
	r.inventory = s.Inventory()
	return r
}

// scriptT is a testscript.T that runs subtests synchronously, each in its
// own goroutine so that FailNow can end it.
type scriptT struct {
	mu     sync.Mutex
	log    strings.Builder
	failed bool
	onDone func(name string, t *scriptT)
}

func (t *scriptT) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				t.Log(fmt.Sprintf("panic: %v", p))
				t.mark()
			}
		}()
		f()
	}()
	<-done
}

func (t *scriptT) mark() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
}

func (t *scriptT) Skip(args ...any)  { t.Log(args...); runtime.Goexit() }
func (t *scriptT) Fatal(args ...any) { t.Log(args...); t.FailNow() }
func (t *scriptT) Parallel()         {}
func (t *scriptT) FailNow()          { t.mark(); runtime.Goexit() }
func (t *scriptT) Verbose() bool     { return false }

func (t *scriptT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.log, args...)
}

// Failed is read by the harness at the end of each scenario.
func (t *scriptT) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

func (t *scriptT) Run(name string, f func(testscript.T)) {
	sub := &scriptT{}
	sub.run(func() { f(sub) })
	if t.onDone != nil {
		t.onDone(name, sub)
	}
}

// copyFixtures copies the fixture directory into a temporary one.
func copyFixtures(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	names, err := harness.FixtureNames(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(fixtureDir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// snapshotDir returns every file of dir with its content.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}
