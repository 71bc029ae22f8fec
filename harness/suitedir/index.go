package suitedir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dshtest/dshtest/harness"
)

// Step is a snapshot step of the folder: the scenario it is in and its
// line there.
type Step struct {
	Scenario string
	Line     int
}

// String names the step as messages do: "scenarios/NAME.txtar:LINE".
func (s Step) String() string { return fmt.Sprintf("%s:%d", ScenarioFile(s.Scenario), s.Line) }

// Index maps each fixture name to the snapshot steps that take it, in
// scenario order, over every scenario of a folder: read once
// (harness.SnapshotSteps), it answers who owns a pending screen and
// whether a name is taken twice.
type Index map[string][]Step

// Index reads the snapshot steps of every scenario of the folder.
func (d Dir) Index() (Index, error) {
	names, err := harness.ScenarioNames(d.Scenarios())
	if err != nil {
		return nil, err
	}
	ix := Index{}
	for _, s := range names {
		data, err := os.ReadFile(filepath.Join(d.Scenarios(), s+".txtar"))
		if err != nil {
			return nil, err
		}
		for _, st := range harness.SnapshotSteps(data) {
			ix[st.Name] = append(ix[st.Name], Step{Scenario: s, Line: st.Line})
		}
	}
	return ix, nil
}

// Owner is the scenario whose snapshot step takes the fixture name first,
// or "" when none does.
func (ix Index) Owner(name string) string {
	if steps := ix[name]; len(steps) > 0 {
		return steps[0].Scenario
	}
	return ""
}

// Clashes describes, sorted, every fixture name that one of the scenarios
// snapshots and some other step of the folder takes too: recording those
// scenarios would replace the other step's fixture.
func (ix Index) Clashes(scenarios []string) []string {
	selected := map[string]bool{}
	for _, n := range scenarios {
		selected[n] = true
	}
	var out []string
	for name, steps := range ix {
		if len(steps) < 2 {
			continue
		}
		mine := false
		var pos []string
		for _, st := range steps {
			mine = mine || selected[st.Scenario]
			pos = append(pos, st.String())
		}
		if mine {
			out = append(out, fmt.Sprintf("%s is snapshotted by %s", FixtureFile(name), strings.Join(pos, " and ")))
		}
	}
	sort.Strings(out)
	return out
}
