package harness_test

import (
	"testing"

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
