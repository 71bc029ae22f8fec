package suitedir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestUnstable: the files that differ between two renders, either side
// missing one, named as messages name them.
func TestUnstable(t *testing.T) {
	a := Tree{"x.screen": []byte("1\n"), "y.screen": []byte("2\n")}
	b := Tree{"x.screen": []byte("1\n"), "y.screen": []byte("3\n"), "z.screen": []byte("4\n")}
	var names []string
	for _, u := range unstable(a, b, InFixtures) {
		names = append(names, u.File)
	}
	if diff := cmp.Diff([]string{"fixtures/y.screen", "fixtures/z.screen"}, names); diff != "" {
		t.Errorf("unstable (-want +got):\n%s", diff)
	}
	if got := unstable(Tree{}, Tree{}, InScenarios); got != nil {
		t.Errorf("unstable of empty trees = %v", got)
	}
}
