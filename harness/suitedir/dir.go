// Package suitedir is a scenario folder on disk: its layout (scenarios/
// beside fixtures/), the files of a new suite (Init), the index of its
// snapshot steps, its pending screens and the decisions on them (accept,
// reject), and record's renders in scratch copies of it.
//
// The harness runs a suite given its two directories; this package is
// where a folder's layout is known, so that a command names the files the
// way the user's folder does.
package suitedir

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dshtest/dshtest/harness"
)

// The folder's layout: the only place its two directory names are spelled.
const (
	scenariosName = "scenarios"
	fixturesName  = "fixtures"
)

// Dir is a scenario folder: Root holds scenarios/*.txtar and fixtures/.
type Dir struct{ Root string }

// Scenarios is the scenario directory.
func (d Dir) Scenarios() string { return filepath.Join(d.Root, scenariosName) }

// Fixtures is the fixture directory (it may not exist before the first
// record).
func (d Dir) Fixtures() string { return filepath.Join(d.Root, fixturesName) }

// Config is a harness configuration for the folder's two directories.
func (d Dir) Config() harness.Config {
	return harness.Config{ScenarioDir: d.Scenarios(), FixtureDir: d.Fixtures()}
}

// Fixture is the file of the fixture name.
func (d Dir) Fixture(name string) string {
	return filepath.Join(d.Fixtures(), name+harness.FixtureSuffix)
}

// FixtureFile is how messages name the fixture name: "fixtures/NAME.screen".
func FixtureFile(name string) string { return InFixtures(name + harness.FixtureSuffix) }

// ScenarioFile is how messages name a scenario: "scenarios/NAME.txtar".
func ScenarioFile(name string) string { return InScenarios(name + ".txtar") }

// InFixtures and InScenarios name a file of the fixture or the scenario
// directory as messages do: "fixtures/FILE", "scenarios/FILE".
func InFixtures(file string) string  { return fixturesName + "/" + file }
func InScenarios(file string) string { return scenariosName + "/" + file }

// Rel is path relative to the folder when it lies inside it, else path.
func (d Dir) Rel(path string) string {
	if r, err := filepath.Rel(d.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// HasScenarios reports whether dir holds a scenarios/ directory.
func HasScenarios(dir string) bool { return isDir(filepath.Join(dir, scenariosName)) }

// HasFixtures reports whether dir holds a fixtures/ directory.
func HasFixtures(dir string) bool { return isDir(filepath.Join(dir, fixturesName)) }

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// InputAt reports whether path names a file of one of dirs (a suite's
// scenario and fixture folders), however it is spelled: a link, "./",
// another name of the same file. An output a command regenerates may
// replace its own kind of file (last run's report), never an input. It
// returns the input's path in dirs.
func InputAt(path string, dirs ...string) (string, bool) {
	if path == "" {
		return "", false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", false // a new file replaces nothing
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			in := filepath.Join(dir, e.Name())
			if ifi, err := os.Stat(in); err == nil && os.SameFile(fi, ifi) {
				return in, true
			}
		}
	}
	return "", false
}

// ReadAsInput reports whether a file written at path, new or not, is one
// the suite reads as an input: a scenario (NAME.txtar in the scenario
// folder), or any file of the fixture folder but a dot file (a fixture, a
// pending screen review and accept take, or a stray file the closed
// inventory fails on). path's folder is compared with the suite's whatever
// it is spelled ("./", "..", a link to the folder). It returns what the
// suite would read the file as, for a message: "a scenario of scenarios/",
// "a file of fixtures/".
func (d Dir) ReadAsInput(path string) (string, bool) {
	if path == "" {
		return "", false
	}
	parent, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return "", false // no folder: nothing can be written there
	}
	base := filepath.Base(path)
	if fi, err := os.Stat(d.Scenarios()); err == nil && os.SameFile(parent, fi) && strings.HasSuffix(base, ".txtar") {
		return "a scenario of " + scenariosName + "/", true
	}
	if fi, err := os.Stat(d.Fixtures()); err == nil && os.SameFile(parent, fi) && !strings.HasPrefix(base, ".") {
		return "a file of " + fixturesName + "/", true
	}
	return "", false
}
