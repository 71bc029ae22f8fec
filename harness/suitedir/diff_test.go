package suitedir

import (
	"fmt"
	"strings"
	"testing"
)

func TestCompactDiffBounded(t *testing.T) {
	var old, new strings.Builder
	for i := range 200 {
		fmt.Fprintf(&old, "line %d\n", i)
		fmt.Fprintf(&new, "line %d changed\n", i)
	}
	d := CompactDiff(old.String(), new.String())
	lines := strings.Split(d, "\n")
	if len(lines) != maxDiffLines+1 || !strings.HasPrefix(lines[maxDiffLines], "… ") {
		t.Errorf("diff of %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if CompactDiff("same\n", "same\n") != "" {
		t.Error("a diff of equal texts")
	}
}
