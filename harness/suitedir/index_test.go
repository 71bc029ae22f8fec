package suitedir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
)

// folder writes a scenario folder with the given scenarios.
func folder(t *testing.T, scenarios map[string]string) suitedir.Dir {
	t.Helper()
	d := suitedir.Dir{Root: t.TempDir()}
	for _, dir := range []string{d.Scenarios(), d.Fixtures()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range scenarios {
		if err := os.WriteFile(filepath.Join(d.Scenarios(), name+".txtar"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestIndex: the index names every step that takes a fixture, conditions
// and all, in scenario order; the first is the owner, and a name taken
// twice is a clash for a record of either scenario only.
func TestIndex(t *testing.T) {
	d := folder(t, map[string]string{
		"alpha": "mount 80 24\nsnapshot one\n[!windows] snapshot two\n",
		"beta":  "# b\n[unix] ! snapshot two\nsnapshot three\n-- x --\nsnapshot four\n",
		"gamma": "snapshot five\n",
	})
	ix, err := d.Index()
	if err != nil {
		t.Fatal(err)
	}
	want := harness.SnapshotIndex{
		"one":   {{Scenario: "alpha", Line: 2}},
		"two":   {{Scenario: "alpha", Line: 3}, {Scenario: "beta", Line: 2}},
		"three": {{Scenario: "beta", Line: 3}},
		"five":  {{Scenario: "gamma", Line: 1}},
	}
	if diff := cmp.Diff(want, ix); diff != "" {
		t.Fatalf("Index (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ name, owner string }{
		{"one", "alpha"}, {"two", "alpha"}, {"three", "beta"}, {"four", ""}, {"none", ""},
	} {
		if got := ix.Owner(tc.name); got != tc.owner {
			t.Errorf("Owner(%q) = %q, want %q", tc.name, got, tc.owner)
		}
	}
	clash := "fixtures/two.screen is snapshotted by scenarios/alpha.txtar:3 and scenarios/beta.txtar:2"
	for _, tc := range []struct {
		scenarios []string
		want      []string
	}{
		{nil, nil},
		{[]string{"gamma"}, nil},
		{[]string{"alpha"}, []string{clash}},
		{[]string{"beta", "gamma"}, []string{clash}},
	} {
		if diff := cmp.Diff(tc.want, ix.Clashes(tc.scenarios, "scenarios", "fixtures")); diff != "" {
			t.Errorf("Clashes(%q) (-want +got):\n%s", tc.scenarios, diff)
		}
	}
}
