package harness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dshtest/dshtest/harness"
)

// Directories of the suite, relative to this package.
const (
	scenarioDir = "../scenarios"
	fixtureDir  = "../fixtures"
)

// TestScenarios runs every scenario (TestScenarios/NAME) and then the
// closed fixture inventory. GOLDIE_UPDATE=1 re-records; CI refuses to.
func TestScenarios(t *testing.T) {
	harness.Run(t, harness.ConfigFromEnv(scenarioDir, fixtureDir))
}

// TestArchivedLogsMatchTestdata keeps the logs that scenarios carry in
// their archives identical to the reference copies in sessionlog/testdata,
// so that a scenario cannot drift from the log it claims to reproduce.
func TestArchivedLogsMatchTestdata(t *testing.T) {
	names, err := harness.ScenarioNames(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range names {
		a, err := txtar.ParseFile(filepath.Join(scenarioDir, name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			ref := filepath.Join("..", "sessionlog", "testdata", f.Name)
			want, err := os.ReadFile(ref)
			if err != nil {
				continue // not a reference log
			}
			checked++
			if !bytes.Equal(f.Data, want) {
				t.Errorf("%s.txtar: %s differs from %s", name, f.Name, ref)
			}
		}
	}
	if checked < 3 {
		t.Errorf("only %d archived reference logs found", checked)
	}
}
