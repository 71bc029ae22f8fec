package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCRLFFixture: a fixture whose only difference from the screen is a
// checkout's CRLF line endings fails saying so, not with a diff of every
// line.
func TestCRLFFixture(t *testing.T) {
	dir := t.TempDir()
	screen := "size 80x24\ndocument\n\"hi\"\nscreen\n"
	if err := os.WriteFile(filepath.Join(dir, "a"+FixtureSuffix), []byte(strings.ReplaceAll(screen, "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newFixtureStore(dir, false, false, "", "")
	err := s.check("a", "sc", []byte(screen))
	var m *mismatchError
	if !errors.As(err, &m) {
		t.Fatalf("check = %v, want a mismatch", err)
	}
	if !strings.Contains(m.m.Diff, "only the line endings differ") || strings.Contains(m.m.Diff, "+++") {
		t.Errorf("diff = %q", m.m.Diff)
	}
}
