package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/screen"
	"github.com/dshtest/dshtest/terminal/display"
)

// FixtureSuffix is the file suffix of a recorded screen.
const FixtureSuffix = ".screen"

// Fixture is one recorded screen: the settings it was rendered with, the
// whole transcript document and the terminal's screen rows. It holds no
// scenario name or path, so two snapshots of the same screen are
// byte-identical.
type Fixture struct {
	Width, Height int
	Scheme        display.Scheme
	HideReasoning bool
	Tools         display.ToolMode
	Document      []screen.Row
	Screen        []screen.Row
}

// Violations applies the theme rule (terminal.md §9.2) to every row of the
// document and the screen.
func (f *Fixture) Violations() []string {
	var out []string
	for _, v := range screen.Violations(f.Document) {
		out = append(out, "document "+v)
	}
	for _, v := range screen.Violations(f.Screen) {
		out = append(out, "screen "+v)
	}
	return out
}

// Bytes serialises the fixture in the format of screen.Fixture:
//
//	dshtest fixture v2
//	terminal 80x24 scheme=dark profile=ansi16
//	toggles reasoning=on tools=collapsed
//	theme-violations 0
//	document
//	<the document's rows>
//	screen
//	<the screen's own rows and references to the document rows it shows>
func (f *Fixture) Bytes() []byte {
	sf := screen.Fixture{
		Settings: []string{
			fmt.Sprintf("terminal %dx%d scheme=%s profile=ansi16", f.Width, f.Height, f.Scheme),
			fmt.Sprintf("toggles reasoning=%s tools=%s", display.ReasoningName(!f.HideReasoning), f.Tools),
			fmt.Sprintf("theme-violations %d", len(f.Violations())),
		},
		Document: f.Document,
		Screen:   f.Screen,
	}
	return sf.Marshal()
}

// fixtureStore reads, compares and (re-)records fixtures, and keeps the
// inventory of names snapshotted in this run.
type fixtureStore struct {
	dir        string
	update, ci bool
	pendingDir string // where pending snapshots go; "" keeps none
	hintDir    string // Config.HintDir

	mu    sync.Mutex
	taken map[string][]string // fixture name -> scenarios that snapshotted it
	data  map[string][]byte   // fixture name -> bytes snapshotted in this run
	pairs []samePair          // same-fixture pairs left for the end of the run
}

// samePair is a same-fixture check: the whole files, or only their
// document sections.
type samePair struct {
	a, b     string
	document bool
	scenario string // the step's scenario file, as messages name it
}

func newFixtureStore(dir string, update, ci bool, pendingDir, hintDir string) *fixtureStore {
	return &fixtureStore{dir: dir, update: update, ci: ci, pendingDir: pendingDir, hintDir: hintDir,
		taken: map[string][]string{}, data: map[string][]byte{}}
}

// path is the fixture's file path.
func (s *fixtureStore) path(name string) string {
	return filepath.Join(s.dir, name+FixtureSuffix)
}

// display is how messages name a fixture: "fixtures/NAME.screen".
func (s *fixtureStore) display(name string) string {
	return filepath.ToSlash(filepath.Join(filepath.Base(s.dir), name+FixtureSuffix))
}

// take records that scenario snapshotted name; it fails when the name was
// already taken in this run.
func (s *fixtureStore) take(name, scenario string) error {
	if !ValidFixtureName(name) {
		return fmt.Errorf("snapshot %q: a fixture name is lower-case letters, digits and '-'", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.taken[name]
	s.taken[name] = append(prev, scenario)
	if len(prev) > 0 {
		return fmt.Errorf("%s: snapshotted twice (by %s and %s); each fixture belongs to exactly one snapshot step: rename one of them",
			s.display(name), prev[0], scenario)
	}
	return nil
}

// ValidFixtureName reports whether name is a fixture name: lower-case
// letters, digits and '-'.
func ValidFixtureName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// names returns the names taken so far, sorted.
func (s *fixtureStore) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.taken))
	for n := range s.taken {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// timesTaken is how many snapshot steps took name in this run.
func (s *fixtureStore) timesTaken(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.taken[name])
}

// duplicates reports every name taken more than once.
func (s *fixtureStore) duplicates() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, n := range sortedKeys(s.taken) {
		if by := s.taken[n]; len(by) > 1 {
			errs = append(errs, fmt.Errorf("%s: snapshotted %d times (by %s); each fixture belongs to exactly one snapshot step: rename all but one",
				s.display(n), len(by), strings.Join(by, ", ")))
		}
	}
	return errs
}

// inventory compares the fixture directory with the names taken: an
// orphan file or a taken name without a file is an error that says what to
// do.
func (s *fixtureStore) inventory() []error {
	files, err := FixtureNames(s.dir)
	if err != nil {
		return []error{err}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	onDisk := map[string]bool{}
	for _, f := range files {
		onDisk[f] = true
		name, ok := strings.CutSuffix(f, FixtureSuffix)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: not a fixture (fixtures are NAME%s); delete it",
				filepath.ToSlash(filepath.Join(filepath.Base(s.dir), f)), FixtureSuffix))
			continue
		}
		if len(s.taken[name]) == 0 {
			errs = append(errs, fmt.Errorf("%s: orphan fixture: no scenario snapshots %q; delete it (dshtest record --prune deletes every orphan) or add a snapshot step",
				s.display(name), name))
		}
	}
	for _, n := range sortedKeys(s.taken) {
		if !onDisk[n+FixtureSuffix] {
			errs = append(errs, fmt.Errorf("%s: missing; to record: dshtest record %s", s.display(n), s.taken[n][0]))
		}
	}
	return errs
}

