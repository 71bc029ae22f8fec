package suitedir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/terminal"
)

// This file holds the pending screens (NAME.screen.new, written by a run
// whose snapshot differed) and the decisions on them: accept and reject.

// Refusal is an operation refused for a reason the user can act on; nothing
// was written.
type Refusal struct{ msg string }

func (r *Refusal) Error() string { return r.msg }

func refusef(format string, args ...any) error { return &Refusal{fmt.Sprintf(format, args...)} }

// Pending is one pending screen.
type Pending struct {
	Name     string // fixture name
	Path     string // the pending file
	Fixture  string // the fixture file (may not exist yet)
	Scenario string // the scenario whose snapshot step takes Name; "" if none
}

// Pending returns the pending screens in pdir ("" for beside the fixtures)
// whose fixture names pattern matches (nil for all), sorted, with the
// scenario that owns each. A pattern that is a pending screen's exact name
// selects that one only.
func (d Dir) Pending(pdir string, pattern *regexp.Regexp) ([]Pending, error) {
	if pdir == "" {
		pdir = d.Fixtures()
	}
	entries, err := os.ReadDir(pdir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list pending snapshots: %w", err)
	}
	index, err := d.Index()
	if err != nil {
		return nil, err
	}
	var out []Pending
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), harness.PendingSuffix)
		if !ok || e.IsDir() || (pattern != nil && !pattern.MatchString(name)) {
			continue
		}
		out = append(out, Pending{
			Name:     name,
			Path:     filepath.Join(pdir, e.Name()),
			Fixture:  d.Fixture(name),
			Scenario: index.Owner(name),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if pattern != nil {
		for _, p := range out {
			if p.Name == pattern.String() {
				return []Pending{p}, nil
			}
		}
	}
	return out, nil
}

// rerender renders the scenarios owning ps twice, as record does, and
// returns each fixture's new bytes by name. It is refused when a scenario
// fails for a reason other than a changed screen (an invariants step too),
// when the two renders of a fixture differ, or when a cmp step's archive
// file is stale as well (record re-records both).
func (d Dir) rerender(ps []Pending) (map[string][]byte, error) {
	set := map[string]bool{}
	var scen []string
	for _, p := range ps {
		if p.Scenario == "" {
			return nil, refusef("%s: no scenario snapshots %q any more; dshtest reject %s deletes it",
				d.Rel(p.Path), p.Name, p.Name)
		}
		if !set[p.Scenario] {
			set[p.Scenario] = true
			scen = append(scen, p.Scenario)
		}
	}
	sort.Strings(scen)
	// A pending screen of a name two steps take is the screen of one of
	// them: accepting it would replace the other's fixture.
	index, err := d.Index()
	if err != nil {
		return nil, err
	}
	if cl := clashes(index, scen); len(cl) > 0 {
		return nil, refusef("accept: %s; a fixture has one owner: rename the snapshot; nothing written", strings.Join(cl, "; "))
	}
	first, err := d.rerecord(scen, false, terminal.Projection{})
	var failed *RenderFailed
	var inv *InvariantsFailed
	var unstable *Unreproducible
	switch {
	case errors.As(err, &inv):
		failed = &RenderFailed{Result: inv.Result, Failed: inv.Result.FailedScenarios()}
		fallthrough
	case errors.As(err, &failed):
		var msgs []string
		for _, o := range failed.Result.Outcomes {
			if o.Status == "fail" {
				msgs = append(msgs, o.Name+": "+o.Output)
			}
		}
		return nil, refusef("%s failed for a reason other than a changed screen: %s; nothing written",
			words.Plural(len(msgs), "scenario"), strings.Join(msgs, "; "))
	case errors.As(err, &unstable):
		// Only the pending screens' fixtures are written.
		for _, p := range ps {
			for _, f := range unstable.Files {
				if f.Name == FixtureFile(p.Name) {
					return nil, refusef("%s is not reproducible (two renders differ):\n%s\nnothing written", f.Name, CompactDiff(string(f.First), string(f.Second)))
				}
			}
		}
	case err != nil:
		return nil, err
	}
	for name, b := range first.Scenarios {
		if !bytes.Equal(first.oldScen[name], b) {
			return nil, refusef("%s: a cmp step's file is stale too; dshtest record re-records both; nothing written", InScenarios(name))
		}
	}
	out := map[string][]byte{}
	for _, p := range ps {
		out[p.Name] = first.Fixtures[p.Name+harness.FixtureSuffix]
	}
	return out, nil
}

// Accept re-renders the pending screens' scenarios twice and, for each
// whose render is reproducible and still what the pending file holds,
// writes the fixture and removes the pending file. It returns the names
// accepted, also when it stops at an error.
func (d Dir) Accept(ps []Pending) ([]string, error) {
	fresh, err := d.rerender(ps)
	if err != nil {
		return nil, err
	}
	var done []string
	for _, p := range ps {
		pending, err := os.ReadFile(p.Path)
		if err != nil {
			return done, fmt.Errorf("read %s: %w", d.Rel(p.Path), err)
		}
		if !bytes.Equal(pending, fresh[p.Name]) {
			return done, refusef("%s is stale: %s now renders another screen; run dshtest run %s again",
				d.Rel(p.Path), p.Scenario, p.Scenario)
		}
		if err := safefile.WriteFile(p.Fixture, fresh[p.Name], safefile.Options{Force: true}); err != nil {
			return done, fmt.Errorf("write %s: %w", d.Rel(p.Fixture), err)
		}
		if err := os.Remove(p.Path); err != nil {
			return done, fmt.Errorf("remove %s: %w", d.Rel(p.Path), err)
		}
		done = append(done, p.Name)
	}
	return done, nil
}

// Reject deletes the pending files.
func Reject(ps []Pending) error {
	for _, p := range ps {
		if err := os.Remove(p.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
