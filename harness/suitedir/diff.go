package suitedir

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// maxDiffLines bounds a compact diff; the rest is counted, not shown.
const maxDiffLines = 40

// CompactDiff is a unified line diff of old and new with one line of
// context and no file header, cut to maxDiffLines lines.
func CompactDiff(old, new string) string {
	if old == new {
		return ""
	}
	edits := udiff.Lines(old, new)
	d, err := udiff.ToUnified("old", "new", old, edits, 1)
	if err != nil {
		return fmt.Sprintf("(no diff: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	// Drop the "--- old" and "+++ new" header.
	for len(lines) > 0 && (strings.HasPrefix(lines[0], "--- ") || strings.HasPrefix(lines[0], "+++ ")) {
		lines = lines[1:]
	}
	if len(lines) > maxDiffLines {
		n := len(lines) - maxDiffLines
		lines = append(lines[:maxDiffLines], fmt.Sprintf("… %d more diff lines", n))
	}
	return strings.Join(lines, "\n")
}
