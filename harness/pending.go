package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// PendingSuffix is the file suffix of a pending snapshot: the new screen
// of a snapshot that differed from its fixture (or had none), written
// beside the fixture (or into a pending directory) for review. A pending
// file is never a fixture: the inventory ignores it.
const PendingSuffix = FixtureSuffix + ".new"

// IsCI reports whether the value of the CI environment variable means
// "running in CI": any value but the empty string, "0" and "false" (in any
// case).
func IsCI(value string) bool {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "", "0", "false":
		return false
	}
	return true
}

// PendingDirFromEnv is where pending snapshots go for a fixture directory:
// beside the fixtures outside CI; under CI only $DSHTEST_PENDING_DIR (so a
// job can upload it), and nowhere ("") without it.
func PendingDirFromEnv(getenv func(string) string, fixtureDir string) string {
	if IsCI(getenv("CI")) {
		return getenv("DSHTEST_PENDING_DIR")
	}
	return fixtureDir
}

// IsPending reports whether a file name is a pending snapshot.
func IsPending(file string) bool { return strings.HasSuffix(file, PendingSuffix) }

// Mismatch is one snapshot whose screen differed from its fixture, or
// whose fixture was missing. A scenario goes on after a mismatch, so every
// differing snapshot of it is reported, and fails at its end.
type Mismatch struct {
	// Scenario is the scenario's name; File its file as the user names it
	// ("scenarios/NAME.txtar") and Line the snapshot step's line (0 when
	// not found).
	Scenario string `json:"scenario"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	// Name is the fixture's name and Fixture its file
	// ("fixtures/NAME.screen").
	Name    string `json:"name"`
	Fixture string `json:"fixture"`
	// Missing is set when there was no fixture at all.
	Missing bool `json:"missing,omitempty"`
	// Diff is the line diff recorded → new (empty when missing).
	Diff string `json:"diff,omitempty"`
	// Pending is the pending file written, as a path relative to the
	// fixture directory's parent when it lies there; "" when none was
	// written (CI without a pending directory).
	Pending string `json:"pending,omitempty"`
	// Recorded and New are the recorded fixture's bytes (nil when
	// missing) and the new screen's, for pictures of the change.
	Recorded []byte `json:"-"`
	New      []byte `json:"-"`
	// Dir is Config.HintDir: the --dir the suggested commands need.
	Dir string `json:"-"`
}

// Message is the mismatch as one failure message: where, what, and what
// to do.
func (m Mismatch) Message() string {
	where := m.File
	if m.Line > 0 {
		where = fmt.Sprintf("%s:%d", m.File, m.Line)
	}
	var b strings.Builder
	if m.Missing {
		fmt.Fprintf(&b, "%s: %s: missing", where, m.Fixture)
	} else {
		fmt.Fprintf(&b, "%s: %s: the screen differs from the recorded fixture:\n%s", where, m.Fixture, m.Diff)
	}
	b.WriteString("\n" + m.Hint())
	return b.String()
}

// Hint says what to do about the mismatch, as commands that work when
// pasted: a pending file that is not beside its fixture (a pending
// directory, as under CI) is found by those commands only with
// --pending-dir DIR, and a suite the run was given with --dir only with
// --dir, so the hint names them.
func (m Mismatch) Hint() string {
	dir := ""
	if m.Dir != "" {
		dir = "--dir " + ShellQuote(m.Dir) + " "
	}
	if m.Pending == "" {
		return fmt.Sprintf("no pending file written (--pending-dir or $DSHTEST_PENDING_DIR keeps one under CI); to record: dshtest record %s%s", dir, m.Scenario)
	}
	args := dir + ShellQuote(m.Name)
	if pdir := m.PendingDir(); pdir != "" {
		args = dir + "--pending-dir " + ShellQuote(pdir) + " " + ShellQuote(m.Name)
	}
	return fmt.Sprintf("new screen in %s; to decide: dshtest review %s, dshtest accept %s or dshtest reject %s",
		m.Pending, args, args, args)
}

// PendingDir is the pending directory the deciding commands (review,
// accept, reject) must be told of with --pending-dir to find the pending
// file: its folder when that is not the fixture's, else "".
func (m Mismatch) PendingDir() string {
	if m.Pending == "" {
		return ""
	}
	if dir := filepath.Dir(m.Pending); dir != filepath.Dir(m.Fixture) {
		return dir
	}
	return ""
}

// ShellQuote quotes s for a POSIX shell when it needs it, for a command
// line a message suggests.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// mismatchError carries a Mismatch out of the fixture store.
type mismatchError struct{ m Mismatch }

func (e *mismatchError) Error() string { return e.m.Message() }

// asMismatch returns the mismatch err carries.
func asMismatch(err error) (Mismatch, bool) {
	var me *mismatchError
	if errors.As(err, &me) {
		return me.m, true
	}
	return Mismatch{}, false
}

// pendingPath is the pending file of name, or "" when none is kept.
func (s *fixtureStore) pendingPath(name string) string {
	if s.pendingDir == "" {
		return ""
	}
	return filepath.Join(s.pendingDir, name+PendingSuffix)
}

// writePending writes the new screen of name as its pending file and
// returns how messages name it ("" when no pending file is kept).
func (s *fixtureStore) writePending(name string, data []byte) (string, error) {
	p := s.pendingPath(name)
	if p == "" {
		return "", nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("%s: write pending file: %w", s.display(name), err)
	}
	if err := writeFileAtomic(p, data); err != nil {
		return "", fmt.Errorf("%s: write pending file: %w", s.display(name), err)
	}
	return s.displayPath(p), nil
}

// removePending deletes a stale pending file of name, if any.
func (s *fixtureStore) removePending(name string) error {
	p := s.pendingPath(name)
	if p == "" {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: remove stale pending file: %w", s.display(name), err)
	}
	return nil
}

// displayPath names a file beside the fixtures as "fixtures/FILE", and any
// other file by its path.
func (s *fixtureStore) displayPath(p string) string {
	if filepath.Dir(p) == filepath.Clean(s.dir) {
		return filepath.ToSlash(filepath.Join(filepath.Base(s.dir), filepath.Base(p)))
	}
	return p
}
