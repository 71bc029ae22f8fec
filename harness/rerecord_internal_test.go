package harness

import (
	"slices"
	"testing"
)

// TestDifferingFiles: a file that differs, or is in one render only, is
// not reproducible; an equal one is.
func TestDifferingFiles(t *testing.T) {
	a := map[string][]byte{"fixtures/x.screen": []byte("1\n"), "fixtures/y.screen": []byte("2\n")}
	b := map[string][]byte{"fixtures/x.screen": []byte("1\n"), "fixtures/y.screen": []byte("3\n"), "scenarios/z.txtar": []byte("4\n")}
	var names []string
	for _, d := range differingFiles(a, b) {
		names = append(names, d.Name)
		if d.Diff() == "" {
			t.Errorf("%s: no diff", d.Name)
		}
	}
	if want := []string{"fixtures/y.screen", "scenarios/z.txtar"}; !slices.Equal(names, want) {
		t.Errorf("differing %q, want %q", names, want)
	}
}
