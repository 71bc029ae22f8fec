package harness

import (
	"bufio"
	"bytes"
	"os"
	"regexp"
	"strings"
)

// This file is the one reader of a scenario's snapshot steps: the fixture
// store's mismatch messages, the pending store's owners and record's
// ownership check all take their names and lines from SnapshotSteps.

// SnapshotStep is one "snapshot NAME" step of a scenario's script.
type SnapshotStep struct {
	Name string // the fixture name it takes
	Line int    // its line in the scenario file, from 1
}

// snapshotStep matches a snapshot step: optional [conditions] and "!", the
// verb, and the fixture name (quotes, as testscript reads them, removed by
// SnapshotSteps).
var snapshotStep = regexp.MustCompile(`^\s*(?:\[[^\]]*\]\s*)*(?:!\s*)?snapshot\s+(\S+)`)

// SnapshotSteps returns the snapshot steps of a scenario file's content, in
// order. The script ends at the archive's first file ("-- NAME --").
func SnapshotSteps(scenario []byte) []SnapshotStep {
	var out []SnapshotStep
	sc := bufio.NewScanner(bytes.NewReader(scenario))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<24)
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(strings.TrimSpace(l), " --") {
			break
		}
		if m := snapshotStep.FindStringSubmatch(l); m != nil {
			out = append(out, SnapshotStep{Name: strings.Trim(m[1], `'"`), Line: line})
		}
	}
	return out
}

// SnapshotLine returns the line of the step "snapshot NAME" in a scenario
// file's script (0 when there is none).
func SnapshotLine(scenarioFile, name string) int {
	data, err := os.ReadFile(scenarioFile)
	if err != nil {
		return 0
	}
	for _, s := range SnapshotSteps(data) {
		if s.Name == name {
			return s.Line
		}
	}
	return 0
}
