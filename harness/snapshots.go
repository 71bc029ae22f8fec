package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// This file is the one reader of a scenario's snapshot steps: the fixture
// store's mismatch messages, the pending store's owners, and the ownership
// check of a partial run, of record and of accept all take their names and
// lines from SnapshotSteps.

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

// SnapshotOwner is a snapshot step of a scenario directory: the scenario
// it is in (its name, without .txtar) and its line there.
type SnapshotOwner struct {
	Scenario string
	Line     int
}

// SnapshotIndex maps each fixture name to the snapshot steps that take it,
// in scenario order, over every scenario of a directory. Read once
// (ReadSnapshotIndex), it answers who owns a pending screen and whether a
// name is taken twice, by scenarios a run ran or not.
type SnapshotIndex map[string][]SnapshotOwner

// ReadSnapshotIndex reads the snapshot steps of every scenario of dir.
func ReadSnapshotIndex(dir string) (SnapshotIndex, error) {
	names, err := ScenarioNames(dir)
	if err != nil {
		return nil, err
	}
	ix := SnapshotIndex{}
	for _, s := range names {
		data, err := os.ReadFile(filepath.Join(dir, s+".txtar"))
		if err != nil {
			return nil, err
		}
		for _, st := range SnapshotSteps(data) {
			ix[st.Name] = append(ix[st.Name], SnapshotOwner{Scenario: s, Line: st.Line})
		}
	}
	return ix, nil
}

// Owner is the scenario whose snapshot step takes the fixture name first,
// or "" when none does.
func (ix SnapshotIndex) Owner(name string) string {
	if steps := ix[name]; len(steps) > 0 {
		return steps[0].Scenario
	}
	return ""
}

// Clashes describes, sorted, every fixture name that one of the scenarios
// snapshots and some other step of the directory takes too: recording or
// accepting it would replace the other step's fixture. Messages name the
// files in scenarioDir and fixtureDir (their base names: "scenarios",
// "fixtures").
func (ix SnapshotIndex) Clashes(scenarios []string, scenarioDir, fixtureDir string) []string {
	selected := map[string]bool{}
	for _, n := range scenarios {
		selected[n] = true
	}
	var out []string
	for name, steps := range ix {
		mine := false
		for _, st := range steps {
			mine = mine || selected[st.Scenario]
		}
		if c := ix.Clash(name, scenarioDir, fixtureDir); c != "" && mine {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// Clash says which snapshot steps take fixture name when more than one
// does ("" otherwise), naming files as Clashes does.
func (ix SnapshotIndex) Clash(name, scenarioDir, fixtureDir string) string {
	steps := ix[name]
	if len(steps) < 2 {
		return ""
	}
	var pos []string
	for _, st := range steps {
		pos = append(pos, fmt.Sprintf("%s/%s.txtar:%d", scenarioDir, st.Scenario, st.Line))
	}
	return fmt.Sprintf("%s/%s%s is snapshotted by %s", fixtureDir, name, FixtureSuffix, strings.Join(pos, " and "))
}
