package harness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
)

func TestIsCI(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"", false}, {"0", false}, {"false", false}, {"FALSE", false}, {" false ", false},
		{"1", true}, {"true", true}, {"yes", true}, {"github", true},
	} {
		if got := harness.IsCI(tc.value); got != tc.want {
			t.Errorf("IsCI(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

func TestPendingDirFromEnv(t *testing.T) {
	for _, tc := range []struct {
		ci, dir, want string
	}{
		{"", "", "fx"},
		{"false", "/p", "fx"},
		{"true", "", ""},
		{"true", "/p", "/p"},
	} {
		env := map[string]string{"CI": tc.ci, "DSHTEST_PENDING_DIR": tc.dir}
		got := harness.PendingDirFromEnv(func(k string) string { return env[k] }, "fx")
		if got != tc.want {
			t.Errorf("CI=%q DSHTEST_PENDING_DIR=%q: %q, want %q", tc.ci, tc.dir, got, tc.want)
		}
	}
}

// twoSnapshots is a scenario with two snapshots whose text a test edits.
const twoSnapshots = `# Two snapshots of one prompt.
user 'Hello there'
mount 30 6
snapshot pend-a
resize 30 8
snapshot pend-b
`

// TestPendingSnapshots: every differing snapshot of a scenario is
// reported, each writes its pending file and leaves its fixture alone, a
// passing run removes stale pending files, the inventory ignores them, and
// without a pending directory nothing is written.
func TestPendingSnapshots(t *testing.T) {
	scen, fix := t.TempDir(), t.TempDir()
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(scen, "pend.txtar"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(twoSnapshots)
	if r := runSuite(t, harness.Config{ScenarioDir: scen, FixtureDir: fix, Update: true}); !r.ok() {
		t.Fatalf("recording failed: %v %v", r.failed, r.inventory)
	}
	recorded := map[string][]byte{}
	for _, n := range []string{"pend-a", "pend-b"} {
		b, err := os.ReadFile(filepath.Join(fix, n+harness.FixtureSuffix))
		if err != nil {
			t.Fatal(err)
		}
		recorded[n] = b
	}

	write(strings.Replace(twoSnapshots, "Hello there", "Hello world", 1))
	r := runSuite(t, harness.Config{ScenarioDir: scen, FixtureDir: fix, PendingDir: fix})
	log, failed := r.failed["pend"]
	if !failed {
		t.Fatal("the scenario passed with its text changed")
	}
	for _, n := range []string{"pend-a", "pend-b"} {
		if !strings.Contains(log, filepath.Base(fix)+"/"+n+".screen: the screen differs") {
			t.Errorf("the failure does not report %s:\n%s", n, log)
		}
		if !strings.Contains(log, "dshtest accept "+n) {
			t.Errorf("the failure does not say how to accept %s:\n%s", n, log)
		}
		got, err := os.ReadFile(filepath.Join(fix, n+harness.FixtureSuffix))
		if err != nil || !bytes.Equal(got, recorded[n]) {
			t.Errorf("%s.screen was touched", n)
		}
		pending, err := os.ReadFile(filepath.Join(fix, n+harness.PendingSuffix))
		if err != nil {
			t.Fatalf("no pending file for %s: %v", n, err)
		}
		if !bytes.Contains(pending, []byte("Hello world")) {
			t.Errorf("%s's pending file does not hold the new screen", n)
		}
	}
	ms := r.suite.Mismatches()
	if len(ms) != 2 || ms[0].Line != 4 || ms[1].Line != 6 || ms[0].File != filepath.Base(scen)+"/pend.txtar" {
		t.Errorf("mismatches = %+v; want pend-a at line 4 and pend-b at line 6", ms)
	}
	names, err := harness.FixtureNames(fix)
	if err != nil || len(names) != 2 {
		t.Errorf("FixtureNames = %v, %v; want the two fixtures only", names, err)
	}

	// Back to the recorded text: the run passes (the inventory ignores the
	// pending files) and removes them.
	write(twoSnapshots)
	if r := runSuite(t, harness.Config{ScenarioDir: scen, FixtureDir: fix, PendingDir: fix}); !r.ok() {
		t.Fatalf("the run failed: %v %v", r.failed, r.inventory)
	}
	for _, n := range []string{"pend-a", "pend-b"} {
		if _, err := os.Stat(filepath.Join(fix, n+harness.PendingSuffix)); !os.IsNotExist(err) {
			t.Errorf("stale pending file %s kept", n)
		}
	}

	// No pending directory (CI without one): nothing written.
	write(strings.Replace(twoSnapshots, "Hello there", "Hello world", 1))
	if r := runSuite(t, harness.Config{ScenarioDir: scen, FixtureDir: fix, CI: true}); r.ok() {
		t.Fatal("the changed scenario passed")
	}
	entries, _ := os.ReadDir(fix)
	if len(entries) != 2 {
		t.Errorf("%d files in the fixture directory, want the 2 fixtures", len(entries))
	}
}

// TestMismatchHint: the hint's commands find the pending file when pasted:
// beside its fixture they take the name alone; in a pending directory
// (as under CI) they take --pending-dir DIR, quoted for a shell when it
// needs it.
func TestMismatchHint(t *testing.T) {
	for _, tc := range []struct {
		name, pending, dir, want string
	}{
		{"greet", "fixtures/greet.screen.new", "",
			"new screen in fixtures/greet.screen.new; to decide: dshtest review greet, dshtest accept greet or dshtest reject greet"},
		{"greet", "/ci/pending/greet.screen.new", "/ci/pending",
			"new screen in /ci/pending/greet.screen.new; to decide: dshtest review --pending-dir /ci/pending greet, dshtest accept --pending-dir /ci/pending greet or dshtest reject --pending-dir /ci/pending greet"},
		{"greet", "/ci/my pending/greet.screen.new", "/ci/my pending",
			"new screen in /ci/my pending/greet.screen.new; to decide: dshtest review --pending-dir '/ci/my pending' greet, dshtest accept --pending-dir '/ci/my pending' greet or dshtest reject --pending-dir '/ci/my pending' greet"},
		{"greet", "", "",
			"no pending file written (--pending-dir or $DSHTEST_PENDING_DIR keeps one under CI); to record: dshtest record greet-scenario"},
	} {
		m := harness.Mismatch{Scenario: "greet-scenario", Name: tc.name, Fixture: "fixtures/" + tc.name + harness.FixtureSuffix, Pending: tc.pending}
		if got := m.Hint(); got != tc.want {
			t.Errorf("Pending %q:\n got %s\nwant %s", tc.pending, got, tc.want)
		}
		if got := m.PendingDir(); got != tc.dir {
			t.Errorf("Pending %q: PendingDir() = %q, want %q", tc.pending, got, tc.dir)
		}
	}
}
