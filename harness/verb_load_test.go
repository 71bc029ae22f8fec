package harness_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/sessionlog/container"
)

// TestLoadSQLiteUnlinked: the harness does not link the SQLite reader, so
// a scenario's load of a database, run by a program that does not link it
// either (this test), is refused with the import that enables it, placed
// at the file as the scenario names it.
func TestLoadSQLiteUnlinked(t *testing.T) {
	dir := t.TempDir()
	scenarios, fixtures := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
	for _, d := range []string{scenarios, fixtures} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	a := &txtar.Archive{
		Comment: []byte("! load session.db\n" +
			`stderr '^session\.db: a SQLite session database, and this program reads none: import _ "github\.com/dshtest/dshtest/sessionlog/sqlite" to read it$'` + "\n"),
		Files: []txtar.File{{Name: "session.db", Data: []byte(container.SQLiteMagic + "\n")}},
	}
	if err := os.WriteFile(filepath.Join(scenarios, "load-db.txtar"), txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, harness.Config{ScenarioDir: scenarios, FixtureDir: fixtures, Scenarios: []string{"load-db"}})
	if !r.ok() || len(r.passed) != 1 {
		t.Fatalf("passed %v; the scenario's log:\n%s", r.passed, r.failed["load-db"])
	}
}
