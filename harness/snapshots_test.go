package harness_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dshtest/dshtest/harness"
)

// TestSnapshotSteps: the one reader of snapshot steps takes conditions,
// negation, quotes and indentation, and stops at the archive.
func TestSnapshotSteps(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []harness.SnapshotStep
	}{
		{"none", "user 'hi'\nmount 80 24\n", nil},
		{"plain", "mount 80 24\nsnapshot a-1\n", []harness.SnapshotStep{{Name: "a-1", Line: 2}}},
		{"condition", "[!windows] snapshot b\n", []harness.SnapshotStep{{Name: "b", Line: 1}}},
		{"conditions", "[short] [!race] snapshot c\n", []harness.SnapshotStep{{Name: "c", Line: 1}}},
		{"negated", "! snapshot d\n", []harness.SnapshotStep{{Name: "d", Line: 1}}},
		{"condition and negation", "[unix] ! snapshot e\n", []harness.SnapshotStep{{Name: "e", Line: 1}}},
		{"indented, quoted", "\n  snapshot 'f'\n\tsnapshot \"g\"\n", []harness.SnapshotStep{{Name: "f", Line: 2}, {Name: "g", Line: 3}}},
		{"not the verb", "snapshots x\n# snapshot y\nuser 'snapshot z'\nsnapshot\n", nil},
		{"archive ends the script", "snapshot h\n-- fixtures.txt --\nsnapshot i\n", []harness.SnapshotStep{{Name: "h", Line: 1}}},
		{"archive header with trailing space", "-- a.txt -- \nsnapshot j\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := harness.SnapshotSteps([]byte(tc.script))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SnapshotSteps(%q) (-want +got):\n%s", tc.script, diff)
			}
		})
	}
}