// FixtureNames lists the files of a fixture directory, sorted, leaving out
// pending snapshots (NAME.screen.new), which are not fixtures.
func FixtureNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list fixtures: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || IsPending(e.Name()) {
			continue
		}
		out = append(out, e.Name())
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// remember keeps the bytes a snapshot produced in this run.
func (s *fixtureStore) remember(name string, data []byte) {
	s.mu.Lock()
	s.data[name] = data
	s.mu.Unlock()
}

// same checks that fixtures a and b are byte-identical. When both were
// snapshotted earlier in this run it compares those bytes at once; when
// one is still to come (scenarios run in parallel) the pair is checked on
// disk by pendingPairs at the end of the run.
func (s *fixtureStore) same(p samePair) error {
	s.mu.Lock()
	da, oka := s.data[p.a]
	db, okb := s.data[p.b]
	if !oka || !okb {
		s.pairs = append(s.pairs, p)
	}
	s.mu.Unlock()
	if !oka || !okb {
		return nil
	}
	return s.compareSame(p, da, db)
}

func (s *fixtureStore) compareSame(p samePair, da, db []byte) error {
	what := "must be byte-identical"
	if p.document {
		da, db = documentSection(da), documentSection(db)
		what = "must have byte-identical documents"
	}
	if bytes.Equal(da, db) {
		return nil
	}
	return fmt.Errorf("%s and %s %s but differ:\n%s", s.display(p.a), s.display(p.b), what,
		lineDiff(p.a, p.b, string(da), string(db)))
}

// documentSection returns a fixture's document section: from its
// "document" line up to its "screen" line.
func documentSection(data []byte) []byte {
	i := bytes.Index(data, []byte("\ndocument\n"))
	j := bytes.Index(data, []byte("\nscreen\n"))
	if i < 0 || j < i {
		return data
	}
	return data[i+1 : j+1]
}

// pendingPairs checks, on disk, the same-fixture pairs that could not be
// checked when their step ran.
func (s *fixtureStore) pendingPairs() []error {
	s.mu.Lock()
	pairs := append([]samePair(nil), s.pairs...)
	s.mu.Unlock()
	var errs []error
	for _, p := range pairs {
		read := func(name string) ([]byte, error) {
			b, err := os.ReadFile(s.path(name))
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("%s: same-fixture %s %s: %s does not exist and no snapshot step of this run took %q: fix the name, or snapshot it and record",
					p.scenario, p.a, p.b, s.display(name), name)
			case err != nil:
				return nil, fmt.Errorf("%s: same-fixture: %s: %w", p.scenario, s.display(name), err)
			}
			return b, nil
		}
		da, err := read(p.a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		db, err := read(p.b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := s.compareSame(p, da, db); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// check compares data with the fixture name, (re-)recording it first when
// updating. A differing or missing fixture is a *mismatchError: its new
// screen goes to the pending file (when one is kept), and the fixture is
// never touched. A match removes a stale pending file.
func (s *fixtureStore) check(name, scenario string, data []byte) error {
	path := s.path(name)
	want, err := os.ReadFile(path)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return fmt.Errorf("%s: %w", s.display(name), err)
	}
	if s.update && (missing || !bytes.Equal(want, data)) {
		if s.ci {
			return fmt.Errorf("%s: recording refused: CI is set, fixtures are read-only; record locally and commit the file", s.display(name))
		}
		if err := writeFileAtomic(path, data); err != nil {
			return fmt.Errorf("%s: record: %w", s.display(name), err)
		}
		return s.removePending(name)
	}
	if !missing && bytes.Equal(want, data) {
		return s.removePending(name)
	}
	m := Mismatch{Scenario: scenario, Name: name, Fixture: s.display(name), Missing: missing, New: data, Dir: s.hintDir}
	if !missing {
		m.Recorded = want
	}
	switch {
	case !missing && bytes.Equal(bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n")), data):
		// A fixture's text holds no carriage return of its own (a row's
		// is escaped): these are a checkout's.
		m.Diff = "only the line endings differ: the fixture has CRLF, the screen LF (git's core.autocrlf\n" +
			"converts them on checkout): add \"*.screen -text\" to .gitattributes and check the fixtures out again"
	case !missing:
		m.Diff = lineDiff("recorded", "new", string(want), string(data))
	}
	if m.Pending, err = s.writePending(name, data); err != nil {
		return err
	}
	return &mismatchError{m}
}

// lineDiff is a unified line diff of two texts, one line of context.
// (Not goldie's: the harness links no package that defines a global
// -update flag, so that test binaries using teatest can link it.)
func lineDiff(fromName, toName, from, to string) string {
	d, err := udiff.ToUnified(fromName, toName, from, udiff.Lines(from, to), 1)
	if err != nil {
		return fmt.Sprintf("(no diff: %v)", err)
	}
	return strings.TrimRight(d, "\n")
}

// writeFileAtomic writes a fixture by safefile's rule (temp file, fsync,
// rename, fsync of the directory, mode 0644; never over a link or a
// non-regular file), so a reader never sees a torn fixture.
func writeFileAtomic(path string, data []byte) error {
	// The fixture directory, one level: a parent removed meanwhile (an
	// interrupted record's scratch copy) is not made again.
	if err := os.Mkdir(filepath.Dir(path), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return safefile.WriteFile(path, data, safefile.Options{Force: true})
}
