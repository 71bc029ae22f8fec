package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshtest/dshtest/harness"
)

// These tests doctor a temporary copy of fixtures/ and check that the
// suite fails with a message that says what to do, and that recording
// obeys CI.

// owner is a scenario and the fixtures it alone snapshots.
const (
	ownerScenario = "regenerated-assistant"
	ownedFixture  = "regenerated-assistant-after"
)

func TestDeletedFixtureFails(t *testing.T) {
	dir := copyFixtures(t)
	if err := os.Remove(filepath.Join(dir, ownedFixture+harness.FixtureSuffix)); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir, Scenarios: []string{ownerScenario}})
	log, failed := r.failed[ownerScenario]
	if !failed {
		t.Fatalf("the suite passed with %s deleted", ownedFixture)
	}
	want := filepath.Base(dir) + "/" + ownedFixture + ".screen: missing\nno pending file written (--pending-dir or $DSHTEST_PENDING_DIR keeps one under CI); to record: dshtest record " + ownerScenario
	if !strings.Contains(log, want) {
		t.Errorf("the failure does not say what to do; want %q in:\n%s", want, log)
	}
}

func TestOrphanFixtureFails(t *testing.T) {
	dir := copyFixtures(t)
	orphan := filepath.Join(dir, "no-such-snapshot"+harness.FixtureSuffix)
	if err := os.WriteFile(orphan, []byte("dshtest fixture v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir})
	if len(r.failed) > 0 {
		t.Fatalf("scenarios failed on an intact copy: %v", r.failedNames())
	}
	want := filepath.Base(dir) + `/no-such-snapshot.screen: orphan fixture: no scenario snapshots "no-such-snapshot"; delete it (dshtest record --prune deletes every orphan) or add a snapshot step`
	if len(r.inventory) != 1 || r.inventory[0].Error() != want {
		t.Fatalf("inventory errors = %v; want exactly %q", r.inventory, want)
	}
}

func TestChangedFixtureFails(t *testing.T) {
	dir := copyFixtures(t)
	path := filepath.Join(dir, ownedFixture+harness.FixtureSuffix)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), "A demo project.")
	if i < 0 {
		t.Fatalf("%s does not show the original answer", ownedFixture)
	}
	data[i] = 'B' // change one byte
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir, Scenarios: []string{ownerScenario}})
	log, failed := r.failed[ownerScenario]
	if !failed {
		t.Fatalf("the suite passed with one byte of %s changed", ownedFixture)
	}
	for _, want := range []string{
		"the screen differs from the recorded fixture",
		`-"B demo project.`, // the line diff: recorded
		`+"A demo project.`, // actual
		"to record: dshtest record " + ownerScenario,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the failure lacks %q:\n%s", want, log)
		}
	}
}

func TestDuplicateSnapshotNameFails(t *testing.T) {
	dir := t.TempDir()
	scen := t.TempDir()
	for _, name := range []string{"a", "b"} {
		src := "turn 1\nuser 'Hi'\nmount 20 5\nsnapshot same-name\n"
		if err := os.WriteFile(filepath.Join(scen, name+".txtar"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runSuite(t, harness.Config{ScenarioDir: scen, FixtureDir: dir, Update: true})
	log := r.failed["b"]
	if !strings.Contains(log, "same-name.screen: snapshotted twice (by a and b)") {
		t.Errorf("b did not fail with the duplicate: failed=%v\n%s", r.failedNames(), log)
	}
	found := false
	for _, err := range r.inventory {
		found = found || strings.Contains(err.Error(), "snapshotted 2 times (by a, b)")
	}
	if !found {
		t.Errorf("inventory = %v; want the duplicate", r.inventory)
	}
}

// TestCIRefusesToRecord: with CI set, GOLDIE_UPDATE writes nothing, even
// for a missing or a changed fixture, and both fail.
func TestCIRefusesToRecord(t *testing.T) {
	dir := copyFixtures(t)
	if err := os.Remove(filepath.Join(dir, ownedFixture+harness.FixtureSuffix)); err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "regenerated-assistant-before"+harness.FixtureSuffix)
	if err := os.WriteFile(changed, []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshotDir(t, dir)
	r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir, Update: true, CI: true})
	if after := snapshotDir(t, dir); !sameDir(before, after) {
		t.Errorf("CI=true GOLDIE_UPDATE=1 wrote to the fixture directory")
	}
	log, failed := r.failed[ownerScenario]
	if !failed || !strings.Contains(log, "recording refused: CI is set") {
		t.Errorf("want %s to fail with the CI refusal; failed=%v\n%s", ownerScenario, r.failedNames(), log)
	}
	if len(r.failed) != 1 {
		t.Errorf("failed = %v; want only %s", r.failedNames(), ownerScenario)
	}
}

// TestUpdateRecordsAtomically re-records into a doctored copy: the missing
// and the changed fixture come back equal to the committed ones, and no
// temporary file is left behind.
func TestUpdateRecordsAtomically(t *testing.T) {
	dir := copyFixtures(t)
	want := snapshotDir(t, dir)
	if err := os.Remove(filepath.Join(dir, ownedFixture+harness.FixtureSuffix)); err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "regenerated-assistant-before"+harness.FixtureSuffix)
	if err := os.WriteFile(changed, []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir, Update: true,
		Scenarios: []string{ownerScenario}})
	if !r.ok() {
		t.Fatalf("update run failed: %v %v", r.failedNames(), r.inventory)
	}
	if got := snapshotDir(t, dir); !sameDir(want, got) {
		t.Errorf("re-recorded fixtures differ from the committed ones (or a temp file was left): %d files, want %d", len(got), len(want))
	}
}

// TestRecordingIsDeterministic records the whole suite twice into empty
// directories: both runs write exactly the committed fixtures, byte for
// byte. Run it under -race, -shuffle=on and any TZ, LANG, TERM or
// NO_COLOR: fixtures do not depend on them.
func TestRecordingIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("records the whole suite twice")
	}
	committed := snapshotDir(t, fixtureDir)
	for i := range 2 {
		dir := t.TempDir()
		r := runSuite(t, harness.Config{ScenarioDir: scenarioDir, FixtureDir: dir, Update: true})
		if !r.ok() {
			t.Fatalf("run %d: failed %v, inventory %v", i+1, r.failedNames(), r.inventory)
		}
		got := snapshotDir(t, dir)
		for name, data := range committed {
			if got[name] != data {
				t.Errorf("run %d: %s differs from the committed fixture", i+1, name)
			}
		}
		if len(got) != len(committed) {
			t.Errorf("run %d: recorded %d fixtures, committed %d", i+1, len(got), len(committed))
		}
	}
}

func sameDir(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
